//! `kafkaops operate`: the CLI edge of the controller. It turns the arguments into a resolved
//! [`OperateSpec`], loads the policy, builds the real ports (a state file and a lock file on a
//! plain host; a ConfigMap, a Lease and Events in Kubernetes, [`kube_ports`]), the clients
//! (through `app::clients`) and how nodes are rolled ([`roll`]), runs the loop
//! ([`crate::app::operate::Operator`]) and maps how it ended to an exit code.
//!
//! A controller outlives outages: without `--once`, Kafka not answering at start (unreachable,
//! timed out) is waited for with backoff and logged once per change, and the loop acts again
//! when it answers. Credentials, TLS and settings errors at start still exit (6 / 2): they do
//! not heal by waiting. `--once` exits 6 when Kafka or Cruise Control cannot be reached, 1 when
//! deposed. SIGTERM / Ctrl-C persist, release and exit 0, leaving a running Cruise Control
//! execution to finish on its own. What to keep true is the [`policy`] file.

pub mod kube_ports;

// The loop's modules moved to `app::operate` (issue #24); their old paths stay for the files
// still here (`act`, `kube_ports`, `roll`) and for scripts of the tests.
pub use crate::app::operate::{act, log, observe, policy, ports, roll, telemetry, wake, warn};

use std::path::PathBuf;

use super::Ctx;
use crate::app::operate::{DryRunReport, Ended, LiveRoll, OperateError, OperateSpec, Operator};
use crate::cli::operate::OperateArgs;
use crate::error::{CliError, ExitCode};
use crate::kafka::KafkaClient;
use crate::state::{FileStore, LockLeadership};
use policy::PolicySource;
use ports::LogRecorder;

/// The loop's spec: the arguments it runs by, resolved.
#[must_use]
pub fn spec(args: &OperateArgs) -> OperateSpec {
    OperateSpec {
        policy: args.policy.clone(),
        resync: args.resync,
        dry_run: args.dry_run,
        once: args.once,
        listen: args.listen,
        action_timeout: args.action_timeout,
    }
}

/// `--once --dry-run`: the plan of the loop on stdout, every action in order (`-o json|yaml`:
/// one document with the actions, waits and notes).
fn print_dry_run(
    ctx: &Ctx,
    args: &OperateArgs,
    report: &std::sync::Mutex<Option<DryRunReport>>,
) -> Result<(), CliError> {
    if !(args.once && args.dry_run) {
        return Ok(());
    }
    let report = report
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
        .unwrap_or_default();
    ctx.printer
        .emit(&report, render_dry_run)
        .map_err(|e| CliError::new(ExitCode::Failed, e))
}

/// The dry run's plan for people: numbered actions, then what waits.
#[must_use]
pub fn render_dry_run(r: &DryRunReport) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    if r.actions.is_empty() {
        s.push_str("Would take no action.\n");
    } else {
        s.push_str("Would take, in order (each once the one before it succeeded):\n");
        for (i, a) in r.actions.iter().enumerate() {
            let _ = writeln!(s, "  {}. {} {}: {}", i + 1, a.kind, a.target, a.reason);
        }
    }
    if !r.waits.is_empty() {
        s.push_str("Waiting now:\n");
        for w in &r.waits {
            let _ = writeln!(s, "  - {w}");
        }
    }
    for n in &r.notes {
        let _ = writeln!(s, "Note: {n}");
    }
    s
}

/// How a run ended, as an exit code.
fn exit_code(ended: Ended) -> ExitCode {
    match ended {
        Ended::Stopped => ExitCode::Ok,
        Ended::Unreachable => ExitCode::Unreachable,
        Ended::Deposed => ExitCode::Failed,
    }
}

/// The loop's errors, classified at the edge: a setting or a saved document to fix is a usage
/// error (2), a store or leadership that fails is a failed operation (1).
fn cli_error(e: OperateError) -> CliError {
    match e {
        OperateError::Leadership(e) | OperateError::Load(e) => CliError::new(ExitCode::Failed, e),
        e => {
            debug_assert!(e.is_usage());
            CliError::usage(e)
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM. Registered at start, so a signal at any point ends the loop
/// through the same path (persist, release, exit 0).
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    async move {
        #[cfg(unix)]
        if let Some(mut term) = term {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The operate state file of the cluster behind `cc_url`.
fn state_path(args: &OperateArgs, cc_url: &str) -> PathBuf {
    let dir = args
        .state_dir
        .clone()
        .unwrap_or_else(|| crate::state::default_dir(&|k| std::env::var(k).ok()));
    dir.join(crate::state::file_name("operate", cc_url))
}

impl ports::ClusterWatcher for kube_ports::ClusterWatch {
    fn start(&self) -> wake::ClusterChanges {
        kube_ports::ClusterWatch::start(self)
    }
}

/// Runs `kafkaops operate` on a plain host.
pub async fn run(ctx: &Ctx, args: OperateArgs) -> Result<ExitCode, CliError> {
    let mut shutdown = Box::pin(shutdown_signal());
    // A bad policy is reported (exit 2) before anything is contacted; the checks against the
    // cluster follow once Kafka answers.
    let mut policy = PolicySource::load(&args.policy, policy::SETTLE, None)
        .await
        .map_err(policy::LoadError::classified)?;
    require_endpoints(ctx)?;
    let spec = spec(&args);
    // One journal per action, next to the operate state (crate::output::journal).
    crate::output::journal::keep_action_journals(
        &args
            .state_dir
            .clone()
            .unwrap_or_else(|| crate::state::default_dir(&|k| std::env::var(k).ok())),
        &std::env::args().collect::<Vec<_>>(),
        super::known_secrets(&ctx.settings),
    );
    let cc = crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        crate::app::clients::CcOptions::polling(spec.poll_interval()),
    )?;
    let Some(kafka) = connect_kafka(ctx, &args, &mut shutdown).await? else {
        log("stopped while waiting for Kafka");
        return Ok(ExitCode::Ok);
    };
    check_against_cluster(&mut policy, &kafka).await?;
    let mut roll = roll_settings(ctx, &args, &policy).await?;
    let live = crate::app::operate::observe::LiveKafka {
        client: kafka.clone(),
        holds: roll.holds.clone(),
    };
    if let Some(kube) = kube_ports::from_args(&ctx.kube(), ctx.strimzi(), &args).await? {
        roll.kube = kube.pods;
        let roll = LiveRoll::new(kafka.clone(), roll);
        let mut op = Operator::new(cc, live, kube.ports, policy, spec, roll);
        op.stall_after = args.stall_after;
        op.cluster_watch = Some(Box::new(kube.watch));
        op.platform = kube
            .strimzi
            .map(|s| Box::new(s) as Box<dyn ports::PlatformObserver>);
        let report = op.dry_run_report.clone();
        let ended = op.run(shutdown).await.map_err(cli_error)?;
        return print_dry_run(ctx, &args, &report).map(|()| exit_code(ended));
    }
    let path = state_path(&args, cc.url());
    let store = FileStore::new(path.clone());
    let leadership = LockLeadership::new(path.with_extension("lock"));
    let roll = LiveRoll::new(kafka, roll);
    let mut op = Operator::new(
        cc,
        live,
        (store, leadership, LogRecorder),
        policy,
        spec,
        roll,
    );
    op.stall_after = args.stall_after;
    let report = op.dry_run_report.clone();
    let ended = op.run(shutdown).await.map_err(cli_error)?;
    print_dry_run(ctx, &args, &report).map(|()| exit_code(ended))
}

/// `operate` needs both Cruise Control and Kafka (exit 2 when either is not set).
fn require_endpoints(ctx: &Ctx) -> Result<(), CliError> {
    if ctx.settings.cruise_control.url.is_none() {
        return Err(CliError::usage(
            "operate needs Cruise Control: set --cruise-control-url (or KAFKAOPS_CRUISE_CONTROL_URL)",
        ));
    }
    if ctx.settings.kafka.bootstrap_servers.is_none() {
        return Err(CliError::usage(
            "operate needs Kafka: set --bootstrap-servers (or KAFKAOPS_BOOTSTRAP_SERVERS)",
        ));
    }
    Ok(())
}

/// How the loop rolls nodes: the policy's roll settings, how a node is restarted (the
/// arguments; exit 2 when they do not fit together) and where the node holds live (chosen once
/// for the roll and the loop's view alike).
async fn roll_settings(
    ctx: &Ctx,
    args: &OperateArgs,
    policy: &PolicySource,
) -> Result<roll::RollSettings, CliError> {
    let method = crate::app::roll::restart_method(
        args.restart_command.as_ref(),
        args.stop_command.as_ref(),
        args.start_command.as_ref(),
    )
    .map_err(CliError::usage)?;
    let mut roll = roll::RollSettings::new(
        policy.policy().roll.broker_config.clone(),
        method,
        policy.policy().roll.max_batch_size,
        args.action_timeout,
    );
    roll.holds = ctx.holds().await?;
    Ok(roll)
}

/// Connects to Kafka. Without `--once`, Kafka not answering (unreachable, timed out) is waited
/// for with backoff, logged once per change (`None`: stopped meanwhile); credentials, TLS and
/// settings errors do not heal by waiting and end the run (exit 6 / 2), as with `--once`.
async fn connect_kafka(
    ctx: &Ctx,
    args: &OperateArgs,
    shutdown: &mut (impl std::future::Future<Output = ()> + Unpin),
) -> Result<Option<KafkaClient>, CliError> {
    let mut outages = wake::Outages::default();
    loop {
        let connected = crate::app::clients::kafka(
            &ctx.settings.kafka,
            ctx.request_timeout(),
            Some("cannot connect to the Kafka cluster"),
        )
        .await
        .map_err(CliError::from);
        let e = match connected {
            Ok(k) => {
                if let Some(line) = outages.note("Kafka", Ok(())) {
                    log(line);
                }
                return Ok(Some(k));
            }
            Err(e) => e,
        };
        let waitable = e
            .error
            .chain()
            .find_map(|c| c.downcast_ref::<crate::kafka::KafkaError>())
            .is_some_and(|k| {
                matches!(
                    k,
                    crate::kafka::KafkaError::Unreachable { .. }
                        | crate::kafka::KafkaError::Timeout { .. }
                )
            });
        if args.once || !waitable {
            return Err(e);
        }
        if let Some(line) = outages.note("Kafka", Err(&e.to_string())) {
            warn(line);
        }
        tokio::select! {
            () = tokio::time::sleep(outages.pause(args.resync)) => {}
            () = &mut *shutdown => return Ok(None),
        }
    }
}

/// Checks the policy loaded at start against the cluster (exit 2 when it does not fit). Kafka
/// not answering is no reason to stop: the loop checks again at every refresh and acts on
/// nothing until a check passed.
pub async fn check_against_cluster(
    policy: &mut PolicySource,
    kafka: &KafkaClient,
) -> Result<(), CliError> {
    match observe::cluster_facts(kafka).await {
        Ok(facts) => policy
            .check(&facts)
            .map_err(policy::LoadError::classified)?,
        Err(e) => {
            warn(format!(
                "the policy is not checked against the cluster yet (Kafka cannot be read: {e})"
            ));
            policy.not_checked(format!("Kafka cannot be read: {e}"));
        }
    }
    Ok(())
}
