//! The command-line surface, as clap types only.
//!
//! Nothing here does work: commands in [`crate::commands`] take these values,
//! resolve settings and call the engine. Keeping the clap types apart lets
//! completions and man pages be generated from the same definition and lets
//! `Cli::command().debug_assert()` check it in a unit test. Every global flag has a
//! `KAFKAOPS_*` environment twin, listed in [`ENV_VARS`].

pub mod anomalies;
pub mod broker;
pub mod examples;
pub mod health;
pub mod help;
pub mod hold;
pub mod journal;
pub mod kraft;
pub mod operate;
pub mod reassignments;
pub mod rebalance;
pub mod roll;
pub mod throttles;
pub mod topic;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::output::{ColorChoice, OutputFormat};

/// Operate Apache Kafka clusters safely: Cruise Control rebalances, replication-factor changes,
/// anomaly watching and safe rolling restarts, by hand or unattended (`operate`).
#[derive(Debug, Parser)]
#[command(
    name = "kafkaops",
    version,
    propagate_version = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// The clap command of [`Cli`] with an Examples section on every command
/// ([`examples::EXAMPLES`]): what the binary parses with and what completions and man pages
/// are generated from.
#[must_use]
pub fn command() -> clap::Command {
    examples::with_examples(Cli::command())
}

/// Flags every subcommand accepts (shown under their own heading in every subcommand's help).
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Global options")]
pub struct GlobalArgs {
    /// Config file (YAML with named contexts) [default: ~/.config/kafkaops/config.yaml if present]
    #[arg(long, global = true, env = "KAFKAOPS_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Context of the config file to use [default: the file's current-context]
    #[arg(long, global = true, env = "KAFKAOPS_CONTEXT", value_name = "NAME")]
    pub context: Option<String>,
    /// Output format: tables for people (wide: every column, not fitted to the terminal), json
    /// or yaml for scripts
    #[arg(
        short,
        long,
        global = true,
        env = "KAFKAOPS_OUTPUT",
        value_enum,
        value_name = "FORMAT",
        default_value_t
    )]
    pub output: OutputFormat,
    /// More log output on stderr (-v info, -vv debug, -vvv trace); RUST_LOG overrides
    #[arg(short, long, global = true, env = "KAFKAOPS_VERBOSE", action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,
    /// Only data on stdout and errors on stderr
    #[arg(short, long, global = true, env = "KAFKAOPS_QUIET")]
    pub quiet: bool,
    /// When to use colours (NO_COLOR is respected in auto)
    #[arg(
        long,
        global = true,
        env = "KAFKAOPS_COLOR",
        value_enum,
        value_name = "WHEN",
        default_value_t
    )]
    pub color: ColorChoice,
    /// Do not ask for confirmation before destructive actions
    #[arg(short = 'y', long, global = true, env = "KAFKAOPS_YES")]
    pub yes: bool,
    #[command(flatten)]
    pub connection: ConnectionArgs,
    #[command(flatten)]
    pub kube: KubeArgs,
}

/// Where the cluster and Cruise Control are.
#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Connection")]
pub struct ConnectionArgs {
    /// Kafka bootstrap servers (host:port,...)
    #[arg(
        short = 'b',
        long,
        global = true,
        env = "KAFKAOPS_BOOTSTRAP_SERVERS",
        value_name = "SERVERS"
    )]
    pub bootstrap_servers: Option<String>,
    /// Extra librdkafka property for the Kafka clients (repeatable), e.g. security.protocol=SSL;
    /// in the environment, several separated by `;`
    #[arg(short = 'X', long = "kafka-property", global = true, env = "KAFKAOPS_KAFKA_PROPERTIES", value_delimiter = ';', value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub kafka_properties: Vec<(String, String)>,
    /// Cruise Control base URL, e.g. https://cruise-control:9090 (a bare host:port means http)
    #[arg(
        long,
        global = true,
        env = "KAFKAOPS_CRUISE_CONTROL_URL",
        value_name = "URL"
    )]
    pub cruise_control_url: Option<String>,
    /// Cruise Control user for HTTP basic auth (password: KAFKAOPS_CRUISE_CONTROL_PASSWORD or --cruise-control-password-file)
    #[arg(
        long,
        global = true,
        env = "KAFKAOPS_CRUISE_CONTROL_USER",
        value_name = "USER"
    )]
    pub cruise_control_user: Option<String>,
    /// File holding the Cruise Control password
    #[arg(
        long,
        global = true,
        env = "KAFKAOPS_CRUISE_CONTROL_PASSWORD_FILE",
        value_name = "FILE"
    )]
    pub cruise_control_password_file: Option<PathBuf>,
    /// CA certificate (PEM) to trust for Cruise Control HTTPS [default: system roots]
    #[arg(
        long,
        global = true,
        env = "KAFKAOPS_CRUISE_CONTROL_CA_FILE",
        value_name = "FILE"
    )]
    pub cruise_control_ca_file: Option<PathBuf>,
    /// Timeout of a single HTTP request, e.g. 30s
    #[arg(long, global = true, env = "KAFKAOPS_REQUEST_TIMEOUT", value_name = "DURATION", value_parser = parse_duration)]
    pub request_timeout: Option<Duration>,
}

/// The name kafkaops was called by (`argv[0]`'s file name): `kubectl-kafkaops` when installed as
/// a kubectl plugin, so that `kubectl kafkaops ...` works.
#[must_use]
pub fn invoked_name() -> String {
    std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        })
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "kafkaops".into())
}

/// How usage lines show the command: `kubectl kafkaops` for the kubectl plugin.
#[must_use]
pub fn usage_name(invoked: &str) -> String {
    match invoked.strip_prefix("kubectl-") {
        Some(rest) => format!("kubectl {rest}"),
        None => invoked.to_string(),
    }
}

/// Where the Kubernetes API is and which Strimzi cluster (`--strimzi`, `roll --pod-selector`).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Kubernetes")]
pub struct KubeArgs {
    /// Strimzi Kafka cluster (the Kafka resource's name): the Kafka bootstrap address, Cruise
    /// Control's address, credentials and CA come from its Kubernetes resources unless given
    /// by flags; `roll` restarts its pods
    #[arg(long, global = true, env = "KAFKAOPS_STRIMZI", value_name = "CLUSTER")]
    pub strimzi: Option<String>,
    /// Kubernetes namespace [default: the kubeconfig context's; in a pod, the service account's]
    #[arg(
        short = 'n',
        long,
        global = true,
        env = "KAFKAOPS_NAMESPACE",
        value_name = "NAMESPACE"
    )]
    pub namespace: Option<String>,
    /// kubeconfig context [default: the kubeconfig's current context] (`--context` is
    /// kafkaops' own config-file context)
    #[arg(
        long,
        global = true,
        env = "KAFKAOPS_KUBE_CONTEXT",
        value_name = "NAME"
    )]
    pub kube_context: Option<String>,
    /// kubeconfig file [default: $KUBECONFIG, ~/.kube/config, else the in-cluster service account]
    #[arg(long, global = true, env = "KAFKAOPS_KUBECONFIG", value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
}

/// Environment twins of the flags, plus the secret-only variables (for docs and `config view`).
pub const ENV_VARS: &[(&str, &str)] = &[
    ("KAFKAOPS_CONFIG", "--config"),
    ("KAFKAOPS_CONTEXT", "--context"),
    ("KAFKAOPS_OUTPUT", "--output"),
    ("KAFKAOPS_VERBOSE", "--verbose"),
    ("KAFKAOPS_QUIET", "--quiet"),
    ("KAFKAOPS_COLOR", "--color"),
    ("KAFKAOPS_YES", "--yes"),
    ("KAFKAOPS_BOOTSTRAP_SERVERS", "--bootstrap-servers"),
    ("KAFKAOPS_KAFKA_PROPERTIES", "--kafka-property"),
    ("KAFKAOPS_CRUISE_CONTROL_URL", "--cruise-control-url"),
    ("KAFKAOPS_CRUISE_CONTROL_USER", "--cruise-control-user"),
    (
        "KAFKAOPS_CRUISE_CONTROL_PASSWORD_FILE",
        "--cruise-control-password-file",
    ),
    (
        "KAFKAOPS_CRUISE_CONTROL_CA_FILE",
        "--cruise-control-ca-file",
    ),
    ("KAFKAOPS_REQUEST_TIMEOUT", "--request-timeout"),
    ("KAFKAOPS_STRIMZI", "--strimzi"),
    ("KAFKAOPS_NAMESPACE", "--namespace"),
    ("KAFKAOPS_KUBE_CONTEXT", "--kube-context"),
    ("KAFKAOPS_KUBECONFIG", "--kubeconfig"),
    (
        "KAFKAOPS_CRUISE_CONTROL_PASSWORD",
        "(environment only) Cruise Control password",
    ),
    (
        "KAFKAOPS_KAFKA_PASSWORD",
        "(environment only) Kafka SASL password",
    ),
    ("KAFKAOPS_STATE_DIR", "roll --state-dir"),
    (
        "KAFKAOPS_JOURNAL_KEEP",
        "(environment only) journals kept in the state directory (default 500)",
    ),
    (
        "KAFKAOPS_JOURNAL_MAX_AGE",
        "(environment only) oldest journal kept, e.g. 30d, or off (default 90d)",
    ),
];

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Move replicas with Cruise Control: onto new brokers, off leaving brokers, or across the cluster
    #[command(subcommand)]
    Rebalance(rebalance::RebalanceCommand),
    /// Safe rolling restart / dynamic reconfiguration of Kafka nodes
    Roll(roll::RollArgs),
    /// Topic operations: replication-factor changes through Cruise Control
    #[command(subcommand)]
    Topic(topic::TopicCommand),
    /// Watch the anomalies Cruise Control detects
    #[command(subcommand)]
    Anomalies(anomalies::AnomaliesCommand),
    /// Brokers: cordon or uncordon (KIP-1066), list registrations, unregister ghosts (KIP-1073)
    #[command(subcommand)]
    Broker(broker::BrokerCommand),
    /// The KRaft controller quorum: status, add or remove a controller, migrate static to dynamic
    #[command(subcommand)]
    Quorum(kraft::QuorumCommand),
    /// Software upgrades: each node's version and the feature levels (dry run), --finalize
    Upgrade(kraft::UpgradeArgs),
    /// Partition reassignments in flight, whoever started them: list or cancel
    #[command(subcommand)]
    Reassignments(reassignments::ReassignmentsCommand),
    /// One verdict on the cluster (healthy, degraded, unavailable) with every reason; exit codes
    /// 0, 13, 14 for scripts and probes
    Health(health::HealthArgs),
    /// Replication throttles left behind by reassignments: list or clear
    #[command(subcommand)]
    Throttles(throttles::ThrottlesCommand),
    /// Node holds: nodes a roll never restarts and a rebalance never moves replicas to, until
    /// the hold expires (stored in the cluster, in the compacted topic __kafkaops_holds)
    #[command(subcommand)]
    Hold(hold::HoldCommand),
    /// The journals of past runs that changed something: list, show one, bundle them for a
    /// ticket (kept in the state directory's journal/)
    #[command(subcommand)]
    Journal(journal::JournalCommand),
    /// Keep a cluster as a policy file says, unattended: auto-rebalance on scale-up, scale-down and
    /// goal violations; never two movers at once. Runs until SIGTERM; its state survives restarts
    Operate(operate::OperateArgs),
    /// Inspect the resolved configuration and switch contexts
    #[command(subcommand, after_long_help = CONFIG_FILE_FORMAT)]
    Config(ConfigCommand),
    /// Print a shell completion script
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

/// The config file's format, shown by `kafkaops config --help`.
pub const CONFIG_FILE_FORMAT: &str = "\
Config file (--config FILE, KAFKAOPS_CONFIG, else ~/.config/kafkaops/config.yaml): YAML with named
contexts, like a kubeconfig. Flags and KAFKAOPS_* variables override what it says.

  current-context: local
  contexts:
    - name: local
      bootstrap-servers: 127.0.0.1:9092
      kafka-properties:                 # librdkafka properties
        security.protocol: SASL_SSL
        sasl.mechanism: SCRAM-SHA-512
        sasl.username: ops
      kafka-password-file: /run/secrets/kafka   # or kafka-password-env: VAR (sasl.password)
      cruise-control:
        url: https://cc.example:9090
        username: admin
        password-env: CC_PASSWORD               # or password-file: FILE
        ca-file: /etc/kafkaops/ca.pem
        timeout: 30s

Examples:
  kafkaops config get-contexts
  kafkaops config use-context prod
  kafkaops --context staging config view";

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Show the resolved settings and where each came from (secrets masked)
    View,
    /// List the config file's contexts, the current one marked
    GetContexts,
    /// Make a context the config file's current context
    UseContext {
        /// The context's name
        #[arg(value_name = "NAME")]
        name: String,
    },
}

/// Parses `key=value`.
pub fn parse_key_value(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("expected KEY=VALUE, got {s:?}"))?;
    if k.trim().is_empty() {
        return Err(format!("empty key in {s:?}"));
    }
    Ok((k.trim().to_string(), v.to_string()))
}

/// Parses a human duration (`30s`, `5m`, `1h30m`).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    humantime::parse_duration(s).map_err(|e| format!("invalid duration {s:?}: {e}"))
}

/// Parses a rate in bytes per second: a plain number (`1000000`) or one with a unit, SI or
/// binary, with or without `/s` (`1MB/s`, `50MB`, `500KiB/s`, `1.5GB/s`).
pub fn parse_rate(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t.strip_suffix("/s").unwrap_or(t).trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let factor: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" => 1e3,
        "m" | "mb" => 1e6,
        "g" | "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1024.0 * 1024.0,
        "gib" => 1024.0 * 1024.0 * 1024.0,
        u => {
            return Err(format!(
                "invalid rate {s:?}: unknown unit {u:?} (bytes per second, e.g. 1000000, 50MB/s, 500KiB/s)"
            ));
        }
    };
    let n: f64 = num.parse().map_err(|_| {
        format!("invalid rate {s:?}: expected a number of bytes per second, e.g. 50MB/s")
    })?;
    let bytes = (n * factor).round();
    if !(1.0..9.0e18).contains(&bytes) {
        return Err(format!("invalid rate {s:?}: at least 1 byte per second"));
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(bytes as u64)
}

/// A comma-separated list of node ids, as one flag value (`--brokers 3,4`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdList(pub Vec<i32>);

impl IdList {
    /// clap value parser.
    pub fn parse(s: &str) -> Result<IdList, String> {
        parse_id_list(s).map(IdList)
    }
}

/// Parses a comma-separated list of non-negative broker/node ids (`1,2,5`).
pub fn parse_id_list(s: &str) -> Result<Vec<i32>, String> {
    let mut ids = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let id: i32 = part
            .parse()
            .map_err(|_| format!("{part:?} is not a node id (a non-negative integer)"))?;
        if id < 0 {
            return Err(format!("{id} is not a node id (a non-negative integer)"));
        }
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.is_empty() {
        return Err("expected at least one id, e.g. 3,4".into());
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    #[test]
    fn rates_take_human_units() {
        assert_eq!(parse_rate("1000000"), Ok(1_000_000));
        assert_eq!(parse_rate("1MB/s"), Ok(1_000_000));
        assert_eq!(parse_rate("50 MB/s"), Ok(50_000_000));
        assert_eq!(parse_rate("1.5GB"), Ok(1_500_000_000));
        assert_eq!(parse_rate("500KiB/s"), Ok(512_000));
        assert_eq!(parse_rate("2mib"), Ok(2 * 1024 * 1024));
        for bad in ["", "0", "fast", "1XB/s", "-5MB/s", "0.1"] {
            assert!(parse_rate(bad).is_err(), "{bad:?}");
        }
        let cli =
            Cli::try_parse_from(["kafkaops", "rebalance", "pace", "--throttle", "1MB/s"]).unwrap();
        let Command::Rebalance(rebalance::RebalanceCommand::Pace(p)) = cli.command else {
            panic!("{cli:?}")
        };
        assert_eq!(p.throttle, Some(1_000_000));
    }

    /// Issue #26: one flag per concept; the old spellings still parse, to the same value, and
    /// stay out of the help.
    #[test]
    fn old_flag_spellings_are_hidden_aliases_of_the_shared_ones() {
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("kafkaops").chain(args.iter().copied()))
                .unwrap_or_else(|e| panic!("{args:?}: {e}"))
        };
        let pace = |args: &[&str]| {
            let mut all = vec!["rebalance", "pace"];
            all.extend_from_slice(args);
            match parse(&all).command {
                Command::Rebalance(rebalance::RebalanceCommand::Pace(p)) => {
                    (p.throttle, p.concurrency, p.leader_concurrency)
                }
                c => panic!("{c:?}"),
            }
        };
        assert_eq!(
            pace(&["--throttle", "1MB/s"]),
            pace(&["--replication-throttle", "1000000"])
        );
        assert_eq!(pace(&["--throttle", "1MB/s"]).0, Some(1_000_000));
        assert_eq!(
            pace(&["--concurrency", "3", "--leader-concurrency", "2"]),
            pace(&[
                "--concurrent-partition-movements-per-broker",
                "3",
                "--concurrent-leader-movements",
                "2"
            ])
        );
        assert_eq!(pace(&["--concurrency", "3"]).1, Some(3));
        let roll = |flag: &str| match parse(&["roll", flag, "1,2"]).command {
            Command::Roll(r) => r.nodes.map(|n| n.0),
            c => panic!("{c:?}"),
        };
        assert_eq!(roll("--brokers"), roll("--nodes"));
        assert_eq!(roll("--brokers"), Some(vec![1, 2]));
        let mut cmd = Cli::command();
        let pace_help = cmd
            .find_subcommand_mut("rebalance")
            .and_then(|r| r.find_subcommand_mut("pace"))
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(
            pace_help.contains("--replication-throttle <RATE>")
                && pace_help.contains("--concurrent-partition-movements-per-broker <N>"),
            "{pace_help}"
        );
        assert!(!pace_help.contains("--throttle <"), "{pace_help}");
    }

    /// Issue #26: placeholders name the kind of value (`<DURATION>`, `<N>`, `<IDS>`), never
    /// clap's default from the field name (`<MAX_BATCH_SIZE>`).
    #[test]
    fn placeholders_name_the_kind_of_value() {
        fn walk(cmd: &clap::Command, path: &str, bad: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                if !a.get_action().takes_values() || a.is_hide_set() {
                    continue;
                }
                // clap's default placeholder is the field name (`MAX_BATCH_SIZE`); a chosen
                // one names a kind (`N`, `DURATION`, `TOPIC-PARTITION`).
                let names: Vec<String> = a
                    .get_value_names()
                    .map(|n| n.iter().map(ToString::to_string).collect())
                    .unwrap_or_else(|| vec![a.get_id().as_str().to_ascii_uppercase()]);
                if names.iter().any(|n| n.contains('_')) {
                    bad.push(format!("{path} --{}: {names:?}", a.get_id()));
                }
            }
            for s in cmd.get_subcommands() {
                walk(s, &format!("{path} {}", s.get_name()), bad);
            }
        }
        let mut bad = Vec::new();
        walk(&Cli::command(), "kafkaops", &mut bad);
        assert!(bad.is_empty(), "placeholders to name: {bad:#?}");
    }

    /// Issue #26: every command has an Examples section, and every example parses.
    #[test]
    fn every_command_has_examples_that_parse() {
        fn paths(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
            out.push(path.to_string());
            for s in cmd.get_subcommands() {
                let p = if path.is_empty() {
                    s.get_name().to_string()
                } else {
                    format!("{path} {}", s.get_name())
                };
                paths(s, &p, out);
            }
        }
        let mut all = Vec::new();
        paths(&Cli::command(), "", &mut all);
        let listed: Vec<&str> = examples::EXAMPLES.iter().map(|(p, _)| *p).collect();
        let missing: Vec<&String> = all
            .iter()
            .filter(|p| !listed.contains(&p.as_str()))
            .collect();
        assert!(missing.is_empty(), "commands without examples: {missing:?}");
        let stale: Vec<&&str> = listed
            .iter()
            .filter(|p| !all.iter().any(|a| a == *p))
            .collect();
        assert!(stale.is_empty(), "examples of no command: {stale:?}");
        for (path, text) in examples::EXAMPLES {
            for line in text.lines() {
                // What a shell passes: the words before a redirection.
                let words = shlex::split(line).unwrap_or_else(|| panic!("{line}"));
                let words: Vec<String> = words.into_iter().take_while(|w| w != ">").collect();
                assert_eq!(
                    words.first().map(String::as_str),
                    Some("kafkaops"),
                    "{line}"
                );
                let m = command()
                    .try_get_matches_from(&words)
                    .unwrap_or_else(|e| panic!("{path}: {line}: {e}"));
                Cli::from_arg_matches(&m).unwrap_or_else(|e| panic!("{line}: {e}"));
                if !path.is_empty() {
                    assert!(
                        line.contains(path),
                        "{path}: an example of another command: {line}"
                    );
                }
            }
        }
        // And the help shows them.
        let mut cmd = command();
        let roll = cmd
            .find_subcommand_mut("roll")
            .unwrap()
            .render_help()
            .to_string();
        assert!(
            roll.contains("Examples:\n  kafkaops -b k1:9092 roll --all --dry-run"),
            "{roll}"
        );
    }

    #[test]
    fn clap_definition_is_valid() {
        Cli::command().debug_assert();
    }

    #[test]
    fn id_lists() {
        assert_eq!(parse_id_list("3, 4,3").unwrap(), vec![3, 4]);
        assert!(parse_id_list("a").is_err());
        assert!(parse_id_list("-1").is_err());
        assert!(parse_id_list(",").is_err());
    }

    #[test]
    fn every_global_flag_has_an_env_twin_and_every_twin_is_listed() {
        let cmd = Cli::command();
        let mut missing = Vec::new();
        for arg in cmd.get_arguments().filter(|a| a.is_global_set()) {
            match arg.get_env() {
                Some(env) => {
                    let env = env.to_string_lossy();
                    if !ENV_VARS.iter().any(|(e, _)| *e == env) {
                        missing.push(format!("{env} is not in ENV_VARS"));
                    }
                }
                None => missing.push(format!("--{} has no env twin", arg.get_id())),
            }
        }
        for (env, flag) in ENV_VARS {
            if flag.starts_with("--") {
                let declared = cmd
                    .get_arguments()
                    .any(|a| a.get_env().is_some_and(|e| e == *env));
                if !declared {
                    missing.push(format!("{env} is listed but on no flag"));
                }
            }
        }
        assert!(missing.is_empty(), "{missing:#?}");
    }
}
