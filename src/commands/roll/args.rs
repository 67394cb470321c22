//! `kafkaops roll`'s flags, resolved: the selection, the desired configuration, the pods or the
//! restart commands, the roll's limits, the saved request. Usage errors (exit 2) are found
//! here, before anything is looked at.

use std::collections::BTreeMap;
use std::path::Path;

use super::{RoleFilter, RollArgs};
use crate::app::roll::SoftwareTarget;
use crate::app::roll::prepare::PrepareError;
use crate::app::roll::session::{self, RestartCommands, ResumeError};
use crate::app::roll::{self as app, RollLimits};
use crate::cli::roll::RollRunArgs;
use crate::driver::RollRun;
use crate::engine::roll::RollConfig;
use crate::error::CliError;
use crate::platform::kube::PodSelector;
use crate::platform::process::RestartMethod;

/// The roll as the flags ask it (clap-free from here on).
pub(super) struct Spec {
    pub(super) selection: Option<Selection>,
    pub(super) desired: BTreeMap<String, String>,
    /// `upgrade --to RELEASE`: every node not on that release's software restarts, and each
    /// must come back on it.
    pub(super) software: Option<SoftwareTarget>,
    /// The pods to roll (`--strimzi` or `--pod-selector`).
    pub(super) pods: Option<PodSelector>,
    /// How nodes restart on plain hosts (`None` with pods, or a dry run without one).
    pub(super) method: Option<RestartMethod>,
    pub(super) config: RollConfig,
}

impl Spec {
    /// Resolves and checks the flags (`strimzi`: the global `--strimzi CLUSTER`).
    pub(super) fn resolve(args: &RollArgs, strimzi: Option<&str>) -> Result<Spec, CliError> {
        let desired = desired_config(args)?;
        let selection = Selection::from_args(args)?;
        if selection.is_none() && desired.is_empty() && pod_selector(&args.run, strimzi).is_none() {
            return Err(CliError::usage(
                "nothing selected: pass --all, --nodes IDS, --role broker|controller, \
                 --desired-config FILE or --set KEY=VALUE",
            ));
        }
        Spec::of(&args.run, strimzi, selection, desired, None)
    }

    /// `upgrade --to RELEASE`: the roll onto that release's software.
    pub(super) fn upgrade(
        args: &RollRunArgs,
        strimzi: Option<&str>,
        release: &str,
    ) -> Result<Spec, CliError> {
        let software = SoftwareTarget::of(release).map_err(CliError::usage)?;
        Spec::of(args, strimzi, None, BTreeMap::new(), Some(software))
    }

    fn of(
        args: &RollRunArgs,
        strimzi: Option<&str>,
        selection: Option<Selection>,
        desired: BTreeMap<String, String>,
        software: Option<SoftwareTarget>,
    ) -> Result<Spec, CliError> {
        let pods = pod_selector(args, strimzi);
        if pods.is_some()
            && (args.restart_command.is_some()
                || args.stop_command.is_some()
                || args.start_command.is_some())
        {
            return Err(CliError::usage(
                "--strimzi and --pod-selector restart pods by deleting them: drop \
                 --restart-command/--stop-command/--start-command",
            ));
        }
        if strimzi.is_some() && args.pod_selector.is_some() {
            return Err(CliError::usage(
                "--strimzi selects the cluster's pods itself: drop --pod-selector",
            ));
        }
        if args.max_batch_size == 0 {
            return Err(CliError::usage("--max-batch-size must be at least 1"));
        }
        let method = if pods.is_some() {
            None
        } else {
            restart_method(args)?
        };
        Ok(Spec {
            selection,
            desired,
            software,
            pods,
            method,
            config: limits(args).config(),
        })
    }
}

/// The roll's limits from the flags.
fn limits(args: &RollRunArgs) -> RollLimits {
    RollLimits {
        max_restart_attempts: args.max_restart_attempts,
        max_reconfig_attempts: args.max_reconfig_attempts,
        post_restart_timeout: args.post_restart_timeout,
        post_reconfigure_timeout: args.post_reconfigure_timeout,
        max_batch_size: args.max_batch_size,
        poll_interval: args.poll_interval,
        blocked_timeout: args.blocked_timeout,
        restore_preferred_leaders: !args.no_preferred_leader_election,
        include_unhealthy: args.include_unhealthy,
    }
}

/// The pods to roll, when the nodes are Kubernetes pods. With `--strimzi CLUSTER` (global), the
/// cluster's pods; without a selection (`--all`, `--nodes`, `--role`) the roll restarts the pods
/// Kubernetes gives a reason for: annotated `strimzi.io/manual-rolling-update=true`, stuck, or
/// on an old revision.
#[must_use]
pub fn pod_selector(args: &RollRunArgs, strimzi: Option<&str>) -> Option<PodSelector> {
    PodSelector::of(
        strimzi,
        args.pod_selector.as_ref(),
        args.node_id_label.as_ref(),
    )
}

/// The nodes the user picked by id or role (`None`: none picked that way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    All,
    Nodes(Vec<i32>),
    Role(RoleFilter),
}

impl Selection {
    pub(super) fn from_args(args: &RollArgs) -> Result<Option<Selection>, CliError> {
        Ok(match (&args.nodes, args.role, args.all) {
            (Some(_), Some(_), _) => {
                return Err(CliError::usage(
                    "--nodes and --role cannot be combined; pick one",
                ));
            }
            (_, _, true) => Some(Selection::All),
            (Some(ids), None, false) => Some(Selection::Nodes(ids.0.clone())),
            (None, Some(r), false) => Some(Selection::Role(r)),
            (None, None, false) => None,
        })
    }

    /// The application layer's selection.
    pub(super) fn resolved(&self) -> app::Selection {
        match self {
            Selection::All => app::Selection::All,
            Selection::Nodes(ids) => app::Selection::Nodes(ids.clone()),
            Selection::Role(RoleFilter::Broker) => app::Selection::Role(app::Role::Broker),
            Selection::Role(RoleFilter::Controller) => app::Selection::Role(app::Role::Controller),
        }
    }
}

/// The merged desired configuration: the file first, `--set` on top.
pub(super) fn desired_config(args: &RollArgs) -> Result<BTreeMap<String, String>, CliError> {
    let mut out = match &args.desired_config {
        None => BTreeMap::new(),
        Some(path) => read_properties(path)?,
    };
    for (k, v) in &args.set {
        out.insert(k.clone(), v.clone());
    }
    Ok(out)
}

fn read_properties(path: &Path) -> Result<BTreeMap<String, String>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::usage(format!(
            "cannot read the desired config {}: {e}",
            path.display()
        ))
    })?;
    parse_properties(&text)
        .map_err(|e| CliError::usage(format!("desired config {}: {e}", path.display())))
}

/// Parses a Java `.properties` file (Kafka's `server.properties` format: `key=value`,
/// `key: value` or `key value`, `#`/`!` comments, `\` escapes and line continuations) with the
/// `java-properties` crate; a key given twice keeps its last value, as Java does.
///
/// # Errors
/// A line the format does not allow, or an empty key.
pub fn parse_properties(text: &str) -> Result<BTreeMap<String, String>, String> {
    let map = java_properties::read(text.as_bytes()).map_err(|e| match e.line_number() {
        Some(n) => format!("line {n}: {e}"),
        None => e.to_string(),
    })?;
    if let Some(k) = map.keys().find(|k| k.trim().is_empty()) {
        return Err(format!("empty key {k:?}"));
    }
    Ok(map.into_iter().collect())
}

/// The exit code of a failed look at the cluster: the cluster or its platform unreadable as
/// classified, the flags not fitting the cluster (unknown node ids, a selection that names
/// nothing, a broker-state list missing a broker) a usage error.
pub(super) fn prepare_error(e: PrepareError) -> CliError {
    match e {
        PrepareError::Read(e) => CliError::from(e),
        e => CliError::usage(e),
    }
}

/// The engine's per-node requests ([`crate::app::roll::requests`]) as the roll makes them.
#[cfg(test)]
pub(super) fn requests(
    snapshot: &crate::engine::model::ClusterSnapshot,
    selection: Option<&Selection>,
    desired: &BTreeMap<String, String>,
) -> Result<BTreeMap<crate::engine::model::NodeId, crate::engine::roll::NodeRequest>, CliError> {
    let selection = selection.map(Selection::resolved);
    app::requests(snapshot, selection.as_ref(), desired).map_err(|e| prepare_error(e.into()))
}

/// The broker-state list check as the roll makes it.
#[cfg(test)]
pub(super) fn check_broker_state_list(
    setting: Option<&str>,
    observation: &crate::kafka::KafkaObservation,
) -> Result<(), CliError> {
    crate::app::roll::prepare::check_broker_state_list(setting, observation).map_err(prepare_error)
}

/// How nodes restart: one command, or a stop/start pair. Required unless `--dry-run`.
fn restart_method(args: &RollRunArgs) -> Result<Option<RestartMethod>, CliError> {
    match restart_method_of(
        args.restart_command.as_ref(),
        args.stop_command.as_ref(),
        args.start_command.as_ref(),
    )? {
        Some(m) => Ok(Some(m)),
        None if args.dry_run => Ok(None),
        None => Err(CliError::usage(
            "--restart-command TEMPLATE (or --stop-command and --start-command) is required to roll \
             (e.g. 'ssh {host} sudo systemctl restart kafka'; {id} and {host} are filled in); \
             --dry-run only prints the plan",
        )),
    }
}

/// The restart method of `--restart-command` or `--stop-command` + `--start-command`
/// (`None`: neither given; [`crate::app::roll::restart_method`]); an empty one is a usage error.
fn restart_method_of(
    restart: Option<&String>,
    stop: Option<&String>,
    start: Option<&String>,
) -> Result<Option<RestartMethod>, CliError> {
    app::restart_method(restart, stop, start).map_err(CliError::usage)
}

/// What the user asked for, as saved with the state: a re-run with the same request resumes.
pub(super) fn roll_request(
    args: &RollRunArgs,
    selection: Option<&Selection>,
    desired: &BTreeMap<String, String>,
    config: &RollConfig,
) -> serde_json::Value {
    let selection = selection.map(Selection::resolved);
    session::request_document(
        selection.as_ref(),
        desired,
        config,
        RestartCommands {
            restart: args.restart_command.as_deref(),
            stop: args.stop_command.as_deref(),
            start: args.start_command.as_deref(),
        },
    )
}

/// The saved run to resume (`None`: start a new one). A saved run of a different request is
/// a usage error naming the file and `--discard-state`.
pub(super) fn saved_run(
    args: &RollRunArgs,
    path: &Path,
    request: &serde_json::Value,
    quiet: bool,
) -> Result<Option<RollRun>, CliError> {
    let notes = super::render::StderrNotes { quiet };
    session::saved_run(path, request, args.discard_state, args.dry_run, &notes).map_err(|e| match e
    {
        ResumeError::Discard(e) => CliError::from(e),
        e => CliError::usage(e),
    })
}

/// The saved request of the roll `spec` asks (with the pods it rolls).
pub(super) fn request_of(args: &RollRunArgs, spec: &Spec) -> serde_json::Value {
    let mut request = roll_request(args, spec.selection.as_ref(), &spec.desired, &spec.config);
    if let Some(software) = &spec.software {
        request["upgrade_to"] = serde_json::json!(software.release);
    }
    if let Some(sel) = &spec.pods {
        request["pods"] = serde_json::json!(sel.labels);
    }
    request
}
