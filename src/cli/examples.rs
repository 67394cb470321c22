//! The Examples section of every command's help (as kubectl and rpk have), kept in one table
//! so a test can check that every command has one and that each example parses.

/// (command path, examples): one command line per line, `#` comments after two spaces.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "",
        "kafkaops -b k1:9092 health\nkafkaops -b k1:9092 rebalance add --brokers 4,5\nkafkaops --strimzi my-cluster -n kafka roll --all --dry-run",
    ),
    (
        "rebalance",
        "kafkaops rebalance status\nkafkaops -b k1:9092 rebalance add --brokers 4 --execute",
    ),
    (
        "rebalance add",
        "kafkaops -b k1:9092 rebalance add --brokers 4,5\nkafkaops -b k1:9092 rebalance add --brokers 4,5 --execute --replication-throttle 50MB/s",
    ),
    (
        "rebalance remove",
        "kafkaops -b k1:9092 rebalance remove --brokers 5\nkafkaops -b k1:9092 rebalance remove --brokers 5 --execute --yes --no-wait -o json",
    ),
    (
        "rebalance full",
        "kafkaops rebalance full\nkafkaops rebalance full --execute --concurrent-partition-movements-per-broker 5",
    ),
    (
        "rebalance demote",
        "kafkaops rebalance demote --brokers 3\nkafkaops rebalance demote --brokers 3 --execute",
    ),
    (
        "rebalance remove-disks",
        "kafkaops rebalance remove-disks --brokers-and-logdirs 1-/var/lib/kafka/data-1",
    ),
    (
        "rebalance imbalance",
        "kafkaops rebalance imbalance\nkafkaops rebalance imbalance --watch",
    ),
    (
        "rebalance status",
        "kafkaops rebalance status\nkafkaops rebalance status --task 5a4b2c1d-0000-4000-8000-00000000e0e0 --follow",
    ),
    ("rebalance stop", "kafkaops rebalance stop"),
    (
        "rebalance pace",
        "kafkaops rebalance pace --concurrent-partition-movements-per-broker 2\nkafkaops -b k1:9092 rebalance pace --replication-throttle 20MB/s",
    ),
    (
        "rebalance review",
        "kafkaops rebalance review list\nkafkaops rebalance review approve 12",
    ),
    (
        "rebalance review list",
        "kafkaops rebalance review list\nkafkaops rebalance review list --ids 12,13 -o json",
    ),
    (
        "rebalance review approve",
        "kafkaops rebalance review approve 12",
    ),
    (
        "rebalance review discard",
        "kafkaops rebalance review discard 12,13",
    ),
    (
        "roll",
        "kafkaops -b k1:9092 roll --all --dry-run\nkafkaops -b k1:9092 roll --nodes 1,2 --restart-command 'ssh {host} sudo systemctl restart kafka'\nkafkaops --strimzi my-cluster -n kafka roll --all",
    ),
    (
        "topic",
        "kafkaops -b k1:9092 topic set-rf --topics orders -r 3",
    ),
    (
        "topic set-rf",
        "kafkaops -b k1:9092 topic set-rf --topics orders,payments -r 3\nkafkaops -b k1:9092 topic set-rf --topics orders -r 3 --execute",
    ),
    (
        "topic status",
        "kafkaops -b k1:9092 topic status\nkafkaops topic status -o json",
    ),
    ("anomalies", "kafkaops anomalies watch"),
    (
        "anomalies watch",
        "kafkaops anomalies watch\nkafkaops anomalies watch --once -o json\nkafkaops anomalies watch --exit-on goal-violation",
    ),
    ("broker", "kafkaops -b k1:9092 broker list"),
    (
        "broker cordon",
        "kafkaops -b k1:9092 broker cordon --brokers 5",
    ),
    (
        "broker uncordon",
        "kafkaops -b k1:9092 broker uncordon --brokers 5",
    ),
    (
        "broker list",
        "kafkaops -b k1:9092 broker list\nkafkaops -b k1:9092 broker list -o json",
    ),
    (
        "broker unregister",
        "kafkaops -b k1:9092 broker unregister --brokers 7",
    ),
    (
        "quorum",
        "kafkaops -b k1:9092 -X bootstrap.controllers=c1:9093 quorum status",
    ),
    (
        "quorum status",
        "kafkaops -b k1:9092 -X bootstrap.controllers=c1:9093 quorum status",
    ),
    (
        "quorum add",
        "kafkaops -b k1:9092 -X bootstrap.controllers=c1:9093 quorum add --controller 4",
    ),
    (
        "quorum remove",
        "kafkaops -b k1:9092 -X bootstrap.controllers=c1:9093 quorum remove --controller 4",
    ),
    (
        "quorum migrate",
        "kafkaops -b k1:9092 -X bootstrap.controllers=c1:9093 quorum migrate",
    ),
    (
        "upgrade",
        "kafkaops -b k1:9092 upgrade\nkafkaops -b k1:9092 upgrade --to 4.4.0 --restart-command 'ssh {host} sudo systemctl restart kafka'\nkafkaops -b k1:9092 upgrade --finalize",
    ),
    ("reassignments", "kafkaops -b k1:9092 reassignments list"),
    (
        "reassignments list",
        "kafkaops -b k1:9092 reassignments list\nkafkaops -b k1:9092 reassignments list -o json",
    ),
    (
        "reassignments cancel",
        "kafkaops -b k1:9092 reassignments cancel orders-3\nkafkaops -b k1:9092 reassignments cancel --all --execute",
    ),
    (
        "journal",
        "kafkaops journal list\nkafkaops journal show last",
    ),
    (
        "journal list",
        "kafkaops journal list\nkafkaops journal list -o json",
    ),
    (
        "journal show",
        "kafkaops journal show last\nkafkaops journal show 20261127T203512345-4242 -o json",
    ),
    (
        "journal bundle",
        "kafkaops -b k1:9092 journal bundle --output-file incident.tar.gz\nkafkaops journal bundle --health-timeout 5s",
    ),
    ("throttles", "kafkaops -b k1:9092 throttles list"),
    ("throttles list", "kafkaops -b k1:9092 throttles list"),
    (
        "throttles clear",
        "kafkaops -b k1:9092 throttles clear\nkafkaops -b k1:9092 throttles clear --execute",
    ),
    (
        "health",
        "kafkaops -b k1:9092 health\nkafkaops -b k1:9092 health --exit-when-healthy --timeout 10m",
    ),
    ("hold", "kafkaops hold list"),
    (
        "hold add",
        "kafkaops hold add --nodes 3 --reason 'disk swap' --expires 2h",
    ),
    ("hold list", "kafkaops hold list"),
    ("hold remove", "kafkaops hold remove --nodes 3"),
    (
        "operate",
        "kafkaops -b k1:9092 operate --policy policy.yaml --once --dry-run\nkafkaops -b k1:9092 operate --policy policy.yaml --restart-command 'ssh {host} sudo systemctl restart kafka'",
    ),
    (
        "config",
        "kafkaops config view\nkafkaops config get-contexts\nkafkaops config use-context prod",
    ),
    (
        "config view",
        "kafkaops config view\nkafkaops --context prod config view -o json",
    ),
    ("config get-contexts", "kafkaops config get-contexts"),
    ("config use-context", "kafkaops config use-context prod"),
    (
        "completions",
        "kafkaops completions bash > /etc/bash_completion.d/kafkaops\nkafkaops completions zsh > \"${fpath[1]}/_kafkaops\"",
    ),
];

/// The command with its Examples section on every command of the tree.
#[must_use]
pub fn with_examples(cmd: clap::Command) -> clap::Command {
    add(cmd, "")
}

fn add(mut cmd: clap::Command, path: &str) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let sub = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        cmd = cmd.mut_subcommand(&name, |s| add(s, &sub));
    }
    match EXAMPLES.iter().find(|(p, _)| *p == path) {
        Some((_, text)) => {
            let body: String = text.lines().map(|l| format!("  {l}\n")).collect();
            cmd.after_help(format!("Examples:\n{}", body.trim_end()))
        }
        None => cmd,
    }
}
