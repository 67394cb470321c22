//! One module per subcommand: resolve settings, build adapters, run, render.
//!
//! Commands are the imperative shell's edge: they own no decisions (those live in
//! [`crate::engine`]), no protocol details (those live in the adapters) and, more and more, no
//! use cases (those live in [`crate::app`], shared with `operate`). The exit-code table and the
//! one error classifier ([`crate::error`], [`crate::error_codes`]) are used here and in `main`
//! only.

pub mod anomalies;
pub mod completions;
pub mod config;
pub mod cordon;
pub mod health;
pub mod hold;
pub mod imbalance;
pub mod journal;
pub mod kraft;
pub mod operate;
pub mod pace;
pub mod reassignments;
pub mod rebalance;
pub mod roll;
pub mod schemas;
pub mod shared;
pub mod throttles;
pub mod topic;

use clap::ArgMatches;
use clap::parser::ValueSource;

use crate::cli::{Cli, Command, GlobalArgs};
use crate::error::{CliError, ExitCode};
use crate::output::Printer;
use crate::platform::kube::portforward::PortForward;
use crate::platform::kube::strimzi;
use crate::settings::{self, Overrides, Settings, Source, Sourced};

/// What every command gets: resolved settings and a printer.
pub struct Ctx {
    pub global: GlobalArgs,
    pub settings: Settings,
    pub printer: Printer,
    /// `--strimzi` with `roll`: why the cluster's Cruise Control could not be found from its
    /// resources (a cluster without one is not an error). The roll refuses unless `--force`,
    /// since it cannot tell whether an execution runs.
    pub cruise_control_discovery: Option<String>,
}

impl Ctx {
    /// The Kafka request timeout (`--request-timeout`, else the default).
    #[must_use]
    pub fn request_timeout(&self) -> std::time::Duration {
        self.global
            .connection
            .request_timeout
            .unwrap_or(crate::app::clients::DEFAULT_REQUEST_TIMEOUT)
    }

    /// How a use case reaches Kafka: the resolved settings and the request timeout.
    #[must_use]
    pub fn kafka_access(&self) -> crate::app::cordon::KafkaAccess<'_> {
        crate::app::cordon::KafkaAccess {
            settings: &self.settings.kafka,
            request_timeout: self.request_timeout(),
        }
    }

    /// Where the Kubernetes API is (`--kubeconfig`, `--kube-context`, `--namespace`).
    #[must_use]
    pub fn kube(&self) -> crate::platform::kube::KubeTarget {
        kube_target(&self.global.kube)
    }

    /// Where the node holds live, chosen once from the settings (`--strimzi`: a ConfigMap in
    /// Kubernetes, else the Kafka cluster's holds topic).
    ///
    /// # Errors
    /// On Kubernetes, its API cannot be reached.
    pub async fn holds(&self) -> anyhow::Result<crate::app::hold::Holds> {
        crate::app::hold::Holds::open(&self.kube(), self.strimzi()).await
    }

    /// The Strimzi cluster the command acts on (`--strimzi`).
    #[must_use]
    pub fn strimzi(&self) -> Option<&str> {
        self.global.kube.strimzi.as_deref()
    }
}

/// The CLI renders what a use case reports: notes on stderr (silenced by `-q`), warnings as
/// log lines.
impl crate::app::Reporter for Printer {
    fn note(&self, message: &str) {
        Printer::note(self, message);
    }

    fn warn(&self, message: &str) {
        tracing::warn!("{message}");
    }
}

/// Where the Kubernetes API is, from the `--kubeconfig`, `--kube-context` and `--namespace`
/// flags.
#[must_use]
pub fn kube_target(args: &crate::cli::KubeArgs) -> crate::platform::kube::KubeTarget {
    crate::platform::kube::KubeTarget {
        kubeconfig: args.kubeconfig.clone(),
        context: args.kube_context.clone(),
        namespace: args.namespace.clone(),
    }
}

/// Runs the parsed command.
pub async fn run(cli: Cli, matches: &ArgMatches) -> Result<ExitCode, CliError> {
    let overrides = overrides_from(&cli.global, matches);
    let mut settings = settings::resolve(&overrides, &|k| std::env::var(k).ok())?;
    // `config view` shows a secret whose variable is not set; every other command needs it.
    if !matches!(cli.command, Command::Config(_)) {
        settings.require_secrets()?;
    }
    // A port-forward to Cruise Control opened by the discovery lives until the command returns.
    let (_cc_forward, cruise_control_discovery) = discover_strimzi(&cli, &mut settings).await?;
    let printer = Printer::new(cli.global.output, cli.global.color, cli.global.quiet);
    // A command that changes something keeps a journal of its run (crate::output::journal).
    let journaled = begin_journal(&cli.command, cli.global.yes, &settings);
    let ctx = Ctx {
        global: cli.global,
        settings,
        printer,
        cruise_control_discovery,
    };
    let result = dispatch(&ctx, cli.command).await;
    if let Some(id) = journaled {
        finish_journal(&id, &result);
    }
    result
}

/// `--strimzi`: fills what no flag, variable or config file gave from the cluster's resources.
/// Returns the port-forward to Cruise Control opened there (to keep until the command returns)
/// and, for a roll, why its Cruise Control could not be found (a cluster without one is fine).
async fn discover_strimzi(
    cli: &Cli,
    settings: &mut Settings,
) -> Result<(Option<PortForward>, Option<String>), CliError> {
    let Some(cluster) = &cli.global.kube.strimzi else {
        return Ok((None, None));
    };
    if matches!(
        cli.command,
        Command::Completions { .. } | Command::Config(_)
    ) {
        return Ok((None, None));
    }
    let conn = kube_target(&cli.global.kube).connect().await?;
    // `upgrade --to` is a roll too.
    let roll = matches!(&cli.command, Command::Roll(_))
        || matches!(&cli.command, Command::Upgrade(a) if a.to.is_some());
    // The KRaft lifecycle commands talk to Kafka only: they need no Cruise Control (a
    // cluster without one must not fail their discovery).
    // Nor do the holds (`hold`), kept in Kubernetes beside the cluster.
    let kafka_only = matches!(
        cli.command,
        Command::Quorum(_) | Command::Upgrade(_) | Command::Hold(_)
    );
    let mut cc_forward = strimzi::discover(&conn, cluster, settings, !roll && !kafka_only).await?;
    let mut cruise_control_discovery = None;
    if roll {
        // A roll asks Cruise Control whether it executes (no restart during an execution),
        // found the same way; a cluster without one (no Service) is fine, and a failure is
        // the roll's to judge.
        let before = settings.cruise_control.clone();
        match strimzi::discover(&conn, cluster, settings, true).await {
            Ok(forward) => cc_forward = forward,
            Err(e) => {
                settings.cruise_control = before;
                if !strimzi::is_missing_cruise_control(&e) {
                    cruise_control_discovery = Some(e.to_string());
                }
            }
        }
    }
    Ok((cc_forward, cruise_control_discovery))
}

/// Opens the journal of this run when `command` changes something (its id; `None`: no
/// journal, or it cannot be kept, which is said and does not stop the command).
fn begin_journal(command: &Command, yes: bool, settings: &Settings) -> Option<String> {
    let (name, dir) = journaled(command)?;
    let state_dir = dir.unwrap_or_else(crate::state::default_state_dir);
    let args: Vec<String> = std::env::args().collect();
    match crate::output::journal::begin(&crate::output::journal::Opening {
        state_dir: &state_dir,
        command: &name,
        args: &args,
        yes,
        known_secrets: known_secrets(settings),
    }) {
        Ok(id) => Some(id),
        Err(e) => {
            tracing::warn!(
                "cannot keep a journal of this run in {}: {e}",
                crate::output::journal::dir_in(&state_dir).display()
            );
            None
        }
    }
}

/// Closes the journal `id` with how the command ended.
fn finish_journal(id: &str, result: &Result<ExitCode, CliError>) {
    let (code, error) = match result {
        Ok(code) => (*code, None),
        Err(e) => (e.code, Some(e.to_string())),
    };
    let outcome = serde_json::to_value(code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    if let Some(path) = crate::output::journal::finish(code.code(), &outcome, error) {
        tracing::debug!("journal {id} of this run: {}", path.display());
    }
}

/// The secrets of these settings, masked wherever they would appear in a journal or bundle.
#[must_use]
pub fn known_secrets(settings: &Settings) -> Vec<String> {
    let mut out: Vec<String> = settings
        .kafka
        .secrets
        .values()
        .map(|s| s.value.expose().to_string())
        .collect();
    if let Some(p) = &settings.cruise_control.password {
        out.push(p.value.expose().to_string());
    }
    out.retain(|s| !s.is_empty());
    out
}

/// Whether `command` changes something (and so keeps a journal): its name, and the state
/// directory it was given (`--state-dir`), if any. Dry runs and reads keep none; `operate`
/// keeps one per action instead.
#[must_use]
pub fn journaled(command: &Command) -> Option<(String, Option<std::path::PathBuf>)> {
    use crate::cli::broker::BrokerCommand as B;
    use crate::cli::kraft::QuorumCommand as Q;
    use crate::cli::rebalance::{RebalanceCommand as R, ReviewCommand as Rv};
    let name = |n: &str| Some((n.to_string(), None));
    let env_dir = || std::env::var_os("KAFKAOPS_STATE_DIR").map(std::path::PathBuf::from);
    match command {
        Command::Roll(a) if !a.run.dry_run => Some(("roll".into(), a.run.state_dir.clone())),
        Command::Rebalance(r) => match r {
            R::Add(a) if a.proposal.execute => name("rebalance add"),
            R::Remove(a) if a.proposal.execute => name("rebalance remove"),
            R::Full(a) if a.proposal.execute => name("rebalance full"),
            R::Demote(a) if a.proposal.execute => name("rebalance demote"),
            R::RemoveDisks(a) if a.proposal.execute => name("rebalance remove-disks"),
            R::Imbalance(a) if a.proposal.execute => {
                Some(("rebalance imbalance".into(), a.state_dir.clone()))
            }
            R::Stop(_) => name("rebalance stop"),
            R::Pace(_) => name("rebalance pace"),
            R::Review(Rv::Approve(_)) => name("rebalance review approve"),
            R::Review(Rv::Discard(_)) => name("rebalance review discard"),
            _ => None,
        },
        Command::Topic(crate::cli::topic::TopicCommand::SetRf(a)) if a.execute => {
            Some(("topic set-rf".into(), a.state_dir.clone()))
        }
        Command::Broker(B::Cordon(_)) => name("broker cordon"),
        Command::Broker(B::Uncordon(_)) => name("broker uncordon"),
        Command::Broker(B::Unregister(a)) if a.execute => name("broker unregister"),
        Command::Quorum(Q::Add(_)) => name("quorum add"),
        Command::Quorum(Q::Remove(_)) => name("quorum remove"),
        Command::Quorum(Q::Migrate(_)) => name("quorum migrate"),
        Command::Upgrade(a) if a.finalize => name("upgrade --finalize"),
        Command::Upgrade(a) if a.to.is_some() && !a.roll.dry_run => {
            Some(("upgrade".into(), a.roll.state_dir.clone()))
        }
        Command::Reassignments(crate::cli::reassignments::ReassignmentsCommand::Cancel(a))
            if a.execute =>
        {
            name("reassignments cancel")
        }
        Command::Throttles(crate::cli::throttles::ThrottlesCommand::Clear(a)) if a.execute => {
            name("throttles clear")
        }
        Command::Hold(crate::cli::hold::HoldCommand::Add(_)) => name("hold add"),
        Command::Hold(crate::cli::hold::HoldCommand::Remove(_)) => name("hold remove"),
        _ => None,
    }
    .map(|(n, dir)| (n, dir.or_else(env_dir)))
}

async fn dispatch(ctx: &Ctx, command: Command) -> Result<ExitCode, CliError> {
    match command {
        // `rebalance imbalance` and `rebalance pace` are modules of their own: no subcommand
        // module imports another.
        Command::Rebalance(crate::cli::rebalance::RebalanceCommand::Imbalance(a)) => {
            imbalance::run(ctx, a).await
        }
        Command::Rebalance(crate::cli::rebalance::RebalanceCommand::Pace(a)) => {
            pace::run(ctx, &a).await
        }
        Command::Rebalance(cmd) => rebalance::run(ctx, cmd).await,
        Command::Config(crate::cli::ConfigCommand::View) => config::view(ctx),
        Command::Config(crate::cli::ConfigCommand::GetContexts) => config::get_contexts(ctx),
        Command::Config(crate::cli::ConfigCommand::UseContext { name }) => {
            config::use_context(ctx, &name)
        }
        Command::Completions { shell } => completions::run(shell),
        Command::Roll(args) => roll::run(ctx, args).await,
        Command::Topic(cmd) => topic::run(ctx, cmd).await,
        Command::Anomalies(cmd) => anomalies::run(ctx, cmd).await,
        Command::Reassignments(cmd) => reassignments::run(ctx, cmd).await,
        Command::Broker(crate::cli::broker::BrokerCommand::List) => kraft::broker_list(ctx).await,
        Command::Broker(crate::cli::broker::BrokerCommand::Unregister(a)) => {
            kraft::broker_unregister(ctx, a).await
        }
        Command::Broker(cmd) => cordon::run(ctx, cmd).await,
        Command::Health(a) => health::run(ctx, a).await,
        Command::Throttles(cmd) => throttles::run(ctx, cmd).await,
        Command::Hold(cmd) => hold::run(ctx, cmd).await,
        Command::Quorum(cmd) => kraft::quorum(ctx, cmd).await,
        // `upgrade --to RELEASE` is a roll (onto new software): the roll module runs it.
        Command::Upgrade(a) if a.to.is_some() => roll::upgrade(ctx, a).await,
        Command::Upgrade(a) => kraft::upgrade(ctx, a).await,
        Command::Operate(args) => operate::run(ctx, args).await,
        Command::Journal(cmd) => journal::run(ctx, cmd).await,
    }
}

/// Where clap found a value: the command line, the environment, or nowhere.
fn source_of(matches: &ArgMatches, id: &str) -> Option<Source> {
    // Global args are propagated to the deepest subcommand; look there first.
    let mut m = matches;
    while let Some((_, sub)) = m.subcommand() {
        m = sub;
    }
    let src = m.value_source(id).or_else(|| matches.value_source(id))?;
    match src {
        ValueSource::CommandLine => Some(Source::Flag),
        ValueSource::EnvVariable => Some(Source::Environment),
        _ => None,
    }
}

fn sourced<T: Clone>(value: Option<&T>, matches: &ArgMatches, id: &str) -> Option<Sourced<T>> {
    let v = value?.clone();
    Some(Sourced::new(
        v,
        source_of(matches, id).unwrap_or(Source::Flag),
    ))
}

/// Collects the connection values the user gave, with their origins.
#[must_use]
pub fn overrides_from(global: &GlobalArgs, matches: &ArgMatches) -> Overrides {
    let c = &global.connection;
    Overrides {
        context: sourced(global.context.as_ref(), matches, "context"),
        config: sourced(global.config.as_ref(), matches, "config"),
        bootstrap_servers: sourced(c.bootstrap_servers.as_ref(), matches, "bootstrap_servers"),
        kafka_properties: c
            .kafka_properties
            .iter()
            .map(|kv| {
                Sourced::new(
                    kv.clone(),
                    source_of(matches, "kafka_properties").unwrap_or(Source::Flag),
                )
            })
            .collect(),
        cruise_control_url: sourced(c.cruise_control_url.as_ref(), matches, "cruise_control_url"),
        cruise_control_user: sourced(
            c.cruise_control_user.as_ref(),
            matches,
            "cruise_control_user",
        ),
        cruise_control_password_file: sourced(
            c.cruise_control_password_file.as_ref(),
            matches,
            "cruise_control_password_file",
        ),
        cruise_control_ca_file: sourced(
            c.cruise_control_ca_file.as_ref(),
            matches,
            "cruise_control_ca_file",
        ),
        request_timeout: sourced(c.request_timeout.as_ref(), matches, "request_timeout"),
    }
}
