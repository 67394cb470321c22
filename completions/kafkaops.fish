# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kafkaops_global_optspecs
    string join \n config= context= o/output= v/verbose q/quiet color= y/yes b/bootstrap-servers= X/kafka-property= cruise-control-url= cruise-control-user= cruise-control-password-file= cruise-control-ca-file= request-timeout= strimzi= n/namespace= kube-context= kubeconfig= h/help V/version
end

function __fish_kafkaops_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kafkaops_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kafkaops_using_subcommand
    set -l cmd (__fish_kafkaops_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kafkaops -n "__fish_kafkaops_needs_command" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_needs_command" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "rebalance" -d 'Move replicas with Cruise Control: onto new brokers, off leaving brokers, or across the cluster'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "roll" -d 'Safe rolling restart / dynamic reconfiguration of Kafka nodes'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "topic" -d 'Topic operations: replication-factor changes through Cruise Control'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "anomalies" -d 'Watch the anomalies Cruise Control detects'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "broker" -d 'Brokers: cordon or uncordon (KIP-1066), list registrations, unregister ghosts (KIP-1073)'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "quorum" -d 'The KRaft controller quorum: status, add or remove a controller, migrate static to dynamic'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "upgrade" -d 'Software upgrades: each node\'s version and the feature levels (dry run), --finalize'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "reassignments" -d 'Partition reassignments in flight, whoever started them: list or cancel'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "health" -d 'One verdict on the cluster (healthy, degraded, unavailable) with every reason; exit codes 0, 13, 14 for scripts and probes'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "throttles" -d 'Replication throttles left behind by reassignments: list or clear'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "hold" -d 'Node holds: nodes a roll never restarts and a rebalance never moves replicas to, until the hold expires (stored in the cluster, in the compacted topic __kafkaops_holds)'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "journal" -d 'The journals of past runs that changed something: list, show one, bundle them for a ticket (kept in the state directory\'s journal/)'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "operate" -d 'Keep a cluster as a policy file says, unattended: auto-rebalance on scale-up, scale-down and goal violations; never two movers at once. Runs until SIGTERM; its state survives restarts'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "config" -d 'Inspect the resolved configuration and switch contexts'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c kafkaops -n "__fish_kafkaops_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "add" -d 'Move replicas onto newly added brokers (Cruise Control add_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "remove" -d 'Move all replicas off brokers about to be removed (Cruise Control remove_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "full" -d 'Rebalance the whole cluster (Cruise Control rebalance)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "demote" -d 'Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "remove-disks" -d 'Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "imbalance" -d 'Fix the goal violations Cruise Control reports that no rebalance handled yet: a full rebalance with a template\'s goals and options (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "status" -d 'Show what Cruise Control is executing'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "stop" -d 'Stop the ongoing Cruise Control execution'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "pace" -d 'Change the pace of the running execution live (Cruise Control\'s admin endpoint)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "review" -d 'Cruise Control\'s two-step verification: list, approve or discard held requests'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and not __fish_seen_subcommand_from add remove full demote remove-disks imbalance status stop pace review help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l brokers -d 'The new brokers (comma-separated ids); replicas move only onto these' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l goals -d 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l excluded-topics -d 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l max-partition-movements-in-cluster -d 'Concurrent inter-broker partition movements in the whole cluster' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l replica-movement-strategies -d 'Order of the replica movements: strategies from Cruise Control\'s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l cc-param -d 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l max-drift -d 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l max-data-mb -d 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l approved-plan -d 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l review-id -d 'Run the request Cruise Control\'s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l timeout -d 'Give up waiting for Cruise Control\'s proposal (and the start of the execution) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l follow-timeout -d 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l skip-hard-goal-check -d 'Allow goals that leave out some hard goals'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l exclude-recently-demoted-brokers -d 'Do not move leadership onto recently demoted brokers'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l show-internal -d 'List internal topics (`__*`, e.g. Cruise Control\'s own sample topics) one by one in the movements table (default: one line for all of them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l execute -d 'Execute the proposal (default: dry run, show it only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l no-wait -d 'With --execute: return once the execution started, printing the task id'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l brokers -d 'The brokers being removed (comma-separated ids); replicas move only off these' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l destination-brokers -d 'Move replicas only onto these brokers (comma-separated ids)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l goals -d 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l excluded-topics -d 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l max-partition-movements-in-cluster -d 'Concurrent inter-broker partition movements in the whole cluster' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l replica-movement-strategies -d 'Order of the replica movements: strategies from Cruise Control\'s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l cc-param -d 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l max-drift -d 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l max-data-mb -d 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l approved-plan -d 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l review-id -d 'Run the request Cruise Control\'s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l timeout -d 'Give up waiting for Cruise Control\'s proposal (and the start of the execution) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l follow-timeout -d 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l skip-hard-goal-check -d 'Allow goals that leave out some hard goals'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l exclude-recently-demoted-brokers -d 'Do not move leadership onto recently demoted brokers'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l show-internal -d 'List internal topics (`__*`, e.g. Cruise Control\'s own sample topics) one by one in the movements table (default: one line for all of them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l execute -d 'Execute the proposal (default: dry run, show it only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l no-wait -d 'With --execute: return once the execution started, printing the task id'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l destination-brokers -d 'Move replicas only onto these brokers (comma-separated ids)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l concurrent-intra-broker-partition-movements -d 'Concurrent intra-broker (between disks) partition movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l goals -d 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l excluded-topics -d 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l max-partition-movements-in-cluster -d 'Concurrent inter-broker partition movements in the whole cluster' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l replica-movement-strategies -d 'Order of the replica movements: strategies from Cruise Control\'s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l cc-param -d 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l max-drift -d 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l max-data-mb -d 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l approved-plan -d 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l review-id -d 'Run the request Cruise Control\'s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l timeout -d 'Give up waiting for Cruise Control\'s proposal (and the start of the execution) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l follow-timeout -d 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l rebalance-disk -d 'Balance the disks within each broker instead (JBOD; Cruise Control\'s intra-broker goals; no --goals)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l skip-hard-goal-check -d 'Allow goals that leave out some hard goals'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l exclude-recently-demoted-brokers -d 'Do not move leadership onto recently demoted brokers'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l show-internal -d 'List internal topics (`__*`, e.g. Cruise Control\'s own sample topics) one by one in the movements table (default: one line for all of them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l execute -d 'Execute the proposal (default: dry run, show it only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l no-wait -d 'With --execute: return once the execution started, printing the task id'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from full" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l brokers -d 'The brokers to demote (comma-separated ids): their replicas become the least preferred leaders and leadership moves away' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l goals -d 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l excluded-topics -d 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l max-partition-movements-in-cluster -d 'Concurrent inter-broker partition movements in the whole cluster' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l replica-movement-strategies -d 'Order of the replica movements: strategies from Cruise Control\'s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l cc-param -d 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l max-drift -d 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l max-data-mb -d 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l approved-plan -d 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l review-id -d 'Run the request Cruise Control\'s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l timeout -d 'Give up waiting for Cruise Control\'s proposal (and the start of the execution) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l follow-timeout -d 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l skip-hard-goal-check -d 'Allow goals that leave out some hard goals'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l exclude-recently-demoted-brokers -d 'Do not move leadership onto recently demoted brokers'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l show-internal -d 'List internal topics (`__*`, e.g. Cruise Control\'s own sample topics) one by one in the movements table (default: one line for all of them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l execute -d 'Execute the proposal (default: dry run, show it only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l no-wait -d 'With --execute: return once the execution started, printing the task id'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from demote" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l brokers-and-logdirs -d 'Volumes to empty, as BROKER-LOGDIR (comma-separated), e.g. 1-/var/lib/kafka/data-1' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l goals -d 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l excluded-topics -d 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l max-partition-movements-in-cluster -d 'Concurrent inter-broker partition movements in the whole cluster' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l replica-movement-strategies -d 'Order of the replica movements: strategies from Cruise Control\'s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l cc-param -d 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l max-drift -d 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l max-data-mb -d 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l approved-plan -d 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l review-id -d 'Run the request Cruise Control\'s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l timeout -d 'Give up waiting for Cruise Control\'s proposal (and the start of the execution) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l follow-timeout -d 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l skip-hard-goal-check -d 'Allow goals that leave out some hard goals'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l exclude-recently-demoted-brokers -d 'Do not move leadership onto recently demoted brokers'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l show-internal -d 'List internal topics (`__*`, e.g. Cruise Control\'s own sample topics) one by one in the movements table (default: one line for all of them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l execute -d 'Execute the proposal (default: dry run, show it only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l no-wait -d 'With --execute: return once the execution started, printing the task id'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from remove-disks" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l template -d 'Rebalance template: YAML with the fields of a KafkaRebalance spec (goals, skipHardGoalCheck, excludedTopics, replicationThrottle, concurrentPartitionMovementsPerBroker, concurrentLeaderMovements), or a whole KafkaRebalance; flags given here override it' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l state-dir -d 'Directory of the file that records which violations were fixed [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l interval -d 'With --watch: pause between looks at Cruise Control\'s anomalies' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l goals -d 'Goals to optimise, in priority order (comma-separated) [default: Cruise Control\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l excluded-topics -d 'Topics (regular expression) whose replicas must not move. With `remove`, Cruise Control still moves their replicas off the leaving brokers (only moves among the others are excluded)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l max-partition-movements-in-cluster -d 'Concurrent inter-broker partition movements in the whole cluster' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l replica-movement-strategies -d 'Order of the replica movements: strategies from Cruise Control\'s replica.movement.strategies, comma-separated (e.g. PrioritizeSmallReplicaMovementStrategy)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l cc-param -d 'Any other Cruise Control parameter of the endpoint, passed through (repeatable; names the endpoint does not accept and names kafkaops sets itself are refused)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l max-drift -d 'With --execute: how much the proposal may change between its approval and the execution (share of changed replica movements, leader movements or data to move); past it nothing runs: the new proposal is shown and asked about again; with --yes and --approved-plan it is refused' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l max-data-mb -d 'With --execute: largest change of the data to move between the approval and the execution, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l approved-plan -d 'With --execute: the proposal approved beforehand (the `--output json` of a dry run); the execution must match it within --max-drift / --max-data-mb' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l review-id -d 'Run the request Cruise Control\'s two-step verification approved under this id (see `kafkaops rebalance review`): an approved dry run shows its proposal (then, with --execute, the execution request is held for review in turn); an approved execution needs --execute and is followed like any execution' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l timeout -d 'Give up waiting for Cruise Control\'s proposal (and the start of the execution) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l follow-timeout -d 'Give up following the execution after this long, counted from its start (it keeps running; exit 3) [default: follow as long as it runs]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l watch -d 'Keep watching and rebalance on every new goal violation until stopped (Ctrl-C)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l skip-hard-goal-check -d 'Allow goals that leave out some hard goals'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l exclude-recently-demoted-brokers -d 'Do not move leadership onto recently demoted brokers'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l show-internal -d 'List internal topics (`__*`, e.g. Cruise Control\'s own sample topics) one by one in the movements table (default: one line for all of them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l execute -d 'Execute the proposal (default: dry run, show it only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l no-wait -d 'With --execute: return once the execution started, printing the task id'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from imbalance" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l timeout -d 'Give up waiting for Cruise Control after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l task -d 'Report what became of this Cruise Control user task (the task id `--no-wait`, a timeout or an interrupt printed): running, completed (exit 0), failed (exit 1) or stopped (exit 9)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l follow-timeout -d 'With --follow: give up following after this long (default: follow while it runs)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -l follow -d 'With --task: re-attach and follow the execution until it ends'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l timeout -d 'Give up waiting for the execution to stop after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from stop" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker from now on (live), as `rebalance add|remove|full` name it; `--concurrency` still works' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l concurrent-leader-movements -d 'Concurrent leader movements from now on (`--leader-concurrency` still works)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l replication-throttle -d 'New replication throttle, in bytes per second (`50MB/s`, `500KiB/s`), set on the brokers\' throttle rates while the execution keeps running, and held until it ends (Cruise Control sets its own back before each batch). An execution started without a throttle is stopped and re-submitted with it, after a re-check of the plan (asks first unless --yes); `--throttle` still works' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l max-drift -d 'With --replication-throttle: largest change between what the stopped execution still had to do and the re-submitted proposal, in percent of the movements, leader movements and data; past it the execution stays stopped' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l max-data-mb -d 'With --replication-throttle: largest change of the data to move, in MB (default: no absolute cap)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l timeout -d 'Give up waiting for Cruise Control after this long (with --replication-throttle: for the stop and the re-submission each)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l once -d 'With --replication-throttle: change the brokers\' rates once and return instead of holding the new rate until the execution ends (Cruise Control sets its own back at its next batch)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -l wait -d 'With --replication-throttle: follow the resumed execution until it ends (default: print its task id and return, as `--no-wait`)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from pace" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -f -a "list" -d 'List the requests Cruise Control holds for review (review_board)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -f -a "approve" -d 'Approve held requests; run one with the same command plus `--review-id ID`'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -f -a "discard" -d 'Discard held requests'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from review" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "add" -d 'Move replicas onto newly added brokers (Cruise Control add_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Move all replicas off brokers about to be removed (Cruise Control remove_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "full" -d 'Rebalance the whole cluster (Cruise Control rebalance)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "demote" -d 'Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "remove-disks" -d 'Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "imbalance" -d 'Fix the goal violations Cruise Control reports that no rebalance handled yet: a full rebalance with a template\'s goals and options (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show what Cruise Control is executing'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "stop" -d 'Stop the ongoing Cruise Control execution'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "pace" -d 'Change the pace of the running execution live (Cruise Control\'s admin endpoint)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "review" -d 'Cruise Control\'s two-step verification: list, approve or discard held requests'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand rebalance; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l nodes -d 'Roll these nodes (comma-separated ids)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l role -d 'Roll the nodes with this role' -r -f -a "broker\t''
controller\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l desired-config -d 'Desired broker configuration (a .properties file): broker-role nodes whose effective config differs are reconfigured dynamically where possible, restarted otherwise' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l set -d 'Desired configuration value (repeatable)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l max-batch-size -d 'Most brokers restarted together (only brokers sharing no partition)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l post-restart-timeout -d 'How long a restarted node may take to serve again' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l post-reconfigure-timeout -d 'How long a reconfigured node may take to settle' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l max-restart-attempts -d 'Restarts of one node before the roll aborts' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l max-reconfig-attempts -d 'Failed dynamic reconfigurations before a node is restarted instead' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l restart-command -d 'Command restarting a node; {id} and {host} are replaced' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l stop-command -d 'Instead of --restart-command: command stopping a node ({id}, {host}); needs --start-command' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l start-command -d 'Instead of --restart-command: command starting a node ({id}, {host}); needs --stop-command' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l command-timeout -d 'Timeout of one restart command' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l poll-interval -d 'How often to observe the cluster while waiting' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l blocked-timeout -d 'How long a safety check (min ISR, quorum, log recovery) may hold the roll back mid-way before it aborts' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l state-dir -d 'Directory of the saved roll state (one file per cluster); a re-run of the same roll resumes from it [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l pod-selector -d 'Kubernetes: roll the pods matching this label selector (restart = delete the pod)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l node-id-label -d 'With --pod-selector: the pod label holding the Kafka node id [default: the number ending the pod name, e.g. a StatefulSet ordinal]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l all -d 'Roll every node'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l include-unhealthy -d 'Also restart unhealthy nodes outside the selection (stopped, not ready, lagging); by default they are only reported and still count in the safety checks'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l dry-run -d 'Print the plan and exit'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l force -d 'Roll even though Cruise Control is executing or cannot be asked (when it is configured or found with --strimzi), or, with --strimzi, the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5, or 6 when Cruise Control cannot be asked)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l no-preferred-leader-election -d 'Do not restore preferred leaders after each restart'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l discard-state -d 'Delete a saved roll of this cluster (finished or not) before starting'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -l strict -d 'Refuse to roll (exit 1, nothing restarted; a dry run exits 1 too) while any topic on the nodes to restart cannot stay available: replication factor 1, factor at or below min.insync.replicas, partitions already under min ISR or offline; and (exit 5) while partition reassignments that Cruise Control did not start are in flight'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand roll" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -f -a "set-rf" -d 'Change the replication factor of topics through Cruise Control (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -f -a "status" -d 'Replication-factor changes: pending, ongoing and finished (from the state file, refreshed from Kafka and Cruise Control where possible); changes nothing'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and not __fish_seen_subcommand_from set-rf status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l topics -d 'Topics to change (exact names; repeatable or comma-separated)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s r -l replication-factor -d 'The new replication factor of --topics' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l from-file -d 'YAML or JSON list of `{topic, replication_factor}` entries (several factors in one run)' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l state-dir -d 'Where the state file (`topic-set-rf.json`) of pending and ongoing changes lives [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l replication-throttle -d 'Replication throttle during execution, bytes per second (`50MB/s`, `500KiB/s`)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l concurrent-partition-movements-per-broker -d 'Concurrent inter-broker partition movements per broker' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l concurrent-leader-movements -d 'Concurrent leader movements' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l reason -d 'Reason recorded by Cruise Control for the request' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l timeout -d 'Give up waiting (for another execution to end, for the change to finish) after this long' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l wait-for-ready -d 'If Cruise Control is still sampling, wait up to this long for its load model (default: fail at once with exit code 4)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l poll-interval -d 'Pause between polls of Cruise Control (it advises at least 5s)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l wait-for-reassignments -d 'With --execute: if partition reassignments not started by Cruise Control are in flight, wait up to this long for them to end (default: refuse at once with exit code 5)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l status -d 'Old spelling of `kafkaops topic status` (kept, hidden)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l execute -d 'Execute the change (default: dry run, show Cruise Control\'s proposal only)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l no-wait -d 'With --execute: return once Cruise Control accepted the change (follow it later by re-running the same command, or see it with `kafkaops topic status`)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l allow-below-min-isr -d 'Allow a factor below the topic\'s min.insync.replicas (producers with acks=all will fail)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -l force -d 'With --strimzi: execute even though the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from set-rf" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l state-dir -d 'Where the state file (`topic-set-rf.json`) of pending and ongoing changes lives [default: $XDG_STATE_HOME/kafkaops or ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from help" -f -a "set-rf" -d 'Change the replication factor of topics through Cruise Control (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from help" -f -a "status" -d 'Replication-factor changes: pending, ongoing and finished (from the state file, refreshed from Kafka and Cruise Control where possible); changes nothing'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand topic; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -f -a "watch" -d 'Stream the anomalies Cruise Control detects: each once when it first appears and again when its status changes (a live table on a terminal, one JSON object per line when piped)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and not __fish_seen_subcommand_from watch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l interval -d 'Poll interval (Cruise Control keeps only a few recent anomalies per type: poll often enough not to miss one)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l type -d 'Only these anomaly types (comma-separated or repeated) [default: all]' -r -f -a "goal-violation\t''
broker-failure\t''
disk-failure\t''
metric-anomaly\t''
topic-anomaly\t''
maintenance-event\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l status -d 'Only anomalies with these statuses, e.g. DETECTED,IGNORED,FIX_STARTED (comma-separated or repeated) [default: all]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l exit-on -d 'Exit with code 10 as soon as an anomaly of this type appears (comma-separated or repeated), for scripts and alerting' -r -f -a "goal-violation\t''
broker-failure\t''
disk-failure\t''
metric-anomaly\t''
topic-anomaly\t''
maintenance-event\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l max-backoff -d 'Longest pause between attempts while Cruise Control is unreachable' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -l once -d 'Print the current anomalies once and exit'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from watch" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from help" -f -a "watch" -d 'Stream the anomalies Cruise Control detects: each once when it first appears and again when its status changes (a live table on a terminal, one JSON object per line when piped)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand anomalies; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -f -a "cordon" -d 'Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created while they are drained do not land on them'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -f -a "uncordon" -d 'Uncordon brokers: they take new partitions again'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -f -a "list" -d 'Registered brokers (fenced ones too): rack, whether they run, replicas still on them'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -f -a "unregister" -d 'Remove the registration of brokers that are gone (fenced, stopped, holding no replica; KIP-1073). A dry run unless --execute'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and not __fish_seen_subcommand_from cordon uncordon list unregister help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l brokers -d 'The brokers (comma-separated ids)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from cordon" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l brokers -d 'The brokers (comma-separated ids)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from uncordon" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l brokers -d 'The brokers (comma-separated ids)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l wait -d 'How long to wait until Kafka no longer lists them' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -l execute -d 'Unregister them (after confirmation, or --yes); without it only the checks run'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from unregister" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from help" -f -a "cordon" -d 'Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created while they are drained do not land on them'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from help" -f -a "uncordon" -d 'Uncordon brokers: they take new partitions again'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from help" -f -a "list" -d 'Registered brokers (fenced ones too): rack, whether they run, replicas still on them'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from help" -f -a "unregister" -d 'Remove the registration of brokers that are gone (fenced, stopped, holding no replica; KIP-1073). A dry run unless --execute'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand broker; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -f -a "status" -d 'The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -f -a "add" -d 'Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -f -a "remove" -d 'Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -f -a "migrate" -d 'Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and not __fish_seen_subcommand_from status add remove migrate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l caught-up-within -d 'How far behind the leader\'s clock a member\'s last caught-up time may be (controller.quorum.fetch.timeout.ms)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l max-lag-records -d 'How many records a controller to add may trail the leader\'s log end' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l max-fetch-age -d 'How old a controller to add\'s last fetch may be' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l controller -d 'The controller\'s node id' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l caught-up-within -d 'How far behind the leader\'s clock a member\'s last caught-up time may be (controller.quorum.fetch.timeout.ms)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l max-lag-records -d 'How many records a controller to add may trail the leader\'s log end' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l max-fetch-age -d 'How old a controller to add\'s last fetch may be' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l pod-selector -d 'Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5) while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the cluster\'s pods]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l node-id-label -d 'With --pod-selector: the pod label holding the Kafka node id' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l wait -d 'How long to wait for the change to be allowed and then to show' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l controller -d 'The controller\'s node id' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l caught-up-within -d 'How far behind the leader\'s clock a member\'s last caught-up time may be (controller.quorum.fetch.timeout.ms)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l max-lag-records -d 'How many records a controller to add may trail the leader\'s log end' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l max-fetch-age -d 'How old a controller to add\'s last fetch may be' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l pod-selector -d 'Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5) while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the cluster\'s pods]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l node-id-label -d 'With --pod-selector: the pod label holding the Kafka node id' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l wait -d 'How long to wait for the change to be allowed and then to show' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l caught-up-within -d 'How far behind the leader\'s clock a member\'s last caught-up time may be (controller.quorum.fetch.timeout.ms)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l max-lag-records -d 'How many records a controller to add may trail the leader\'s log end' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l max-fetch-age -d 'How old a controller to add\'s last fetch may be' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l pod-selector -d 'Kubernetes: the pods `kafkaops roll --pod-selector` rolls; the change is refused (exit 5) while a roll holds their Lease, and holds it itself meanwhile [with --strimzi: the cluster\'s pods]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l node-id-label -d 'With --pod-selector: the pod label holding the Kafka node id' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l wait -d 'How long to wait for the change to be allowed and then to show' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from migrate" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from help" -f -a "status" -d 'The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from help" -f -a "add" -d 'Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from help" -f -a "migrate" -d 'Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand quorum; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l feature -d 'A feature level to finalize, FEATURE=LEVEL (repeatable; default: metadata.version at the highest level every node supports). kraft.version is refused: that is `quorum migrate`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l wait -d 'How long to wait for every node to report the new levels' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l to -d 'Roll every node not yet on this release\'s software (e.g. 4.4) through the safe roll, controllers first, once you have changed the software each node starts with: each restarted node must report that release\'s latest metadata.version, else the roll stops (nothing is finalized). Resumable like `roll`; then let it soak and `--finalize`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l max-batch-size -d 'Most brokers restarted together (only brokers sharing no partition)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l post-restart-timeout -d 'How long a restarted node may take to serve again' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l post-reconfigure-timeout -d 'How long a reconfigured node may take to settle' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l max-restart-attempts -d 'Restarts of one node before the roll aborts' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l max-reconfig-attempts -d 'Failed dynamic reconfigurations before a node is restarted instead' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l restart-command -d 'Command restarting a node; {id} and {host} are replaced' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l stop-command -d 'Instead of --restart-command: command stopping a node ({id}, {host}); needs --start-command' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l start-command -d 'Instead of --restart-command: command starting a node ({id}, {host}); needs --stop-command' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l command-timeout -d 'Timeout of one restart command' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l poll-interval -d 'How often to observe the cluster while waiting' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l blocked-timeout -d 'How long a safety check (min ISR, quorum, log recovery) may hold the roll back mid-way before it aborts' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l state-dir -d 'Directory of the saved roll state (one file per cluster); a re-run of the same roll resumes from it [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l pod-selector -d 'Kubernetes: roll the pods matching this label selector (restart = delete the pod)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l node-id-label -d 'With --pod-selector: the pod label holding the Kafka node id [default: the number ending the pod name, e.g. a StatefulSet ordinal]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l finalize -d 'Finalize the feature levels (the point of no return: no downgrade after it). Without it: a dry run showing each node\'s software, the feature levels and the plan'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l include-unhealthy -d 'Also restart unhealthy nodes outside the selection (stopped, not ready, lagging); by default they are only reported and still count in the safety checks'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l dry-run -d 'Print the plan and exit'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l force -d 'Roll even though Cruise Control is executing or cannot be asked (when it is configured or found with --strimzi), or, with --strimzi, the Strimzi operator\'s reconciliation is not paused or one of its KafkaRebalances is executing (default: refuse with exit code 5, or 6 when Cruise Control cannot be asked)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l no-preferred-leader-election -d 'Do not restore preferred leaders after each restart'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l discard-state -d 'Delete a saved roll of this cluster (finished or not) before starting'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -l strict -d 'Refuse to roll (exit 1, nothing restarted; a dry run exits 1 too) while any topic on the nodes to restart cannot stay available: replication factor 1, factor at or below min.insync.replicas, partitions already under min ISR or offline; and (exit 5) while partition reassignments that Cruise Control did not start are in flight'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand upgrade" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -f -a "list" -d 'List the partition reassignments in flight (adding, removing, progress, who started them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -f -a "cancel" -d 'Cancel partition reassignments in flight; each partition goes back to its original replicas (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and not __fish_seen_subcommand_from list cancel help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l all -d 'Cancel every reassignment in flight'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -l execute -d 'Cancel them (default: dry run, show what would be cancelled)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from cancel" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the partition reassignments in flight (adding, removing, progress, who started them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from help" -f -a "cancel" -d 'Cancel partition reassignments in flight; each partition goes back to its original replicas (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand reassignments; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l timeout -d 'How long --exit-when-healthy waits' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l interval -d 'How often --watch and --exit-when-healthy observe' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l stall-after -d 'A reassignment whose new replicas neither grew their log (DescribeLogDirs on the destination) nor joined the ISR for this long is `reassignment-stalled` (degraded). Judging needs two looks: --watch compares its own observations; a one-shot `health` keeps the last sample in a small file of the state directory (`health-progress-<bootstrap>.json`) and compares with the run before it' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l state-dir -d 'State directory for the one-shot sample file [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l ignore -d 'Known conditions left out of the verdict (still shown): KIND or KIND:SUBJECT, e.g. `leftover-throttle`, `under-replicated:orders`, `broker-fenced:3` (comma-separated or repeated; kinds: see `-o json` or the README)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l watch -d 'Observe again every --interval and print the verdict whenever it or its reasons change, until Ctrl-C'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -l exit-when-healthy -d 'Wait until the cluster is healthy (exit 0), observing every --interval; exit 3 when --timeout passes first'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand health" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -f -a "list" -d 'List every replication throttle set on the cluster (broker rates, topic throttled replicas) and whether anything moving needs it'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -f -a "clear" -d 'Remove the replication throttles (dry run unless --execute); refused while a movement uses them, unless --force'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and not __fish_seen_subcommand_from list clear help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l execute -d 'Remove them (default: dry run, show what would be removed)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -l force -d 'Remove them even while reassignments are in flight or Cruise Control executes (or may: its state cannot be read); the movement then runs unthrottled'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from clear" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from help" -f -a "list" -d 'List every replication throttle set on the cluster (broker rates, topic throttled replicas) and whether anything moving needs it'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from help" -f -a "clear" -d 'Remove the replication throttles (dry run unless --execute); refused while a movement uses them, unless --force'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand throttles; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -f -a "add" -d 'Hold nodes: never restarted by a roll (nor operate\'s), never a destination of a rebalance kafkaops asks for, until the hold expires or is removed'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -f -a "list" -d 'List the holds stored in the cluster (expired ones marked as such)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -f -a "remove" -d 'Remove the holds of nodes'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and not __fish_seen_subcommand_from add list remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l nodes -d 'Node ids to hold (comma-separated or repeated)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l reason -d 'Why (shown by roll, health and hold list)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l expires -d 'How long the hold lasts (e.g. 4h, 30m, 2d)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l nodes -d 'Node ids whose hold to remove (comma-separated or repeated)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from help" -f -a "add" -d 'Hold nodes: never restarted by a roll (nor operate\'s), never a destination of a rebalance kafkaops asks for, until the hold expires or is removed'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the holds stored in the cluster (expired ones marked as such)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove the holds of nodes'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand hold; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -f -a "list" -d 'List the journals of past runs: id, command, start, duration, outcome'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -f -a "show" -d 'Show what a run did: the plan it showed, what was confirmed, each request and answer, each decision and wait, the outcome'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -f -a "bundle" -d 'Write one .tar.gz with every journal and a health snapshot of the cluster (if it answers), secrets redacted, for a ticket or a post-mortem'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and not __fish_seen_subcommand_from list show bundle help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l state-dir -d 'State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l state-dir -d 'State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l output-file -d 'Where to write the archive [default: kafkaops-bundle-TIME.tar.gz in the working directory]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l health-timeout -d 'How long the health snapshot may take before the bundle is written without it' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l state-dir -d 'State directory whose journals to read [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from bundle" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the journals of past runs: id, command, start, duration, outcome'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show what a run did: the plan it showed, what was confirmed, each request and answer, each decision and wait, the outcome'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "bundle" -d 'Write one .tar.gz with every journal and a health snapshot of the cluster (if it answers), secrets redacted, for a ticket or a post-mortem'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand journal; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l policy -d 'The policy file (YAML): auto-rebalance modes and templates, brokers to drain, replication factors, desired broker configuration. Re-read when it changes; a bad version is reported and the last good one stays in force' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l resync -d 'Time between reconcile loops when nothing happens, e.g. 30s, 2m' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l state-dir -d 'Plain host: directory of the state file (one per cluster) [default: $XDG_STATE_HOME/kafkaops, else ~/.local/state/kafkaops]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l state-configmap -d 'Kubernetes: keep the state in this ConfigMap (key state.json) [default: kafkaops-operate-<cluster> with --strimzi, else the --lease name]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l lease -d 'Kubernetes: leader election Lease; only its holder acts, standbys wait [default: kafkaops-operate-<cluster> with --strimzi, else the --state-configmap name]. Without Kubernetes a lock file in the state directory keeps a second instance out' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l lease-duration -d 'Kubernetes: how long a leader\'s Lease lasts without renewal (a standby takes over after it; the leader stops acting at 2/3 of it). At least 3s; rounded up to whole seconds' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l listen -d 'Address of the HTTP endpoints /metrics, /healthz and /readyz (port 0: any free port, printed at start)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l log-format -d 'Log line format on stderr' -r -f -a "text\t'Human-readable lines'
json\t'One JSON object per line (for log collectors)'"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l restart-command -d 'Plain host: command restarting a node for a roll; {id} and {host} are replaced' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l stop-command -d 'Plain host: instead of --restart-command, command stopping a node ({id}, {host})' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l start-command -d 'Plain host: instead of --restart-command, command starting a node ({id}, {host})' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l pod-selector -d 'Kubernetes without Strimzi: the pods of the cluster (restart = delete the pod)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l node-id-label -d 'With --pod-selector: the pod label holding the Kafka node id [default: the number ending the pod name, e.g. a StatefulSet ordinal]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l action-timeout -d 'How long one Cruise Control request, restart or reconfiguration may take before the action counts as failed (the loop goes on)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l stall-after -d 'A reassignment whose new replicas neither grew their log (DescribeLogDirs on the destination, sampled each loop while reassignments are in flight) nor joined the ISR for this long is `reassignment-stalled` in the health verdict on /metrics' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l dry-run -d 'Log every action it would take and take none (nothing is persisted either)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -l once -d 'Run one reconcile loop and exit (for scripts and tests of a single decision)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand operate" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -f -a "view" -d 'Show the resolved settings and where each came from (secrets masked)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -f -a "get-contexts" -d 'List the config file\'s contexts, the current one marked'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -f -a "use-context" -d 'Make a context the config file\'s current context'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and not __fish_seen_subcommand_from view get-contexts use-context help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from view" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from get-contexts" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from use-context" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "view" -d 'Show the resolved settings and where each came from (secrets masked)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "get-contexts" -d 'List the config file\'s contexts, the current one marked'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "use-context" -d 'Make a context the config file\'s current context'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l config -d 'Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l context -d 'Context of the config file to use [default: the file\'s current-context]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s o -l output -d 'Output format: tables for people (wide: every column, not fitted to the terminal), json or yaml for scripts' -r -f -a "table\t''
wide\t'A table with every column, ids unshortened, not fitted to the terminal'
json\t'One JSON document (every command, streaming ones with `--once`)'
jsonl\t'One compact JSON object per line (NDJSON): the streaming commands\' records'
yaml\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l color -d 'When to use colours (NO_COLOR is respected in auto)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s b -l bootstrap-servers -d 'Kafka bootstrap servers (host:port,...)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s X -l kafka-property -d 'Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL; in the environment, several separated by `;`' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l cruise-control-url -d 'Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l cruise-control-user -d 'Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l cruise-control-password-file -d 'File holding the Cruise Control password' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l cruise-control-ca-file -d 'CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l request-timeout -d 'Timeout of a single HTTP request, e.g. 30s' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l strimzi -d 'Strimzi Kafka cluster (the Kafka resource\'s name): the Kafka bootstrap address, Cruise Control\'s address, credentials and CA come from its Kubernetes resources unless given by flags; `roll` restarts its pods' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s n -l namespace -d 'Kubernetes namespace [default: the kubeconfig context\'s; in a pod, the service account\'s]' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l kube-context -d 'kubeconfig context [default: the kubeconfig\'s current context] (`--context` is kafkaops\' own config-file context)' -r
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -l kubeconfig -d 'kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]' -r -F
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s v -l verbose -d 'More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s q -l quiet -d 'Only data on stdout and errors on stderr'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s y -l yes -d 'Do not ask for confirmation before destructive actions'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand completions" -s V -l version -d 'Print version'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "rebalance" -d 'Move replicas with Cruise Control: onto new brokers, off leaving brokers, or across the cluster'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "roll" -d 'Safe rolling restart / dynamic reconfiguration of Kafka nodes'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "topic" -d 'Topic operations: replication-factor changes through Cruise Control'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "anomalies" -d 'Watch the anomalies Cruise Control detects'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "broker" -d 'Brokers: cordon or uncordon (KIP-1066), list registrations, unregister ghosts (KIP-1073)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "quorum" -d 'The KRaft controller quorum: status, add or remove a controller, migrate static to dynamic'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "upgrade" -d 'Software upgrades: each node\'s version and the feature levels (dry run), --finalize'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "reassignments" -d 'Partition reassignments in flight, whoever started them: list or cancel'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "health" -d 'One verdict on the cluster (healthy, degraded, unavailable) with every reason; exit codes 0, 13, 14 for scripts and probes'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "throttles" -d 'Replication throttles left behind by reassignments: list or clear'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "hold" -d 'Node holds: nodes a roll never restarts and a rebalance never moves replicas to, until the hold expires (stored in the cluster, in the compacted topic __kafkaops_holds)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "journal" -d 'The journals of past runs that changed something: list, show one, bundle them for a ticket (kept in the state directory\'s journal/)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "operate" -d 'Keep a cluster as a policy file says, unattended: auto-rebalance on scale-up, scale-down and goal violations; never two movers at once. Runs until SIGTERM; its state survives restarts'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "config" -d 'Inspect the resolved configuration and switch contexts'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and not __fish_seen_subcommand_from rebalance roll topic anomalies broker quorum upgrade reassignments health throttles hold journal operate config completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "add" -d 'Move replicas onto newly added brokers (Cruise Control add_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "remove" -d 'Move all replicas off brokers about to be removed (Cruise Control remove_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "full" -d 'Rebalance the whole cluster (Cruise Control rebalance)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "demote" -d 'Move leadership off brokers, e.g. before maintenance (Cruise Control demote_broker)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "remove-disks" -d 'Move replicas off JBOD volumes of a broker (Cruise Control remove_disks)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "imbalance" -d 'Fix the goal violations Cruise Control reports that no rebalance handled yet: a full rebalance with a template\'s goals and options (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "status" -d 'Show what Cruise Control is executing'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "stop" -d 'Stop the ongoing Cruise Control execution'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "pace" -d 'Change the pace of the running execution live (Cruise Control\'s admin endpoint)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from rebalance" -f -a "review" -d 'Cruise Control\'s two-step verification: list, approve or discard held requests'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from topic" -f -a "set-rf" -d 'Change the replication factor of topics through Cruise Control (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from topic" -f -a "status" -d 'Replication-factor changes: pending, ongoing and finished (from the state file, refreshed from Kafka and Cruise Control where possible); changes nothing'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from anomalies" -f -a "watch" -d 'Stream the anomalies Cruise Control detects: each once when it first appears and again when its status changes (a live table on a terminal, one JSON object per line when piped)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from broker" -f -a "cordon" -d 'Cordon brokers (KIP-1066, Kafka 4.3+): they take no new partitions, so topics created while they are drained do not land on them'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from broker" -f -a "uncordon" -d 'Uncordon brokers: they take new partitions again'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from broker" -f -a "list" -d 'Registered brokers (fenced ones too): rack, whether they run, replicas still on them'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from broker" -f -a "unregister" -d 'Remove the registration of brokers that are gone (fenced, stopped, holding no replica; KIP-1073). A dry run unless --execute'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from quorum" -f -a "status" -d 'The controller quorum: voters and observers, leader, lag, kraft.version, and a verdict (exit 0 healthy, 4 a voter lagging or no leader, 1 no caught-up majority)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from quorum" -f -a "add" -d 'Make a controller that runs as an observer a voter (AddRaftVoter), once it has caught up'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from quorum" -f -a "remove" -d 'Remove a voter (RemoveRaftVoter), only if the others keep a caught-up majority'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from quorum" -f -a "migrate" -d 'Turn a static quorum dynamic (kraft.version 0 -> 1, Kafka 4.1+); cannot be undone'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from reassignments" -f -a "list" -d 'List the partition reassignments in flight (adding, removing, progress, who started them)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from reassignments" -f -a "cancel" -d 'Cancel partition reassignments in flight; each partition goes back to its original replicas (dry run unless --execute)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from throttles" -f -a "list" -d 'List every replication throttle set on the cluster (broker rates, topic throttled replicas) and whether anything moving needs it'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from throttles" -f -a "clear" -d 'Remove the replication throttles (dry run unless --execute); refused while a movement uses them, unless --force'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from hold" -f -a "add" -d 'Hold nodes: never restarted by a roll (nor operate\'s), never a destination of a rebalance kafkaops asks for, until the hold expires or is removed'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from hold" -f -a "list" -d 'List the holds stored in the cluster (expired ones marked as such)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from hold" -f -a "remove" -d 'Remove the holds of nodes'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "list" -d 'List the journals of past runs: id, command, start, duration, outcome'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "show" -d 'Show what a run did: the plan it showed, what was confirmed, each request and answer, each decision and wait, the outcome'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from journal" -f -a "bundle" -d 'Write one .tar.gz with every journal and a health snapshot of the cluster (if it answers), secrets redacted, for a ticket or a post-mortem'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "view" -d 'Show the resolved settings and where each came from (secrets masked)'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "get-contexts" -d 'List the config file\'s contexts, the current one marked'
complete -c kafkaops -n "__fish_kafkaops_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "use-context" -d 'Make a context the config file\'s current context'
