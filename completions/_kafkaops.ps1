
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kafkaops' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kafkaops'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kafkaops' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('rebalance', 'rebalance', [CompletionResultType]::ParameterValue, 'Move replicas with Cruise Control: onto new brokers, off leaving brokers, or across the cluster')
            [CompletionResult]::new('roll', 'roll', [CompletionResultType]::ParameterValue, 'Safe rolling restart / dynamic reconfiguration of Kafka nodes')
            [CompletionResult]::new('topic', 'topic', [CompletionResultType]::ParameterValue, 'Topic operations: replication-factor changes through Cruise Control')
            [CompletionResult]::new('anomalies', 'anomalies', [CompletionResultType]::ParameterValue, 'Watch the anomalies Cruise Control detects')
            [CompletionResult]::new('broker', 'broker', [CompletionResultType]::ParameterValue, 'Brokers: cordon or uncordon (KIP-1066), list registrations, unregister ghosts (KIP-1073)')
            [CompletionResult]::new('quorum', 'quorum', [CompletionResultType]::ParameterValue, 'The KRaft controller quorum: status, add or remove a controller, migrate static to dynamic')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Software upgrades: each node''s version and the feature levels (dry run), --finalize')
            [CompletionResult]::new('reassignments', 'reassignments', [CompletionResultType]::ParameterValue, 'Partition reassignments in flight, whoever started them: list or cancel')
            [CompletionResult]::new('health', 'health', [CompletionResultType]::ParameterValue, 'One verdict on the cluster (healthy, degraded, unavailable) with every reason; exit codes 0, 13, 14 for scripts and probes')
            [CompletionResult]::new('throttles', 'throttles', [CompletionResultType]::ParameterValue, 'Replication throttles left behind by reassignments: list or clear')
            [CompletionResult]::new('hold', 'hold', [CompletionResultType]::ParameterValue, 'Node holds: nodes a roll never restarts and a rebalance never moves replicas to, until the hold expires (stored in the cluster, in the compacted topic __kafkaops_holds)')
            [CompletionResult]::new('journal', 'journal', [CompletionResultType]::ParameterValue, 'The journals of past runs that changed something: list, show one, bundle them for a ticket (kept in the state directory''s journal/)')
            [CompletionResult]::new('operate', 'operate', [CompletionResultType]::ParameterValue, 'Keep a cluster as a policy file says, unattended: auto-rebalance on scale-up, scale-down and goal violations; never two movers at once. Runs until SIGTERM; its state survives restarts')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect the resolved configuration and switch contexts')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;rebalance' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Move replicas onto newly added brokers (Cruise Control add_broker)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Move all replicas off brokers about to be removed (Cruise Control remove_broker)')
            [CompletionResult]::new('full', 'full', [CompletionResultType]::ParameterValue, 'Rebalance the whole cluster (Cruise Control rebalance)')
            [CompletionResult]::new('demote', 'demote', [CompletionResultType]::ParameterValue, 'Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)')
            [CompletionResult]::new('remove-disks', 'remove-disks', [CompletionResultType]::ParameterValue, 'Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)')
            [CompletionResult]::new('imbalance', 'imbalance', [CompletionResultType]::ParameterValue, 'Fix the goal violations Cruise Control reports that no rebalance handled yet: a full rebalance with a template''s goals and options (dry run unless --execute)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what Cruise Control is executing')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop the ongoing Cruise Control execution')
            [CompletionResult]::new('pace', 'pace', [CompletionResultType]::ParameterValue, 'Change the pace of the running execution live (Cruise Control''s admin endpoint)')
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Cruise Control''s two-step verification: list, approve or discard held requests')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;rebalance;add' {
            [CompletionResult]::new('--brokers', '--brokers', [CompletionResultType]::ParameterName, 'The new brokers (comma-separated ids); replicas move only onto these')
            [CompletionResult]::new('--goals', '--goals', [CompletionResultType]::ParameterName, 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control''s]')
            [CompletionResult]::new('--excluded-topics', '--excluded-topics', [CompletionResultType]::ParameterName, 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--max-partition-movements-in-cluster', '--max-partition-movements-in-cluster', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements in the whole cluster')
            [CompletionResult]::new('--replica-movement-strategies', '--replica-movement-strategies', [CompletionResultType]::ParameterName, 'Order of the replica movements: strategies from Cruise Control''s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)')
            [CompletionResult]::new('--cc-param', '--cc-param', [CompletionResultType]::ParameterName, 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)')
            [CompletionResult]::new('--approved-plan', '--approved-plan', [CompletionResultType]::ParameterName, 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb')
            [CompletionResult]::new('--review-id', '--review-id', [CompletionResultType]::ParameterName, 'Run the request Cruise Control''s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control''s proposal (and the start of the execution) after this long')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--skip-hard-goal-check', '--skip-hard-goal-check', [CompletionResultType]::ParameterName, 'Allow goals that leave out some hard goals')
            [CompletionResult]::new('--exclude-recently-demoted-brokers', '--exclude-recently-demoted-brokers', [CompletionResultType]::ParameterName, 'Do not move leadership onto recently demoted brokers')
            [CompletionResult]::new('--show-internal', '--show-internal', [CompletionResultType]::ParameterName, 'List internal topics (`__*`, e.g. Cruise Control''s own sample topics) one by one in the movements table (default: one line for all of them)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the proposal (default: dry run, show it only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once the execution started, printing the task id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;remove' {
            [CompletionResult]::new('--brokers', '--brokers', [CompletionResultType]::ParameterName, 'The brokers being removed (comma-separated ids); replicas move only off these')
            [CompletionResult]::new('--destination-brokers', '--destination-brokers', [CompletionResultType]::ParameterName, 'Move replicas only onto these brokers (comma-separated ids)')
            [CompletionResult]::new('--goals', '--goals', [CompletionResultType]::ParameterName, 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control''s]')
            [CompletionResult]::new('--excluded-topics', '--excluded-topics', [CompletionResultType]::ParameterName, 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--max-partition-movements-in-cluster', '--max-partition-movements-in-cluster', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements in the whole cluster')
            [CompletionResult]::new('--replica-movement-strategies', '--replica-movement-strategies', [CompletionResultType]::ParameterName, 'Order of the replica movements: strategies from Cruise Control''s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)')
            [CompletionResult]::new('--cc-param', '--cc-param', [CompletionResultType]::ParameterName, 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)')
            [CompletionResult]::new('--approved-plan', '--approved-plan', [CompletionResultType]::ParameterName, 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb')
            [CompletionResult]::new('--review-id', '--review-id', [CompletionResultType]::ParameterName, 'Run the request Cruise Control''s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control''s proposal (and the start of the execution) after this long')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--skip-hard-goal-check', '--skip-hard-goal-check', [CompletionResultType]::ParameterName, 'Allow goals that leave out some hard goals')
            [CompletionResult]::new('--exclude-recently-demoted-brokers', '--exclude-recently-demoted-brokers', [CompletionResultType]::ParameterName, 'Do not move leadership onto recently demoted brokers')
            [CompletionResult]::new('--show-internal', '--show-internal', [CompletionResultType]::ParameterName, 'List internal topics (`__*`, e.g. Cruise Control''s own sample topics) one by one in the movements table (default: one line for all of them)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the proposal (default: dry run, show it only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once the execution started, printing the task id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;full' {
            [CompletionResult]::new('--destination-brokers', '--destination-brokers', [CompletionResultType]::ParameterName, 'Move replicas only onto these brokers (comma-separated ids)')
            [CompletionResult]::new('--concurrent-intra-broker-partition-movements', '--concurrent-intra-broker-partition-movements', [CompletionResultType]::ParameterName, 'Concurrent intra-broker (between disks) partition movements')
            [CompletionResult]::new('--goals', '--goals', [CompletionResultType]::ParameterName, 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control''s]')
            [CompletionResult]::new('--excluded-topics', '--excluded-topics', [CompletionResultType]::ParameterName, 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--max-partition-movements-in-cluster', '--max-partition-movements-in-cluster', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements in the whole cluster')
            [CompletionResult]::new('--replica-movement-strategies', '--replica-movement-strategies', [CompletionResultType]::ParameterName, 'Order of the replica movements: strategies from Cruise Control''s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)')
            [CompletionResult]::new('--cc-param', '--cc-param', [CompletionResultType]::ParameterName, 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)')
            [CompletionResult]::new('--approved-plan', '--approved-plan', [CompletionResultType]::ParameterName, 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb')
            [CompletionResult]::new('--review-id', '--review-id', [CompletionResultType]::ParameterName, 'Run the request Cruise Control''s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control''s proposal (and the start of the execution) after this long')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--rebalance-disk', '--rebalance-disk', [CompletionResultType]::ParameterName, 'Balance the disks within each broker instead (JBOD; Cruise Control''s intra-broker goals; no --goals)')
            [CompletionResult]::new('--skip-hard-goal-check', '--skip-hard-goal-check', [CompletionResultType]::ParameterName, 'Allow goals that leave out some hard goals')
            [CompletionResult]::new('--exclude-recently-demoted-brokers', '--exclude-recently-demoted-brokers', [CompletionResultType]::ParameterName, 'Do not move leadership onto recently demoted brokers')
            [CompletionResult]::new('--show-internal', '--show-internal', [CompletionResultType]::ParameterName, 'List internal topics (`__*`, e.g. Cruise Control''s own sample topics) one by one in the movements table (default: one line for all of them)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the proposal (default: dry run, show it only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once the execution started, printing the task id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;demote' {
            [CompletionResult]::new('--brokers', '--brokers', [CompletionResultType]::ParameterName, 'The brokers to demote (comma-separated ids): their replicas become the least preferred leaders and leadership moves away')
            [CompletionResult]::new('--goals', '--goals', [CompletionResultType]::ParameterName, 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control''s]')
            [CompletionResult]::new('--excluded-topics', '--excluded-topics', [CompletionResultType]::ParameterName, 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--max-partition-movements-in-cluster', '--max-partition-movements-in-cluster', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements in the whole cluster')
            [CompletionResult]::new('--replica-movement-strategies', '--replica-movement-strategies', [CompletionResultType]::ParameterName, 'Order of the replica movements: strategies from Cruise Control''s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)')
            [CompletionResult]::new('--cc-param', '--cc-param', [CompletionResultType]::ParameterName, 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)')
            [CompletionResult]::new('--approved-plan', '--approved-plan', [CompletionResultType]::ParameterName, 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb')
            [CompletionResult]::new('--review-id', '--review-id', [CompletionResultType]::ParameterName, 'Run the request Cruise Control''s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control''s proposal (and the start of the execution) after this long')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--skip-hard-goal-check', '--skip-hard-goal-check', [CompletionResultType]::ParameterName, 'Allow goals that leave out some hard goals')
            [CompletionResult]::new('--exclude-recently-demoted-brokers', '--exclude-recently-demoted-brokers', [CompletionResultType]::ParameterName, 'Do not move leadership onto recently demoted brokers')
            [CompletionResult]::new('--show-internal', '--show-internal', [CompletionResultType]::ParameterName, 'List internal topics (`__*`, e.g. Cruise Control''s own sample topics) one by one in the movements table (default: one line for all of them)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the proposal (default: dry run, show it only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once the execution started, printing the task id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;remove-disks' {
            [CompletionResult]::new('--brokers-and-logdirs', '--brokers-and-logdirs', [CompletionResultType]::ParameterName, 'Volumes to empty, as BROKER-LOGDIR (comma-separated), e.g. 1-/var/lib/kafka/data-1')
            [CompletionResult]::new('--goals', '--goals', [CompletionResultType]::ParameterName, 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control''s]')
            [CompletionResult]::new('--excluded-topics', '--excluded-topics', [CompletionResultType]::ParameterName, 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--max-partition-movements-in-cluster', '--max-partition-movements-in-cluster', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements in the whole cluster')
            [CompletionResult]::new('--replica-movement-strategies', '--replica-movement-strategies', [CompletionResultType]::ParameterName, 'Order of the replica movements: strategies from Cruise Control''s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)')
            [CompletionResult]::new('--cc-param', '--cc-param', [CompletionResultType]::ParameterName, 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)')
            [CompletionResult]::new('--approved-plan', '--approved-plan', [CompletionResultType]::ParameterName, 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb')
            [CompletionResult]::new('--review-id', '--review-id', [CompletionResultType]::ParameterName, 'Run the request Cruise Control''s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control''s proposal (and the start of the execution) after this long')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--skip-hard-goal-check', '--skip-hard-goal-check', [CompletionResultType]::ParameterName, 'Allow goals that leave out some hard goals')
            [CompletionResult]::new('--exclude-recently-demoted-brokers', '--exclude-recently-demoted-brokers', [CompletionResultType]::ParameterName, 'Do not move leadership onto recently demoted brokers')
            [CompletionResult]::new('--show-internal', '--show-internal', [CompletionResultType]::ParameterName, 'List internal topics (`__*`, e.g. Cruise Control''s own sample topics) one by one in the movements table (default: one line for all of them)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the proposal (default: dry run, show it only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once the execution started, printing the task id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;imbalance' {
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Rebalance template: YAML with the fields of a KafkaRebalance spec (goals, skipHardGoalCheck, excludedTopics, replicationThrottle, concurrentPartitionMovementsPerBroker, concurrentLeaderMovements), or a whole KafkaRebalance; flags given here override it')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Directory of the file that records which violations were fixed [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'With --watch: pause between looks at Cruise Control''s anomalies')
            [CompletionResult]::new('--goals', '--goals', [CompletionResultType]::ParameterName, 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control''s]')
            [CompletionResult]::new('--excluded-topics', '--excluded-topics', [CompletionResultType]::ParameterName, 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--max-partition-movements-in-cluster', '--max-partition-movements-in-cluster', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements in the whole cluster')
            [CompletionResult]::new('--replica-movement-strategies', '--replica-movement-strategies', [CompletionResultType]::ParameterName, 'Order of the replica movements: strategies from Cruise Control''s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)')
            [CompletionResult]::new('--cc-param', '--cc-param', [CompletionResultType]::ParameterName, 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)')
            [CompletionResult]::new('--approved-plan', '--approved-plan', [CompletionResultType]::ParameterName, 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb')
            [CompletionResult]::new('--review-id', '--review-id', [CompletionResultType]::ParameterName, 'Run the request Cruise Control''s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control''s proposal (and the start of the execution) after this long')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Keep watching and rebalance on every new goal violation until stopped (Ctrl-C)')
            [CompletionResult]::new('--skip-hard-goal-check', '--skip-hard-goal-check', [CompletionResultType]::ParameterName, 'Allow goals that leave out some hard goals')
            [CompletionResult]::new('--exclude-recently-demoted-brokers', '--exclude-recently-demoted-brokers', [CompletionResultType]::ParameterName, 'Do not move leadership onto recently demoted brokers')
            [CompletionResult]::new('--show-internal', '--show-internal', [CompletionResultType]::ParameterName, 'List internal topics (`__*`, e.g. Cruise Control''s own sample topics) one by one in the movements table (default: one line for all of them)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the proposal (default: dry run, show it only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once the execution started, printing the task id')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;status' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control after this long')
            [CompletionResult]::new('--task', '--task', [CompletionResultType]::ParameterName, 'Report what became of this Cruise Control user task (the task id `--no-wait`, a timeout or an interrupt printed): running, completed (exit 0), failed (exit 1) or stopped (exit 9)')
            [CompletionResult]::new('--follow-timeout', '--follow-timeout', [CompletionResultType]::ParameterName, 'With --follow: give up following after this long (default: follow while it runs)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --task: re-attach and follow the execution until it ends')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;stop' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for the execution to stop after this long')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;pace' {
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker from now on (live), as `rebalance add|remove|full` name it; `--concurrency` still works')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements from now on (`--leader-concurrency` still works)')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'New replication throttle, in bytes per second (`50MB/s`, `500KiB/s`), set on the brokers'' throttle rates while the execution keeps running, and held until it ends (Cruise Control sets its own back before each batch). An execution started without a throttle is stopped and re-submitted with it, after a re-check of the plan (asks first unless --yes); `--throttle` still works')
            [CompletionResult]::new('--max-drift', '--max-drift', [CompletionResultType]::ParameterName, 'With --replication-throttle: largest change between what the stopped execution still had to do and the re-submitted proposal, in percent of the movements, leader movements and data; past it the execution stays stopped')
            [CompletionResult]::new('--max-data-mb', '--max-data-mb', [CompletionResultType]::ParameterName, 'With --replication-throttle: largest change of the data to move, in MB (default: no absolute cap)')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control after this long (with --replication-throttle: for the stop and the re-submission each)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--once', '--once', [CompletionResultType]::ParameterName, 'With --replication-throttle: change the brokers'' rates once and return instead of holding the new rate until the execution ends (Cruise Control sets its own back at its next batch)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'With --replication-throttle: follow the resumed execution until it ends (default: print its task id and return, as `--no-wait`)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;review' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the requests Cruise Control holds for review (review_board)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve held requests; run one with the same command plus `--review-id ID`')
            [CompletionResult]::new('discard', 'discard', [CompletionResultType]::ParameterValue, 'Discard held requests')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;rebalance;review;list' {
            [CompletionResult]::new('--ids', '--ids', [CompletionResultType]::ParameterName, 'Only these review ids (comma-separated)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control after this long')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;review;approve' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the review')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control after this long')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;review;discard' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the review')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting for Cruise Control after this long')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;rebalance;review;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the requests Cruise Control holds for review (review_board)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve held requests; run one with the same command plus `--review-id ID`')
            [CompletionResult]::new('discard', 'discard', [CompletionResultType]::ParameterValue, 'Discard held requests')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;rebalance;review;help;list' {
            break
        }
        'kafkaops;rebalance;review;help;approve' {
            break
        }
        'kafkaops;rebalance;review;help;discard' {
            break
        }
        'kafkaops;rebalance;review;help;help' {
            break
        }
        'kafkaops;rebalance;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Move replicas onto newly added brokers (Cruise Control add_broker)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Move all replicas off brokers about to be removed (Cruise Control remove_broker)')
            [CompletionResult]::new('full', 'full', [CompletionResultType]::ParameterValue, 'Rebalance the whole cluster (Cruise Control rebalance)')
            [CompletionResult]::new('demote', 'demote', [CompletionResultType]::ParameterValue, 'Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)')
            [CompletionResult]::new('remove-disks', 'remove-disks', [CompletionResultType]::ParameterValue, 'Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)')
            [CompletionResult]::new('imbalance', 'imbalance', [CompletionResultType]::ParameterValue, 'Fix the goal violations Cruise Control reports that no rebalance handled yet: a full rebalance with a template''s goals and options (dry run unless --execute)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what Cruise Control is executing')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop the ongoing Cruise Control execution')
            [CompletionResult]::new('pace', 'pace', [CompletionResultType]::ParameterValue, 'Change the pace of the running execution live (Cruise Control''s admin endpoint)')
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Cruise Control''s two-step verification: list, approve or discard held requests')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;rebalance;help;add' {
            break
        }
        'kafkaops;rebalance;help;remove' {
            break
        }
        'kafkaops;rebalance;help;full' {
            break
        }
        'kafkaops;rebalance;help;demote' {
            break
        }
        'kafkaops;rebalance;help;remove-disks' {
            break
        }
        'kafkaops;rebalance;help;imbalance' {
            break
        }
        'kafkaops;rebalance;help;status' {
            break
        }
        'kafkaops;rebalance;help;stop' {
            break
        }
        'kafkaops;rebalance;help;pace' {
            break
        }
        'kafkaops;rebalance;help;review' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the requests Cruise Control holds for review (review_board)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve held requests; run one with the same command plus `--review-id ID`')
            [CompletionResult]::new('discard', 'discard', [CompletionResultType]::ParameterValue, 'Discard held requests')
            break
        }
        'kafkaops;rebalance;help;review;list' {
            break
        }
        'kafkaops;rebalance;help;review;approve' {
            break
        }
        'kafkaops;rebalance;help;review;discard' {
            break
        }
        'kafkaops;rebalance;help;help' {
            break
        }
        'kafkaops;roll' {
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'Roll these nodes (comma-separated ids)')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Roll the nodes with this role')
            [CompletionResult]::new('--desired-config', '--desired-config', [CompletionResultType]::ParameterName, 'Desired broker configuration (a .properties file): broker-role nodes whose effective config differs are reconfigured dynamically where possible, restarted otherwise')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Desired configuration value (repeatable)')
            [CompletionResult]::new('--max-batch-size', '--max-batch-size', [CompletionResultType]::ParameterName, 'Most brokers restarted together (only brokers sharing no partition)')
            [CompletionResult]::new('--post-restart-timeout', '--post-restart-timeout', [CompletionResultType]::ParameterName, 'How long a restarted node may take to serve again')
            [CompletionResult]::new('--post-reconfigure-timeout', '--post-reconfigure-timeout', [CompletionResultType]::ParameterName, 'How long a reconfigured node may take to settle')
            [CompletionResult]::new('--max-restart-attempts', '--max-restart-attempts', [CompletionResultType]::ParameterName, 'Restarts of one node before the roll aborts')
            [CompletionResult]::new('--max-reconfig-attempts', '--max-reconfig-attempts', [CompletionResultType]::ParameterName, 'Failed dynamic reconfigurations before a node is restarted instead')
            [CompletionResult]::new('--restart-command', '--restart-command', [CompletionResultType]::ParameterName, 'Command restarting a node; {id} and {host} are replaced')
            [CompletionResult]::new('--stop-command', '--stop-command', [CompletionResultType]::ParameterName, 'Instead of --restart-command: command stopping a node ({id}, {host}); needs --start-command')
            [CompletionResult]::new('--start-command', '--start-command', [CompletionResultType]::ParameterName, 'Instead of --restart-command: command starting a node ({id}, {host}); needs --stop-command')
            [CompletionResult]::new('--command-timeout', '--command-timeout', [CompletionResultType]::ParameterName, 'Timeout of one restart command')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'How often to observe the cluster while waiting')
            [CompletionResult]::new('--blocked-timeout', '--blocked-timeout', [CompletionResultType]::ParameterName, 'How long a safety check (min ISR, quorum, log recovery) may hold the roll back mid-way before it aborts')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Directory of the saved roll state (one file per cluster); a re-run of the same roll resumes from it [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--pod-selector', '--pod-selector', [CompletionResultType]::ParameterName, 'Kubernetes: roll the pods matching this label selector (restart = delete the pod)')
            [CompletionResult]::new('--node-id-label', '--node-id-label', [CompletionResultType]::ParameterName, 'With --pod-selector: the pod label holding the Kafka node id [default: the number ending the pod name, e.g. a StatefulSet ordinal]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Roll every node')
            [CompletionResult]::new('--include-unhealthy', '--include-unhealthy', [CompletionResultType]::ParameterName, 'Also restart unhealthy nodes outside the selection (stopped, not ready, lagging); by default they are only reported and still count in the safety checks')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the plan and exit')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Roll even though Cruise Control is executing or cannot be asked (when it is configured or found with --strimzi), or, with --strimzi, the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5, or 6 when Cruise Control cannot be asked)')
            [CompletionResult]::new('--no-preferred-leader-election', '--no-preferred-leader-election', [CompletionResultType]::ParameterName, 'Do not restore preferred leaders after each restart')
            [CompletionResult]::new('--discard-state', '--discard-state', [CompletionResultType]::ParameterName, 'Delete a saved roll of this cluster (finished or not) before starting')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse to roll (exit 1, nothing restarted; a dry run exits 1 too) while any topic on the nodes to restart cannot stay available: replication factor 1, factor at or below min.insync.replicas, partitions already under min ISR or offline; and (exit 5) while partition reassignments that Cruise Control did not start are in flight')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;topic' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('set-rf', 'set-rf', [CompletionResultType]::ParameterValue, 'Change the replication factor of topics through Cruise Control (dry run unless --execute)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Replication-factor changes: pending, ongoing and finished (from the state file, refreshed from Kafka and Cruise Control where possible); changes nothing')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;topic;set-rf' {
            [CompletionResult]::new('--topics', '--topics', [CompletionResultType]::ParameterName, 'Topics to change (exact names; repeatable or comma-separated)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'The new replication factor of --topics')
            [CompletionResult]::new('--replication-factor', '--replication-factor', [CompletionResultType]::ParameterName, 'The new replication factor of --topics')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'YAML or JSON list of `{topic, replication_factor}` entries (several factors in one run)')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where the state file (`topic-set-rf.json`) of pending and ongoing changes lives [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]')
            [CompletionResult]::new('--replication-throttle', '--replication-throttle', [CompletionResultType]::ParameterName, 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)')
            [CompletionResult]::new('--concurrent-partition-movements-per-broker', '--concurrent-partition-movements-per-broker', [CompletionResultType]::ParameterName, 'Concurrent inter-broker partition movements per broker')
            [CompletionResult]::new('--concurrent-leader-movements', '--concurrent-leader-movements', [CompletionResultType]::ParameterName, 'Concurrent leader movements')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Reason recorded by Cruise Control for the request')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up waiting (for another execution to end, for the change to finish) after this long')
            [CompletionResult]::new('--wait-for-ready', '--wait-for-ready', [CompletionResultType]::ParameterName, 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'Pause between polls of Cruise Control (it advises at least 5s)')
            [CompletionResult]::new('--wait-for-reassignments', '--wait-for-reassignments', [CompletionResultType]::ParameterName, 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Old spelling of `kafkaops topic status` (kept, hidden)')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Execute the change (default: dry run, show Cruise Control''s proposal only)')
            [CompletionResult]::new('--no-wait', '--no-wait', [CompletionResultType]::ParameterName, 'With --execute: return once Cruise Control accepted the change (follow it later by re-running the same command, or see it with `kafkaops topic status`)')
            [CompletionResult]::new('--allow-below-min-isr', '--allow-below-min-isr', [CompletionResultType]::ParameterName, 'Allow a factor below the topic''s min.insync.replicas (producers with acks=all will fail)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --strimzi: execute even though the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;topic;status' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Where the state file (`topic-set-rf.json`) of pending and ongoing changes lives [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;topic;help' {
            [CompletionResult]::new('set-rf', 'set-rf', [CompletionResultType]::ParameterValue, 'Change the replication factor of topics through Cruise Control (dry run unless --execute)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Replication-factor changes: pending, ongoing and finished (from the state file, refreshed from Kafka and Cruise Control where possible); changes nothing')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;topic;help;set-rf' {
            break
        }
        'kafkaops;topic;help;status' {
            break
        }
        'kafkaops;topic;help;help' {
            break
        }
        'kafkaops;anomalies' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Stream the anomalies Cruise Control detects: each once when it first appears and again when its status changes (a live table on a terminal, one JSON object per line when piped)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;anomalies;watch' {
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Poll interval (Cruise Control keeps only a few recent anomalies per type: poll often enough not to miss one)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only these anomaly types (comma-separated or repeated) [default: all]')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only anomalies with these statuses, e.g. DETECTED,IGNORED,FIX_STARTED (comma-separated or repeated) [default: all]')
            [CompletionResult]::new('--exit-on', '--exit-on', [CompletionResultType]::ParameterName, 'Exit with code 10 as soon as an anomaly of this type appears (comma-separated or repeated), for scripts and alerting')
            [CompletionResult]::new('--max-backoff', '--max-backoff', [CompletionResultType]::ParameterName, 'Longest pause between attempts while Cruise Control is unreachable')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--once', '--once', [CompletionResultType]::ParameterName, 'Print the current anomalies once and exit')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;anomalies;help' {
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Stream the anomalies Cruise Control detects: each once when it first appears and again when its status changes (a live table on a terminal, one JSON object per line when piped)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;anomalies;help;watch' {
            break
        }
        'kafkaops;anomalies;help;help' {
            break
        }
        'kafkaops;broker' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('cordon', 'cordon', [CompletionResultType]::ParameterValue, 'Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created while they are drained do not land on them')
            [CompletionResult]::new('uncordon', 'uncordon', [CompletionResultType]::ParameterValue, 'Uncordon brokers: they take new partitions again')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Registered brokers (fenced ones too): rack, whether they run, replicas still on them')
            [CompletionResult]::new('unregister', 'unregister', [CompletionResultType]::ParameterValue, 'Remove the registration of brokers that are gone (fenced, stopped, holding no replica; KIP-1073). A dry run unless --execute')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;broker;cordon' {
            [CompletionResult]::new('--brokers', '--brokers', [CompletionResultType]::ParameterName, 'The brokers (comma-separated ids)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;broker;uncordon' {
            [CompletionResult]::new('--brokers', '--brokers', [CompletionResultType]::ParameterName, 'The brokers (comma-separated ids)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;broker;list' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;broker;unregister' {
            [CompletionResult]::new('--brokers', '--brokers', [CompletionResultType]::ParameterName, 'The brokers (comma-separated ids)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long to wait until Kafka no longer lists them')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Unregister them (after confirmation, or --yes); without it only the checks run')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;broker;help' {
            [CompletionResult]::new('cordon', 'cordon', [CompletionResultType]::ParameterValue, 'Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created while they are drained do not land on them')
            [CompletionResult]::new('uncordon', 'uncordon', [CompletionResultType]::ParameterValue, 'Uncordon brokers: they take new partitions again')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Registered brokers (fenced ones too): rack, whether they run, replicas still on them')
            [CompletionResult]::new('unregister', 'unregister', [CompletionResultType]::ParameterValue, 'Remove the registration of brokers that are gone (fenced, stopped, holding no replica; KIP-1073). A dry run unless --execute')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;broker;help;cordon' {
            break
        }
        'kafkaops;broker;help;uncordon' {
            break
        }
        'kafkaops;broker;help;list' {
            break
        }
        'kafkaops;broker;help;unregister' {
            break
        }
        'kafkaops;broker;help;help' {
            break
        }
        'kafkaops;quorum' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;quorum;status' {
            [CompletionResult]::new('--caught-up-within', '--caught-up-within', [CompletionResultType]::ParameterName, 'How far behind the leader''s clock a member''s last caught-up time may be (controller.quorum.fetch.timeout.ms)')
            [CompletionResult]::new('--max-lag-records', '--max-lag-records', [CompletionResultType]::ParameterName, 'How many records a controller to add may trail the leader''s log end')
            [CompletionResult]::new('--max-fetch-age', '--max-fetch-age', [CompletionResultType]::ParameterName, 'How old a controller to add''s last fetch may be')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;quorum;add' {
            [CompletionResult]::new('--controller', '--controller', [CompletionResultType]::ParameterName, 'The controller''s node id')
            [CompletionResult]::new('--caught-up-within', '--caught-up-within', [CompletionResultType]::ParameterName, 'How far behind the leader''s clock a member''s last caught-up time may be (controller.quorum.fetch.timeout.ms)')
            [CompletionResult]::new('--max-lag-records', '--max-lag-records', [CompletionResultType]::ParameterName, 'How many records a controller to add may trail the leader''s log end')
            [CompletionResult]::new('--max-fetch-age', '--max-fetch-age', [CompletionResultType]::ParameterName, 'How old a controller to add''s last fetch may be')
            [CompletionResult]::new('--pod-selector', '--pod-selector', [CompletionResultType]::ParameterName, 'Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5) while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the cluster''s pods]')
            [CompletionResult]::new('--node-id-label', '--node-id-label', [CompletionResultType]::ParameterName, 'With --pod-selector: the pod label holding the Kafka node id')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long to wait for the change to be allowed and then to show')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;quorum;remove' {
            [CompletionResult]::new('--controller', '--controller', [CompletionResultType]::ParameterName, 'The controller''s node id')
            [CompletionResult]::new('--caught-up-within', '--caught-up-within', [CompletionResultType]::ParameterName, 'How far behind the leader''s clock a member''s last caught-up time may be (controller.quorum.fetch.timeout.ms)')
            [CompletionResult]::new('--max-lag-records', '--max-lag-records', [CompletionResultType]::ParameterName, 'How many records a controller to add may trail the leader''s log end')
            [CompletionResult]::new('--max-fetch-age', '--max-fetch-age', [CompletionResultType]::ParameterName, 'How old a controller to add''s last fetch may be')
            [CompletionResult]::new('--pod-selector', '--pod-selector', [CompletionResultType]::ParameterName, 'Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5) while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the cluster''s pods]')
            [CompletionResult]::new('--node-id-label', '--node-id-label', [CompletionResultType]::ParameterName, 'With --pod-selector: the pod label holding the Kafka node id')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long to wait for the change to be allowed and then to show')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;quorum;migrate' {
            [CompletionResult]::new('--caught-up-within', '--caught-up-within', [CompletionResultType]::ParameterName, 'How far behind the leader''s clock a member''s last caught-up time may be (controller.quorum.fetch.timeout.ms)')
            [CompletionResult]::new('--max-lag-records', '--max-lag-records', [CompletionResultType]::ParameterName, 'How many records a controller to add may trail the leader''s log end')
            [CompletionResult]::new('--max-fetch-age', '--max-fetch-age', [CompletionResultType]::ParameterName, 'How old a controller to add''s last fetch may be')
            [CompletionResult]::new('--pod-selector', '--pod-selector', [CompletionResultType]::ParameterName, 'Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5) while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the cluster''s pods]')
            [CompletionResult]::new('--node-id-label', '--node-id-label', [CompletionResultType]::ParameterName, 'With --pod-selector: the pod label holding the Kafka node id')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long to wait for the change to be allowed and then to show')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;quorum;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;quorum;help;status' {
            break
        }
        'kafkaops;quorum;help;add' {
            break
        }
        'kafkaops;quorum;help;remove' {
            break
        }
        'kafkaops;quorum;help;migrate' {
            break
        }
        'kafkaops;quorum;help;help' {
            break
        }
        'kafkaops;upgrade' {
            [CompletionResult]::new('--feature', '--feature', [CompletionResultType]::ParameterName, 'A feature level to finalize, FEATURE=LEVEL (repeatable; default: metadata.version at the highest level every node supports). kraft.version is refused: that is `quorum migrate`')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'How long to wait for every node to report the new levels')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Roll every node not yet on this release''s software (e.g. 4.4) through the safe roll, controllers first, once you have changed the software each node starts with: each restarted node must report that release''s latest metadata.version, else the roll stops (nothing is finalized). Resumable like `roll`; then let it soak and `--finalize`')
            [CompletionResult]::new('--max-batch-size', '--max-batch-size', [CompletionResultType]::ParameterName, 'Most brokers restarted together (only brokers sharing no partition)')
            [CompletionResult]::new('--post-restart-timeout', '--post-restart-timeout', [CompletionResultType]::ParameterName, 'How long a restarted node may take to serve again')
            [CompletionResult]::new('--post-reconfigure-timeout', '--post-reconfigure-timeout', [CompletionResultType]::ParameterName, 'How long a reconfigured node may take to settle')
            [CompletionResult]::new('--max-restart-attempts', '--max-restart-attempts', [CompletionResultType]::ParameterName, 'Restarts of one node before the roll aborts')
            [CompletionResult]::new('--max-reconfig-attempts', '--max-reconfig-attempts', [CompletionResultType]::ParameterName, 'Failed dynamic reconfigurations before a node is restarted instead')
            [CompletionResult]::new('--restart-command', '--restart-command', [CompletionResultType]::ParameterName, 'Command restarting a node; {id} and {host} are replaced')
            [CompletionResult]::new('--stop-command', '--stop-command', [CompletionResultType]::ParameterName, 'Instead of --restart-command: command stopping a node ({id}, {host}); needs --start-command')
            [CompletionResult]::new('--start-command', '--start-command', [CompletionResultType]::ParameterName, 'Instead of --restart-command: command starting a node ({id}, {host}); needs --stop-command')
            [CompletionResult]::new('--command-timeout', '--command-timeout', [CompletionResultType]::ParameterName, 'Timeout of one restart command')
            [CompletionResult]::new('--poll-interval', '--poll-interval', [CompletionResultType]::ParameterName, 'How often to observe the cluster while waiting')
            [CompletionResult]::new('--blocked-timeout', '--blocked-timeout', [CompletionResultType]::ParameterName, 'How long a safety check (min ISR, quorum, log recovery) may hold the roll back mid-way before it aborts')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Directory of the saved roll state (one file per cluster); a re-run of the same roll resumes from it [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--pod-selector', '--pod-selector', [CompletionResultType]::ParameterName, 'Kubernetes: roll the pods matching this label selector (restart = delete the pod)')
            [CompletionResult]::new('--node-id-label', '--node-id-label', [CompletionResultType]::ParameterName, 'With --pod-selector: the pod label holding the Kafka node id [default: the number ending the pod name, e.g. a StatefulSet ordinal]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--finalize', '--finalize', [CompletionResultType]::ParameterName, 'Finalize the feature levels (the point of no return: no downgrade after it). Without it: a dry run showing each node''s software, the feature levels and the plan')
            [CompletionResult]::new('--include-unhealthy', '--include-unhealthy', [CompletionResultType]::ParameterName, 'Also restart unhealthy nodes outside the selection (stopped, not ready, lagging); by default they are only reported and still count in the safety checks')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the plan and exit')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Roll even though Cruise Control is executing or cannot be asked (when it is configured or found with --strimzi), or, with --strimzi, the Strimzi operator''s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5, or 6 when Cruise Control cannot be asked)')
            [CompletionResult]::new('--no-preferred-leader-election', '--no-preferred-leader-election', [CompletionResultType]::ParameterName, 'Do not restore preferred leaders after each restart')
            [CompletionResult]::new('--discard-state', '--discard-state', [CompletionResultType]::ParameterName, 'Delete a saved roll of this cluster (finished or not) before starting')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Refuse to roll (exit 1, nothing restarted; a dry run exits 1 too) while any topic on the nodes to restart cannot stay available: replication factor 1, factor at or below min.insync.replicas, partitions already under min ISR or offline; and (exit 5) while partition reassignments that Cruise Control did not start are in flight')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;reassignments' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the partition reassignments in flight (adding, removing, progress, who started them)')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel partition reassignments in flight; each partition goes back to its original replicas (dry run unless --execute)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;reassignments;list' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;reassignments;cancel' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Cancel every reassignment in flight')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Cancel them (default: dry run, show what would be cancelled)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;reassignments;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the partition reassignments in flight (adding, removing, progress, who started them)')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel partition reassignments in flight; each partition goes back to its original replicas (dry run unless --execute)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;reassignments;help;list' {
            break
        }
        'kafkaops;reassignments;help;cancel' {
            break
        }
        'kafkaops;reassignments;help;help' {
            break
        }
        'kafkaops;health' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long --exit-when-healthy waits')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'How often --watch and --exit-when-healthy observe')
            [CompletionResult]::new('--stall-after', '--stall-after', [CompletionResultType]::ParameterName, 'A reassignment whose new replicas neither grew their log (DescribeLogDirs on the destination) nor joined the ISR for this long is `reassignment-stalled` (degraded). Judging needs two looks: --watch compares its own observations; a one-shot `health` keeps the last sample in a small file of the state directory (`health-progress-<bootstrap>.json`) and compares with the run before it')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory for the one-shot sample file [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Known conditions left out of the verdict (still shown): KIND or KIND:SUBJECT, e.g. `leftover-throttle`, `under-replicated:orders`, `broker-fenced:3` (comma-separated or repeated; kinds: see `-o json` or the README)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Observe again every --interval and print the verdict whenever it or its reasons change, until Ctrl-C')
            [CompletionResult]::new('--exit-when-healthy', '--exit-when-healthy', [CompletionResultType]::ParameterName, 'Wait until the cluster is healthy (exit 0), observing every --interval; exit 3 when --timeout passes first')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;throttles' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every replication throttle set on the cluster (broker rates, topic throttled replicas) and whether anything moving needs it')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the replication throttles (dry run unless --execute); refused while a movement uses them, unless --force')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;throttles;list' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;throttles;clear' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--execute', '--execute', [CompletionResultType]::ParameterName, 'Remove them (default: dry run, show what would be removed)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Remove them even while reassignments are in flight or Cruise Control executes (or may: its state cannot be read); the movement then runs unthrottled')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;throttles;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every replication throttle set on the cluster (broker rates, topic throttled replicas) and whether anything moving needs it')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the replication throttles (dry run unless --execute); refused while a movement uses them, unless --force')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;throttles;help;list' {
            break
        }
        'kafkaops;throttles;help;clear' {
            break
        }
        'kafkaops;throttles;help;help' {
            break
        }
        'kafkaops;hold' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Hold nodes: never restarted by a roll (nor operate''s), never a destination of a rebalance kafkaops asks for, until the hold expires or is removed')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the holds stored in the cluster (expired ones marked as such)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove the holds of nodes')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;hold;add' {
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'Node ids to hold (comma-separated or repeated)')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why (shown by roll, health and hold list)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'How long the hold lasts (e.g. 4h, 30m, 2d)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;hold;list' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;hold;remove' {
            [CompletionResult]::new('--nodes', '--nodes', [CompletionResultType]::ParameterName, 'Node ids whose hold to remove (comma-separated or repeated)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;hold;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Hold nodes: never restarted by a roll (nor operate''s), never a destination of a rebalance kafkaops asks for, until the hold expires or is removed')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the holds stored in the cluster (expired ones marked as such)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove the holds of nodes')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;hold;help;add' {
            break
        }
        'kafkaops;hold;help;list' {
            break
        }
        'kafkaops;hold;help;remove' {
            break
        }
        'kafkaops;hold;help;help' {
            break
        }
        'kafkaops;journal' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the journals of past runs: id, command, start, duration, outcome')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show what a run did: the plan it showed, what was confirmed, each request and answer, each decision and wait, the outcome')
            [CompletionResult]::new('bundle', 'bundle', [CompletionResultType]::ParameterValue, 'Write one .tar.gz with every journal and a health snapshot of the cluster (if it answers), secrets redacted, for a ticket or a post-mortem')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;journal;list' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;journal;show' {
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;journal;bundle' {
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Where to write the archive [default: kafkaops-bundle-TIME.tar.gz in the working directory]')
            [CompletionResult]::new('--health-timeout', '--health-timeout', [CompletionResultType]::ParameterName, 'How long the health snapshot may take before the bundle is written without it')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;journal;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the journals of past runs: id, command, start, duration, outcome')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show what a run did: the plan it showed, what was confirmed, each request and answer, each decision and wait, the outcome')
            [CompletionResult]::new('bundle', 'bundle', [CompletionResultType]::ParameterValue, 'Write one .tar.gz with every journal and a health snapshot of the cluster (if it answers), secrets redacted, for a ticket or a post-mortem')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;journal;help;list' {
            break
        }
        'kafkaops;journal;help;show' {
            break
        }
        'kafkaops;journal;help;bundle' {
            break
        }
        'kafkaops;journal;help;help' {
            break
        }
        'kafkaops;operate' {
            [CompletionResult]::new('--policy', '--policy', [CompletionResultType]::ParameterName, 'The policy file (YAML): auto-rebalance modes and templates, brokers to drain, replication factors, desired broker configuration. Re-read when it changes; a bad version is reported and the last good one stays in force')
            [CompletionResult]::new('--resync', '--resync', [CompletionResultType]::ParameterName, 'Time between reconcile loops when nothing happens, e.g. 30s, 2m')
            [CompletionResult]::new('--state-dir', '--state-dir', [CompletionResultType]::ParameterName, 'Plain host: directory of the state file (one per cluster) [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]')
            [CompletionResult]::new('--state-configmap', '--state-configmap', [CompletionResultType]::ParameterName, 'Kubernetes: keep the state in this ConfigMap (key state.json) [default: kafkaops-operate-<cluster> with --strimzi, else the --lease name]')
            [CompletionResult]::new('--lease', '--lease', [CompletionResultType]::ParameterName, 'Kubernetes: leader election Lease; only its holder acts, standbys wait [default: kafkaops-operate-<cluster> with --strimzi, else the --state-configmap name]. Without Kubernetes a lock file in the state directory keeps a second instance out')
            [CompletionResult]::new('--lease-duration', '--lease-duration', [CompletionResultType]::ParameterName, 'Kubernetes: how long a leader''s Lease lasts without renewal (a standby takes over after it; the leader stops acting at 2/3 of it). At least 3s; rounded up to whole seconds')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address of the HTTP endpoints /metrics, /healthz and /readyz (port 0: any free port, printed at start)')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Log line format on stderr')
            [CompletionResult]::new('--restart-command', '--restart-command', [CompletionResultType]::ParameterName, 'Plain host: command restarting a node for a roll; {id} and {host} are replaced')
            [CompletionResult]::new('--stop-command', '--stop-command', [CompletionResultType]::ParameterName, 'Plain host: instead of --restart-command, command stopping a node ({id}, {host})')
            [CompletionResult]::new('--start-command', '--start-command', [CompletionResultType]::ParameterName, 'Plain host: instead of --restart-command, command starting a node ({id}, {host})')
            [CompletionResult]::new('--pod-selector', '--pod-selector', [CompletionResultType]::ParameterName, 'Kubernetes without Strimzi: the pods of the cluster (restart = delete the pod)')
            [CompletionResult]::new('--node-id-label', '--node-id-label', [CompletionResultType]::ParameterName, 'With --pod-selector: the pod label holding the Kafka node id [default: the number ending the pod name, e.g. a StatefulSet ordinal]')
            [CompletionResult]::new('--action-timeout', '--action-timeout', [CompletionResultType]::ParameterName, 'How long one Cruise Control request, restart or reconfiguration may take before the action counts as failed (the loop goes on)')
            [CompletionResult]::new('--stall-after', '--stall-after', [CompletionResultType]::ParameterName, 'A reassignment whose new replicas neither grew their log (DescribeLogDirs on the destination, sampled each loop while reassignments are in flight) nor joined the ISR for this long is `reassignment-stalled` in the health verdict on /metrics')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Log every action it would take and take none (nothing is persisted either)')
            [CompletionResult]::new('--once', '--once', [CompletionResultType]::ParameterName, 'Run one reconcile loop and exit (for scripts and tests of a single decision)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Show the resolved settings and where each came from (secrets masked)')
            [CompletionResult]::new('get-contexts', 'get-contexts', [CompletionResultType]::ParameterValue, 'List the config file''s contexts, the current one marked')
            [CompletionResult]::new('use-context', 'use-context', [CompletionResultType]::ParameterValue, 'Make a context the config file''s current context')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;config;view' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;config;get-contexts' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;config;use-context' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;config;help' {
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Show the resolved settings and where each came from (secrets masked)')
            [CompletionResult]::new('get-contexts', 'get-contexts', [CompletionResultType]::ParameterValue, 'List the config file''s contexts, the current one marked')
            [CompletionResult]::new('use-context', 'use-context', [CompletionResultType]::ParameterValue, 'Make a context the config file''s current context')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;config;help;view' {
            break
        }
        'kafkaops;config;help;get-contexts' {
            break
        }
        'kafkaops;config;help;use-context' {
            break
        }
        'kafkaops;config;help;help' {
            break
        }
        'kafkaops;completions' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Context of the config file to use [default: the file''s current-context]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (NO_COLOR is respected in auto)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('--bootstrap-servers', '--bootstrap-servers', [CompletionResultType]::ParameterName, 'Kafka bootstrap servers (host:port,...)')
            [CompletionResult]::new('-X', '-X ', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--kafka-property', '--kafka-property', [CompletionResultType]::ParameterName, 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`')
            [CompletionResult]::new('--cruise-control-url', '--cruise-control-url', [CompletionResultType]::ParameterName, 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)')
            [CompletionResult]::new('--cruise-control-user', '--cruise-control-user', [CompletionResultType]::ParameterName, 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)')
            [CompletionResult]::new('--cruise-control-password-file', '--cruise-control-password-file', [CompletionResultType]::ParameterName, 'File holding the Cruise Control password')
            [CompletionResult]::new('--cruise-control-ca-file', '--cruise-control-ca-file', [CompletionResultType]::ParameterName, 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Timeout of a single HTTP request, e.g. 30s')
            [CompletionResult]::new('--strimzi', '--strimzi', [CompletionResultType]::ParameterName, 'Strimzi Kafka cluster (the Kafka resource''s name): the Kafka bootstrap address, Cruise Control''s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Kubernetes namespace [default: the kubeconfig context''s; in a pod, the service account''s]')
            [CompletionResult]::new('--kube-context', '--kube-context', [CompletionResultType]::ParameterName, 'kubeconfig context [default: the kubeconfig''s current context] (`--context` is kafkaops'' own config-file context)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Only data on stdout and errors on stderr')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation before destructive actions')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kafkaops;help' {
            [CompletionResult]::new('rebalance', 'rebalance', [CompletionResultType]::ParameterValue, 'Move replicas with Cruise Control: onto new brokers, off leaving brokers, or across the cluster')
            [CompletionResult]::new('roll', 'roll', [CompletionResultType]::ParameterValue, 'Safe rolling restart / dynamic reconfiguration of Kafka nodes')
            [CompletionResult]::new('topic', 'topic', [CompletionResultType]::ParameterValue, 'Topic operations: replication-factor changes through Cruise Control')
            [CompletionResult]::new('anomalies', 'anomalies', [CompletionResultType]::ParameterValue, 'Watch the anomalies Cruise Control detects')
            [CompletionResult]::new('broker', 'broker', [CompletionResultType]::ParameterValue, 'Brokers: cordon or uncordon (KIP-1066), list registrations, unregister ghosts (KIP-1073)')
            [CompletionResult]::new('quorum', 'quorum', [CompletionResultType]::ParameterValue, 'The KRaft controller quorum: status, add or remove a controller, migrate static to dynamic')
            [CompletionResult]::new('upgrade', 'upgrade', [CompletionResultType]::ParameterValue, 'Software upgrades: each node''s version and the feature levels (dry run), --finalize')
            [CompletionResult]::new('reassignments', 'reassignments', [CompletionResultType]::ParameterValue, 'Partition reassignments in flight, whoever started them: list or cancel')
            [CompletionResult]::new('health', 'health', [CompletionResultType]::ParameterValue, 'One verdict on the cluster (healthy, degraded, unavailable) with every reason; exit codes 0, 13, 14 for scripts and probes')
            [CompletionResult]::new('throttles', 'throttles', [CompletionResultType]::ParameterValue, 'Replication throttles left behind by reassignments: list or clear')
            [CompletionResult]::new('hold', 'hold', [CompletionResultType]::ParameterValue, 'Node holds: nodes a roll never restarts and a rebalance never moves replicas to, until the hold expires (stored in the cluster, in the compacted topic __kafkaops_holds)')
            [CompletionResult]::new('journal', 'journal', [CompletionResultType]::ParameterValue, 'The journals of past runs that changed something: list, show one, bundle them for a ticket (kept in the state directory''s journal/)')
            [CompletionResult]::new('operate', 'operate', [CompletionResultType]::ParameterValue, 'Keep a cluster as a policy file says, unattended: auto-rebalance on scale-up, scale-down and goal violations; never two movers at once. Runs until SIGTERM; its state survives restarts')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect the resolved configuration and switch contexts')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kafkaops;help;rebalance' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Move replicas onto newly added brokers (Cruise Control add_broker)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Move all replicas off brokers about to be removed (Cruise Control remove_broker)')
            [CompletionResult]::new('full', 'full', [CompletionResultType]::ParameterValue, 'Rebalance the whole cluster (Cruise Control rebalance)')
            [CompletionResult]::new('demote', 'demote', [CompletionResultType]::ParameterValue, 'Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)')
            [CompletionResult]::new('remove-disks', 'remove-disks', [CompletionResultType]::ParameterValue, 'Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)')
            [CompletionResult]::new('imbalance', 'imbalance', [CompletionResultType]::ParameterValue, 'Fix the goal violations Cruise Control reports that no rebalance handled yet: a full rebalance with a template''s goals and options (dry run unless --execute)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show what Cruise Control is executing')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop the ongoing Cruise Control execution')
            [CompletionResult]::new('pace', 'pace', [CompletionResultType]::ParameterValue, 'Change the pace of the running execution live (Cruise Control''s admin endpoint)')
            [CompletionResult]::new('review', 'review', [CompletionResultType]::ParameterValue, 'Cruise Control''s two-step verification: list, approve or discard held requests')
            break
        }
        'kafkaops;help;rebalance;add' {
            break
        }
        'kafkaops;help;rebalance;remove' {
            break
        }
        'kafkaops;help;rebalance;full' {
            break
        }
        'kafkaops;help;rebalance;demote' {
            break
        }
        'kafkaops;help;rebalance;remove-disks' {
            break
        }
        'kafkaops;help;rebalance;imbalance' {
            break
        }
        'kafkaops;help;rebalance;status' {
            break
        }
        'kafkaops;help;rebalance;stop' {
            break
        }
        'kafkaops;help;rebalance;pace' {
            break
        }
        'kafkaops;help;rebalance;review' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the requests Cruise Control holds for review (review_board)')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Approve held requests; run one with the same command plus `--review-id ID`')
            [CompletionResult]::new('discard', 'discard', [CompletionResultType]::ParameterValue, 'Discard held requests')
            break
        }
        'kafkaops;help;rebalance;review;list' {
            break
        }
        'kafkaops;help;rebalance;review;approve' {
            break
        }
        'kafkaops;help;rebalance;review;discard' {
            break
        }
        'kafkaops;help;roll' {
            break
        }
        'kafkaops;help;topic' {
            [CompletionResult]::new('set-rf', 'set-rf', [CompletionResultType]::ParameterValue, 'Change the replication factor of topics through Cruise Control (dry run unless --execute)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Replication-factor changes: pending, ongoing and finished (from the state file, refreshed from Kafka and Cruise Control where possible); changes nothing')
            break
        }
        'kafkaops;help;topic;set-rf' {
            break
        }
        'kafkaops;help;topic;status' {
            break
        }
        'kafkaops;help;anomalies' {
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Stream the anomalies Cruise Control detects: each once when it first appears and again when its status changes (a live table on a terminal, one JSON object per line when piped)')
            break
        }
        'kafkaops;help;anomalies;watch' {
            break
        }
        'kafkaops;help;broker' {
            [CompletionResult]::new('cordon', 'cordon', [CompletionResultType]::ParameterValue, 'Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created while they are drained do not land on them')
            [CompletionResult]::new('uncordon', 'uncordon', [CompletionResultType]::ParameterValue, 'Uncordon brokers: they take new partitions again')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Registered brokers (fenced ones too): rack, whether they run, replicas still on them')
            [CompletionResult]::new('unregister', 'unregister', [CompletionResultType]::ParameterValue, 'Remove the registration of brokers that are gone (fenced, stopped, holding no replica; KIP-1073). A dry run unless --execute')
            break
        }
        'kafkaops;help;broker;cordon' {
            break
        }
        'kafkaops;help;broker;uncordon' {
            break
        }
        'kafkaops;help;broker;list' {
            break
        }
        'kafkaops;help;broker;unregister' {
            break
        }
        'kafkaops;help;quorum' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone')
            break
        }
        'kafkaops;help;quorum;status' {
            break
        }
        'kafkaops;help;quorum;add' {
            break
        }
        'kafkaops;help;quorum;remove' {
            break
        }
        'kafkaops;help;quorum;migrate' {
            break
        }
        'kafkaops;help;upgrade' {
            break
        }
        'kafkaops;help;reassignments' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the partition reassignments in flight (adding, removing, progress, who started them)')
            [CompletionResult]::new('cancel', 'cancel', [CompletionResultType]::ParameterValue, 'Cancel partition reassignments in flight; each partition goes back to its original replicas (dry run unless --execute)')
            break
        }
        'kafkaops;help;reassignments;list' {
            break
        }
        'kafkaops;help;reassignments;cancel' {
            break
        }
        'kafkaops;help;health' {
            break
        }
        'kafkaops;help;throttles' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every replication throttle set on the cluster (broker rates, topic throttled replicas) and whether anything moving needs it')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Remove the replication throttles (dry run unless --execute); refused while a movement uses them, unless --force')
            break
        }
        'kafkaops;help;throttles;list' {
            break
        }
        'kafkaops;help;throttles;clear' {
            break
        }
        'kafkaops;help;hold' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Hold nodes: never restarted by a roll (nor operate''s), never a destination of a rebalance kafkaops asks for, until the hold expires or is removed')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the holds stored in the cluster (expired ones marked as such)')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove the holds of nodes')
            break
        }
        'kafkaops;help;hold;add' {
            break
        }
        'kafkaops;help;hold;list' {
            break
        }
        'kafkaops;help;hold;remove' {
            break
        }
        'kafkaops;help;journal' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the journals of past runs: id, command, start, duration, outcome')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show what a run did: the plan it showed, what was confirmed, each request and answer, each decision and wait, the outcome')
            [CompletionResult]::new('bundle', 'bundle', [CompletionResultType]::ParameterValue, 'Write one .tar.gz with every journal and a health snapshot of the cluster (if it answers), secrets redacted, for a ticket or a post-mortem')
            break
        }
        'kafkaops;help;journal;list' {
            break
        }
        'kafkaops;help;journal;show' {
            break
        }
        'kafkaops;help;journal;bundle' {
            break
        }
        'kafkaops;help;operate' {
            break
        }
        'kafkaops;help;config' {
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Show the resolved settings and where each came from (secrets masked)')
            [CompletionResult]::new('get-contexts', 'get-contexts', [CompletionResultType]::ParameterValue, 'List the config file''s contexts, the current one marked')
            [CompletionResult]::new('use-context', 'use-context', [CompletionResultType]::ParameterValue, 'Make a context the config file''s current context')
            break
        }
        'kafkaops;help;config;view' {
            break
        }
        'kafkaops;help;config;get-contexts' {
            break
        }
        'kafkaops;help;config;use-context' {
            break
        }
        'kafkaops;help;completions' {
            break
        }
        'kafkaops;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
