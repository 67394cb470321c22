//! `kafkaops roll`: a safe rolling restart or reconfiguration of a cluster's nodes.
//!
//! The shell around the roll engine: it resolves what the user asked for (which nodes, which
//! desired settings) into the engine's per-node requests, observes the cluster once to print
//! the plan (and to refuse up front when the plan is already blocked: the operator learns
//! which partition or quorum member is in the way before anything is touched), then runs
//! [`crate::driver`] with the Kafka adapter and the process platform as its IO. Progress goes
//! to stderr one line per change of a node's state (readable in CI logs as well as on a
//! terminal); the plan and the summary are the data on stdout (`--output json` puts both in
//! one document).
//!
//! What the IO adds to the Kafka observation:
//! - the platform's view of fenced brokers (TCP probe of the listener): a fenced broker that is
//!   alive reads `Unknown` (maybe in log recovery), a stopped one `NotRunning`;
//! - each node's `incarnation` from the [`RestartWitness`], which watches a connection to each
//!   node from just before its restart command runs: the engine counts a restart only once the
//!   old process is seen to end, even when the command returns early (`kill -TERM`).
//!
//! The selection is the set of keys of the engine's requests: every selected node is there,
//! and unhealthy nodes outside it are listed in the plan as not restarted unless
//! `--include-unhealthy`.
//!
//! Exit codes: 0 done; 1 refused by a safety check, aborted by the engine or a failed restart
//! command; 2 usage (unknown node ids, bad desired config, no restart command, a broker-state
//! list `ID=URL,...` without an entry for a broker); 3 a node did
//! not serve again in time (or a restart command timed out); 6 the cluster is unreachable;
//! 130 stopped by Ctrl-C between batches.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use serde::Serialize;

use super::Ctx;
use crate::cli::roll::{RoleFilter, RollArgs};
use crate::driver::{self, ActionRecord, DriverOptions, Event, Outcome, Progress, RollIo};
use crate::engine::model::{
    ClusterSnapshot, Millis, NodeId, NodeSnapshot, ObservedState, TopicPartition,
};
use crate::engine::roll::{
    ConfigChange, Decision, NodeRequest, NodeState, Plan, PlanStep, RollConfig, RollError, Roller,
};
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::client::{ClusterObserver, KafkaAdmin, KafkaClient, missing_broker_state_ids};
use crate::kafka::config::ConnectionConfig;
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::{RolesSource, apply_process_status};
use crate::kafka::{ConfigTarget, KafkaObservation};
use crate::output::{Printer, confirm};
use crate::platform::process::{ProcessPlatform, RestartMethod};
use crate::platform::witness::RestartWitness;
use crate::platform::{Platform, PlatformNode};

/// Runs `kafkaops roll`.
pub async fn run(ctx: &Ctx, args: RollArgs) -> Result<ExitCode, CliError> {
    let desired = desired_config(&args)?;
    let selection = Selection::from_args(&args)?;
    if selection.is_none() && desired.is_empty() {
        return Err(CliError::usage(
            "nothing selected: pass --all, --nodes IDS, --role broker|controller, \
             --desired-config FILE or --set KEY=VALUE",
        ));
    }
    if args.max_batch_size == 0 {
        return Err(CliError::usage("--max-batch-size must be at least 1"));
    }
    let restart_method = restart_method(&args)?;

    let timeout = ctx
        .global
        .connection
        .request_timeout
        .unwrap_or(Duration::from_secs(30));
    let config = ConnectionConfig::from_settings(&ctx.settings.kafka, timeout)?;
    let client = KafkaClient::connect(config)
        .await
        .context("cannot connect to the Kafka cluster")?;
    let mut observation = client
        .observe()
        .await
        .context("cannot observe the cluster")?;
    check_broker_state_list(client.config().broker_state_url.as_deref(), &observation)?;
    // Brokers that stop during the roll must stay in later observations.
    let client = client.with_known_brokers(
        observation
            .nodes
            .iter()
            .filter(|n| n.roles.broker)
            .map(|n| n.id)
            .collect(),
    );
    let platform = match &restart_method {
        Some(method) => ProcessPlatform::new(
            platform_nodes(&observation),
            method.clone(),
            args.command_timeout,
        ),
        None => ProcessPlatform::status_only(platform_nodes(&observation), args.command_timeout),
    };
    let status = process_status(&platform, &observation).await;
    apply_process_status(&mut observation, &status);
    let witness = RestartWitness::new(Duration::from_secs(5), witness_idle_limit(&observation));
    let mut snapshot = to_snapshot(&observation);
    set_incarnations(&mut snapshot, &platform, &witness);

    let requests = requests(&snapshot, selection.as_ref(), &desired)?;
    let plan_notes = observation_notes(&observation, &snapshot, &requests, args.include_unhealthy);
    let roll_config = RollConfig {
        max_restart_attempts: args.max_restart_attempts.max(1),
        max_reconfig_attempts: args.max_reconfig_attempts,
        post_restart_timeout_ms: millis(args.post_restart_timeout),
        post_reconfigure_timeout_ms: millis(args.post_reconfigure_timeout),
        max_batch_size: args.max_batch_size,
        poll_interval_ms: millis(args.poll_interval).max(100),
        blocked_timeout_ms: millis(args.blocked_timeout),
        restore_preferred_leaders: !args.no_preferred_leader_election,
        include_unhealthy: args.include_unhealthy,
    };
    let mut roller = Roller::new(roll_config.clone(), requests);
    let plan = roller.plan(&snapshot);
    let printer = &ctx.printer;
    let blocked = plan.steps.iter().find_map(|s| match s {
        PlanStep::Blocked { nodes, reason } => Some((nodes.clone(), reason.clone())),
        _ => None,
    });
    if printer.format == crate::output::OutputFormat::Table {
        crate::output::write_stdout(&render_plan(&plan, &snapshot, &plan_notes))?;
    }

    if args.dry_run {
        if printer.format != crate::output::OutputFormat::Table {
            printer.emit(
                &Document {
                    plan: &plan,
                    notes: &plan_notes,
                    dry_run: true,
                    result: None,
                },
                |_| String::new(),
            )?;
        }
        return Ok(ExitCode::Ok);
    }
    if let Some((nodes, reason)) = blocked {
        let result = ResultDoc::refused(&plan, &reason);
        emit_result(printer, &plan, &plan_notes, &result)?;
        let who = if nodes.is_empty() {
            String::new()
        } else {
            format!(" (node(s) {})", join(&nodes))
        };
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                format!("refusing to start the roll{who}: {reason}; nothing was changed"),
            ),
        ));
    }
    if plan.steps.is_empty() {
        let result = ResultDoc::nothing(&plan);
        emit_result(printer, &plan, &plan_notes, &result)?;
        return Ok(ExitCode::Ok);
    }
    let touched = plan.steps.len();
    confirm(
        &format!("Roll the cluster ({touched} step(s) above)"),
        ctx.global.yes,
        printer.interactive,
    )?;

    let recovery = Arc::new(Mutex::new(BTreeMap::new()));
    let io = KafkaIo {
        client,
        platform,
        recovery: Arc::clone(&recovery),
        witness: witness.clone(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stop_on_signal = Arc::clone(&stop);
    let quiet = printer.quiet;
    let signals = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stop_on_signal.store(true, Ordering::SeqCst);
            if !quiet {
                eprintln!(
                    "Ctrl-C: stopping after the current batch is back in service \
                     (Ctrl-C again to exit at once)"
                );
            }
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("second Ctrl-C: exiting now; a node being restarted may still be down");
                std::process::exit(ExitCode::Interrupted.code());
            }
        }
    });
    let mut progress = StderrProgress {
        quiet: printer.quiet,
        recovery,
        ..StderrProgress::default()
    };
    let options = DriverOptions {
        observe_retry_ms: roll_config.post_restart_timeout_ms.max(60_000),
        settle_after_restart_ms: roll_config.poll_interval_ms.max(3_000),
    };
    let report = driver::run(&mut roller, &io, &mut progress, &stop, &options).await;
    signals.abort();
    witness.stop();

    let all: Vec<NodeId> = snapshot.nodes.iter().map(|n| n.id).collect();
    let restarted = report.restarted();
    let reconfigured = report.reconfigured();
    let skipped: Vec<NodeId> = all
        .iter()
        .filter(|n| !restarted.contains(n) && !reconfigured.contains(n))
        .copied()
        .collect();
    let (status, code, error, notes): (&str, ExitCode, Option<CliError>, Vec<String>) =
        match report.outcome {
            Outcome::Done(summary) => ("done", ExitCode::Ok, None, summary.notes),
            Outcome::Aborted(reason) => {
                let code = match reason {
                    RollError::NotServingInTime { .. } => ExitCode::Timeout,
                    _ => ExitCode::Failed,
                };
                let msg = format!(
                    "roll aborted: {reason}; nothing else was restarted (restarted so far: {})",
                    join_or_none(&restarted)
                );
                (
                    "aborted",
                    code,
                    Some(CliError::new(code, CodedError::new(code, msg))),
                    Vec::new(),
                )
            }
            Outcome::Interrupted => {
                let msg = format!(
                    "roll stopped by Ctrl-C between batches; restarted: {}; not yet rolled: {}",
                    join_or_none(&restarted),
                    join_or_none(&skipped)
                );
                (
                    "interrupted",
                    ExitCode::Interrupted,
                    Some(CliError::new(
                        ExitCode::Interrupted,
                        CodedError::new(ExitCode::Interrupted, msg),
                    )),
                    Vec::new(),
                )
            }
            Outcome::RestartFailed { node, error } => {
                let err = CliError::from(error.context(format!(
                    "restarting node {node} failed; the roll stopped and restarted no further node"
                )));
                ("restart-failed", err.code, Some(err), Vec::new())
            }
            Outcome::ObserveFailed(error) => {
                let err = CliError::from(
                    error.context("the cluster could not be observed; the roll stopped"),
                );
                ("observe-failed", err.code, Some(err), Vec::new())
            }
        };
    let result = ResultDoc {
        status: status.to_string(),
        exit_code: code.code(),
        restarted,
        reconfigured,
        skipped,
        elapsed_ms: report.elapsed_ms,
        actions: report.actions,
        notes,
        error: error.as_ref().map(ToString::to_string),
    };
    emit_result(printer, &plan, &plan_notes, &result)?;
    match error {
        Some(e) => Err(e),
        None => Ok(code),
    }
}

/// A broker-state list (`ID=URL,...`) must cover every broker: a broker without an entry
/// would read UNKNOWN and be restarted, then waited for until the roll times out.
fn check_broker_state_list(
    setting: Option<&str>,
    observation: &KafkaObservation,
) -> Result<(), CliError> {
    let Some(setting) = setting else {
        return Ok(());
    };
    let brokers = observation
        .nodes
        .iter()
        .filter(|n| n.roles.broker)
        .map(|n| n.id);
    let missing = missing_broker_state_ids(setting, brokers);
    if missing.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = missing.iter().map(ToString::to_string).collect();
    Err(CliError::usage(format!(
        "the broker-state list ({}) has no URL for broker(s) {}; add an entry ID=URL for each \
         broker or use a template with {{host}} or {{id}}; nothing was changed",
        crate::kafka::config::BROKER_STATE_URL,
        ids.join(", ")
    )))
}

/// The nodes as the process platform knows them (from the observation: advertised host and
/// listener).
fn platform_nodes(observation: &KafkaObservation) -> Vec<PlatformNode> {
    observation
        .nodes
        .iter()
        .map(|n| PlatformNode {
            id: n.id,
            host: n.host.clone().unwrap_or_default(),
            address: n.host.as_ref().zip(n.port).map(|(h, p)| format!("{h}:{p}")),
        })
        .collect()
}

/// Asks the platform whether each fenced broker's process runs (a fenced broker may be
/// starting or in log recovery: alive, not to be restarted first).
async fn process_status(
    platform: &ProcessPlatform,
    observation: &KafkaObservation,
) -> BTreeMap<i32, Result<bool, String>> {
    let mut asks = tokio::task::JoinSet::new();
    for n in observation
        .nodes
        .iter()
        .filter(|n| n.roles.broker && n.fenced == Some(true))
    {
        let (platform, id) = (platform.clone(), n.id);
        asks.spawn(async move { (id, platform.is_running(id).await.map_err(|e| e.to_string())) });
    }
    let mut out = BTreeMap::new();
    while let Some(joined) = asks.join_next().await {
        if let Ok((id, r)) = joined {
            out.insert(id, r);
        }
    }
    out
}

/// How long a witness connection may stay silent before a close stops being evidence:
/// 90% of the lowest `connections.max.idle.ms` the brokers report (Kafka's default, 10
/// minutes, when none does): the broker closes idle connections itself after that long.
fn witness_idle_limit(observation: &KafkaObservation) -> Duration {
    let lowest = observation
        .broker_configs
        .values()
        .filter_map(|c| {
            c.iter()
                .find(|e| e.name == "connections.max.idle.ms")
                .and_then(|e| e.value.as_deref())
                .and_then(|v| v.trim().parse::<u64>().ok())
        })
        .min()
        .unwrap_or(600_000);
    Duration::from_millis(lowest / 10 * 9)
}

/// Each node's witness generation as its incarnation (nodes with a known listener).
fn set_incarnations(
    snapshot: &mut ClusterSnapshot,
    platform: &ProcessPlatform,
    witness: &RestartWitness,
) {
    for n in &mut snapshot.nodes {
        if platform.address(n.id.0).is_some() {
            n.incarnation = Some(witness.incarnation(n.id.0));
        }
    }
}

fn state_word(n: &NodeSnapshot) -> &'static str {
    match (n.state, n.reachable) {
        (ObservedState::NotRunning, _) => "not running",
        (ObservedState::NotReady, _) => "not ready",
        (ObservedState::Unknown, _) => "state unknown",
        (ObservedState::Recovering, _) => "recovering",
        (ObservedState::Serving, false) => "unreachable",
        (ObservedState::Serving, true) => "serving",
    }
}

/// What the plan should say about the observation itself: unhealthy nodes left alone,
/// roles that had to be inferred, replica ids that are no node.
fn observation_notes(
    observation: &KafkaObservation,
    snapshot: &ClusterSnapshot,
    requests: &BTreeMap<NodeId, NodeRequest>,
    include_unhealthy: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    if !include_unhealthy {
        for n in &snapshot.nodes {
            let unhealthy = !n.reachable
                || matches!(
                    n.state,
                    ObservedState::Unknown | ObservedState::NotRunning | ObservedState::NotReady
                );
            if unhealthy && !requests.contains_key(&n.id) {
                notes.push(format!(
                    "node {} ({}, {}): not restarted (outside the selection; \
                     --include-unhealthy)",
                    n.id,
                    n.roles,
                    state_word(n)
                ));
            }
        }
    }
    let mut inferred: BTreeMap<&str, Vec<NodeId>> = BTreeMap::new();
    for n in &observation.nodes {
        if let RolesSource::Inferred(why) = &n.roles_source {
            inferred.entry(why.as_str()).or_default().push(NodeId(n.id));
        }
    }
    for (why, ids) in inferred {
        notes.push(format!(
            "roles of node(s) {} inferred from the quorum and broker registrations ({why})",
            join(&ids)
        ));
    }
    let unread: Vec<&str> = observation
        .topics
        .iter()
        .filter(|t| !t.configs_read)
        .map(|t| t.name.as_str())
        .collect();
    if !unread.is_empty() {
        notes.push(format!(
            "the configs of topic(s) {} could not be read: their min.insync.replicas is \
             unknown, so no replica of them is restarted",
            unread.join(", ")
        ));
    }
    if !observation.unknown_replica_ids.is_empty() {
        let ids: Vec<NodeId> = observation
            .unknown_replica_ids
            .iter()
            .map(|i| NodeId(*i))
            .collect();
        notes.push(format!(
            "replica id(s) {} belong to no known node (not registered, not in the quorum): \
             never restarted; their replicas count as out of sync",
            join(&ids)
        ));
    }
    notes
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The nodes the user picked by id or role (`None`: none picked that way).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    All,
    Nodes(Vec<i32>),
    Role(RoleFilter),
}

impl Selection {
    fn from_args(args: &RollArgs) -> Result<Option<Selection>, CliError> {
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

    fn describe(&self) -> String {
        match self {
            Selection::All => "selected with --all".into(),
            Selection::Nodes(_) => "selected with --nodes".into(),
            Selection::Role(RoleFilter::Broker) => "selected with --role broker".into(),
            Selection::Role(RoleFilter::Controller) => "selected with --role controller".into(),
        }
    }
}

/// The merged desired configuration: the file first, `--set` on top.
fn desired_config(args: &RollArgs) -> Result<BTreeMap<String, String>, CliError> {
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

/// Parses the `.properties` subset Kafka's `server.properties` uses: `key=value` or
/// `key: value` lines, `#` and `!` comments, blank lines.
pub fn parse_properties(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let at = line
            .find(['=', ':'])
            .ok_or_else(|| format!("line {}: expected key=value, got {line:?}", i + 1))?;
        let (k, v) = (line[..at].trim(), line[at + 1..].trim());
        if k.is_empty() {
            return Err(format!("line {}: empty key", i + 1));
        }
        out.insert(k.to_string(), v.to_string());
    }
    Ok(out)
}

/// The engine's per-node requests: every selected node is a key (the engine's selection;
/// unhealthy nodes outside it are left alone unless `--include-unhealthy`). With a desired
/// configuration, the selection (if any) only narrows which nodes it applies to; without
/// one, the selected nodes restart. Desired settings apply to broker-role nodes (only their
/// configs can be described); selected controllers get an empty request.
pub fn requests(
    snapshot: &ClusterSnapshot,
    selection: Option<&Selection>,
    desired: &BTreeMap<String, String>,
) -> Result<BTreeMap<NodeId, NodeRequest>, CliError> {
    if let Some(Selection::Nodes(ids)) = selection {
        let unknown: Vec<String> = ids
            .iter()
            .filter(|id| snapshot.node(NodeId(**id)).is_none())
            .map(ToString::to_string)
            .collect();
        if !unknown.is_empty() {
            let known: Vec<String> = snapshot.nodes.iter().map(|n| n.id.to_string()).collect();
            return Err(CliError::usage(format!(
                "unknown node id(s) {}; the cluster has nodes {}; nothing was changed",
                unknown.join(", "),
                known.join(", ")
            )));
        }
    }
    let selected = |id: NodeId, broker: bool, controller: bool| match selection {
        None | Some(Selection::All) => true,
        Some(Selection::Nodes(ids)) => ids.contains(&id.0),
        Some(Selection::Role(RoleFilter::Broker)) => broker,
        Some(Selection::Role(RoleFilter::Controller)) => controller,
    };
    let mut out = BTreeMap::new();
    for n in &snapshot.nodes {
        if !selected(n.id, n.roles.broker, n.roles.controller) {
            continue;
        }
        let request = if desired.is_empty() {
            NodeRequest {
                restart_reasons: vec![
                    selection
                        .map(Selection::describe)
                        .unwrap_or_else(|| "selected".into()),
                ],
                desired_config: BTreeMap::new(),
            }
        } else if n.roles.broker {
            NodeRequest {
                restart_reasons: Vec::new(),
                desired_config: desired.clone(),
            }
        } else {
            // Selected, nothing to change: restarted only if unhealthy.
            NodeRequest::default()
        };
        out.insert(n.id, request);
    }
    if out
        .values()
        .all(|r| r.restart_reasons.is_empty() && r.desired_config.is_empty())
    {
        return Err(CliError::usage(
            "the selection matches no node (desired settings apply to broker-role nodes only); \
             nothing was changed",
        ));
    }
    Ok(out)
}

fn join(ids: &[NodeId]) -> String {
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_or_none(ids: &[NodeId]) -> String {
    if ids.is_empty() {
        "none".into()
    } else {
        join(ids)
    }
}

fn role_of(snapshot: &ClusterSnapshot, id: NodeId) -> String {
    snapshot
        .node(id)
        .map_or_else(|| "?".into(), |n| n.roles.to_string())
}

/// The plan as text: batches in order, the reason for each node, what would block.
#[must_use]
pub fn render_plan(plan: &Plan, snapshot: &ClusterSnapshot, notes: &[String]) -> String {
    let mut out = String::new();
    let reconfigs = plan
        .steps
        .iter()
        .filter(|s| matches!(s, PlanStep::Reconfigure { .. }))
        .count();
    out.push_str(&format!(
        "Plan: {} restart batch(es), {} reconfiguration(s), {} node(s) untouched\n",
        plan.restart_batches(),
        reconfigs,
        plan.untouched.len()
    ));
    let leader = snapshot.quorum.as_ref().and_then(|q| q.leader);
    for (i, step) in plan.steps.iter().enumerate() {
        let n = i + 1;
        match step {
            PlanStep::Restart { nodes, reason } => {
                out.push_str(&format!("{n:>3}. restart\n"));
                for r in nodes {
                    let active = if Some(r.node) == leader {
                        ", active controller"
                    } else {
                        ""
                    };
                    out.push_str(&format!(
                        "       node {} ({}{active}): {}\n",
                        r.node,
                        role_of(snapshot, r.node),
                        r.reason
                    ));
                }
                out.push_str(&format!("       why now: {reason}\n"));
            }
            PlanStep::Reconfigure {
                node,
                changes,
                reason,
            } => {
                out.push_str(&format!("{n:>3}. reconfigure node {node} (no restart)\n"));
                for c in changes {
                    out.push_str(&format!(
                        "       {}: {} -> {}\n",
                        c.key,
                        c.from.as_deref().unwrap_or("(unset)"),
                        c.to
                    ));
                }
                out.push_str(&format!("       why: {reason}\n"));
            }
            PlanStep::Blocked { nodes, reason } => {
                out.push_str(&format!(
                    "{n:>3}. BLOCKED{}: {reason}\n",
                    if nodes.is_empty() {
                        String::new()
                    } else {
                        format!(" (node(s) {})", join(nodes))
                    }
                ));
            }
        }
    }
    if plan.steps.is_empty() {
        out.push_str("  nothing to do: every selected node already runs as desired\n");
    }
    if !plan.untouched.is_empty() {
        out.push_str(&format!("Untouched: {}\n", join(&plan.untouched)));
    }
    for n in notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}

/// `--output json|yaml`: the plan and the result in one document.
#[derive(Serialize)]
struct Document<'a> {
    plan: &'a Plan,
    /// What the plan says about the observation (unhealthy nodes left alone, inferred roles).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    dry_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<&'a ResultDoc>,
}

/// How the roll ended, for people and scripts.
#[derive(Debug, Serialize)]
pub struct ResultDoc {
    /// done, nothing-to-do, refused, aborted, interrupted, restart-failed, observe-failed.
    pub status: String,
    pub exit_code: i32,
    pub restarted: Vec<NodeId>,
    pub reconfigured: Vec<NodeId>,
    pub skipped: Vec<NodeId>,
    pub elapsed_ms: u64,
    pub actions: Vec<ActionRecord>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ResultDoc {
    fn refused(plan: &Plan, reason: &str) -> ResultDoc {
        ResultDoc {
            status: "refused".into(),
            exit_code: ExitCode::Failed.code(),
            restarted: Vec::new(),
            reconfigured: Vec::new(),
            skipped: planned_nodes(plan),
            elapsed_ms: 0,
            actions: Vec::new(),
            notes: Vec::new(),
            error: Some(reason.to_string()),
        }
    }

    fn nothing(plan: &Plan) -> ResultDoc {
        ResultDoc {
            status: "nothing-to-do".into(),
            exit_code: 0,
            restarted: Vec::new(),
            reconfigured: Vec::new(),
            skipped: plan.untouched.clone(),
            elapsed_ms: 0,
            actions: Vec::new(),
            notes: Vec::new(),
            error: None,
        }
    }
}

fn planned_nodes(plan: &Plan) -> Vec<NodeId> {
    let mut ids: BTreeSet<NodeId> = plan.untouched.iter().copied().collect();
    for s in &plan.steps {
        match s {
            PlanStep::Restart { nodes, .. } => ids.extend(nodes.iter().map(|n| n.node)),
            PlanStep::Reconfigure { node, .. } => {
                ids.insert(*node);
            }
            PlanStep::Blocked { nodes, .. } => ids.extend(nodes.iter().copied()),
        }
    }
    ids.into_iter().collect()
}

fn emit_result(
    printer: &Printer,
    plan: &Plan,
    notes: &[String],
    result: &ResultDoc,
) -> anyhow::Result<()> {
    printer.emit(
        &Document {
            plan,
            notes,
            dry_run: false,
            result: Some(result),
        },
        |d| render_summary(d.result.expect("set")),
    )
}

fn render_summary(r: &ResultDoc) -> String {
    let secs = r.elapsed_ms / 1000;
    let mut out = format!(
        "Summary: {}\n  restarted:    {}\n  reconfigured: {}\n  skipped:      {}\n  time taken:   \
         {}m {:02}s\n",
        r.status,
        join_or_none(&r.restarted),
        join_or_none(&r.reconfigured),
        join_or_none(&r.skipped),
        secs / 60,
        secs % 60
    );
    for n in &r.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out
}

/// The roll's IO over the Kafka adapter and the process platform.
struct KafkaIo {
    client: KafkaClient,
    platform: ProcessPlatform,
    /// Logs left to recover per node, from the broker-state endpoint (for progress).
    recovery: Arc<Mutex<BTreeMap<i32, i64>>>,
    /// Sees each restarted node's old process end (its generation is the incarnation).
    witness: RestartWitness,
}

impl KafkaIo {
    /// The witness's evidence since the last call: nodes whose old process ended, with the
    /// time (fed to the engine through `RollIo::process_ended`). Observations carry the same
    /// evidence as a changed `incarnation`.
    fn witness_evidence(&self) -> Vec<(NodeId, Millis)> {
        self.witness
            .take_ended()
            .into_iter()
            .map(|e| (NodeId(e.node), Millis(e.at_ms)))
            .collect()
    }

    fn note_recovery(&self, o: &KafkaObservation) {
        let mut r = self.recovery.lock().unwrap_or_else(|e| e.into_inner());
        r.clear();
        for n in &o.nodes {
            if let Some(p) = &n.recovery {
                r.insert(n.id, p.remaining_logs);
            }
        }
    }
}

impl RollIo for KafkaIo {
    async fn observe(&self) -> anyhow::Result<ClusterSnapshot> {
        let mut o = self.client.observe().await?;
        let status = process_status(&self.platform, &o).await;
        apply_process_status(&mut o, &status);
        self.note_recovery(&o);
        let mut s = to_snapshot(&o);
        set_incarnations(&mut s, &self.platform, &self.witness);
        Ok(s)
    }

    async fn restart(&self, nodes: &[NodeId]) -> Vec<(NodeId, anyhow::Result<()>)> {
        let mut tasks = tokio::task::JoinSet::new();
        for (i, n) in nodes.iter().enumerate() {
            let platform = self.platform.clone();
            let witness = self.witness.clone();
            let id = n.0;
            tasks.spawn(async move {
                // Watch the running process just before the command that replaces it.
                if let Some(address) = platform.address(id) {
                    witness.watch(id, address).await;
                }
                (i, platform.restart_node(id).await)
            });
        }
        let mut results: Vec<Option<anyhow::Result<()>>> = nodes.iter().map(|_| None).collect();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok((i, r)) => results[i] = Some(r.map_err(anyhow::Error::from)),
                Err(e) => tracing::error!("restart task failed: {e}"),
            }
        }
        nodes
            .iter()
            .zip(results)
            .map(|(n, r)| {
                (
                    *n,
                    r.unwrap_or_else(|| {
                        Err(anyhow::anyhow!("the restart task of node {n} failed"))
                    }),
                )
            })
            .collect()
    }

    async fn reconfigure(&self, node: NodeId, changes: &[ConfigChange]) -> anyhow::Result<()> {
        let changes = changes
            .iter()
            .map(|c| crate::kafka::ConfigChange::set(c.key.clone(), c.to.clone()))
            .collect();
        self.client
            .incremental_alter_configs(ConfigTarget::Broker(node.0), changes)
            .await
            .with_context(|| format!("IncrementalAlterConfigs on node {node}"))
    }

    async fn elect_preferred_leaders(&self, partitions: &[TopicPartition]) -> anyhow::Result<()> {
        let list = partitions
            .iter()
            .map(|p| (p.topic.clone(), p.partition))
            .collect();
        let outcomes = self.client.elect_preferred_leaders(Some(list)).await?;
        let failed: Vec<String> = outcomes
            .iter()
            .filter_map(|o| {
                o.error
                    .as_ref()
                    .map(|(code, msg)| format!("{}-{}: {msg} ({code})", o.topic, o.partition))
            })
            .collect();
        if failed.is_empty() {
            Ok(())
        } else {
            anyhow::bail!("preferred leader election failed for {}", failed.join(", "))
        }
    }

    fn now(&self) -> Millis {
        Millis(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        )
    }

    async fn sleep_until(&self, until: Millis) {
        let ms = until.since(self.now());
        if ms > 0 {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
    }

    fn process_ended(&self) -> Vec<(NodeId, Millis)> {
        self.witness_evidence()
    }
}

/// Progress on stderr: one line per action and per change of an acted-on node's state.
#[derive(Default)]
struct StderrProgress {
    quiet: bool,
    recovery: Arc<Mutex<BTreeMap<i32, i64>>>,
    /// Nodes of the current action.
    current: Vec<NodeId>,
    last_status: BTreeMap<NodeId, String>,
    last_wait: Option<String>,
    started: Option<Millis>,
}

impl StderrProgress {
    fn say(&self, msg: &str) {
        if !self.quiet {
            eprintln!("{msg}");
        }
    }

    fn stamp(&self, at: Millis) -> String {
        let s = self.started.map_or(0, |t| at.since(t)) / 1000;
        format!("[{:>2}:{:02}]", s / 60, s % 60)
    }

    fn status(&self, snapshot: &ClusterSnapshot, roller: &Roller, id: NodeId) -> String {
        let Some(ctx) = roller.contexts().get(&id) else {
            return "unknown".into();
        };
        match ctx.state {
            NodeState::Restarted | NodeState::NotRunning | NodeState::Unknown => {
                "restarting".into()
            }
            NodeState::NotReady => "starting".into(),
            NodeState::Recovering => {
                let logs = self
                    .recovery
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&id.0)
                    .copied();
                match logs {
                    Some(n) => format!("recovering {n} logs"),
                    None => "recovering logs".into(),
                }
            }
            NodeState::Reconfigured => "reconfigured, waiting to serve".into(),
            NodeState::Serving => {
                let behind = snapshot
                    .partitions
                    .iter()
                    .filter(|p| p.replicas.contains(&id) && !p.isr.contains(&id))
                    .count();
                if behind > 0 {
                    format!("catching up ISR ({behind} partition(s) behind)")
                } else {
                    "in sync, waiting to lead its preferred partitions".into()
                }
            }
            NodeState::LeadingAllPreferred => {
                if ctx.roles.broker {
                    "serving, leading preferred".into()
                } else {
                    "serving".into()
                }
            }
        }
    }
}

impl Progress for StderrProgress {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Observed {
                snapshot,
                roller,
                at,
            } => {
                self.started.get_or_insert(*at);
                for id in self.current.clone() {
                    let status = self.status(snapshot, roller, id);
                    if self.last_status.get(&id) != Some(&status) {
                        self.say(&format!("{}   node {id}: {status}", self.stamp(*at)));
                        self.last_status.insert(id, status);
                    }
                }
            }
            Event::Decided(d) => match d {
                Decision::Restart { nodes, reason } => {
                    self.current = nodes.iter().map(|n| n.node).collect();
                    self.last_status.clear();
                    self.last_wait = None;
                    self.say(&format!(
                        "==> restarting node(s) {}: {reason}",
                        join(&self.current)
                    ));
                }
                Decision::Reconfigure {
                    node,
                    changes,
                    reason,
                } => {
                    self.current = vec![*node];
                    self.last_status.clear();
                    self.last_wait = None;
                    let keys: Vec<String> = changes
                        .iter()
                        .map(|c| format!("{}={}", c.key, c.to))
                        .collect();
                    self.say(&format!(
                        "==> reconfiguring node {node} ({}): {reason}",
                        keys.join(", ")
                    ));
                }
                Decision::ElectPreferredLeaders {
                    nodes, partitions, ..
                } => {
                    self.say(&format!(
                        "    electing preferred leaders for {} partition(s) of node(s) {}",
                        partitions.len(),
                        join(nodes)
                    ));
                }
                Decision::Wait { for_what, .. } => {
                    if for_what.starts_with("blocked")
                        && self.last_wait.as_deref() != Some(for_what)
                    {
                        self.say(&format!("    waiting: {for_what}"));
                        self.last_wait = Some(for_what.clone());
                    }
                }
                Decision::Done { .. } | Decision::Abort { .. } => {}
            },
            Event::ObserveRetry { error, retry_until } => {
                tracing::debug!("observation failed (retrying until {retry_until}): {error:#}");
                self.say(&format!("    observation failed, retrying: {error:#}"));
            }
            Event::ActionFailed { what, error } => {
                self.say(&format!("    {what} failed: {error:#}"));
            }
            Event::StopRequested => {
                self.say("    stop requested: finishing the current batch");
            }
        }
    }
}

/// How nodes restart: one command, or a stop/start pair. Required unless `--dry-run`.
fn restart_method(args: &RollArgs) -> Result<Option<RestartMethod>, CliError> {
    let nonempty = |flag: &str, c: &String| {
        if c.trim().is_empty() {
            Err(CliError::usage(format!("{flag} is empty")))
        } else {
            Ok(c.clone())
        }
    };
    match (
        &args.restart_command,
        &args.stop_command,
        &args.start_command,
    ) {
        (Some(c), _, _) => Ok(Some(RestartMethod::Restart(nonempty(
            "--restart-command",
            c,
        )?))),
        (None, Some(stop), Some(start)) => Ok(Some(RestartMethod::StopStart {
            stop: nonempty("--stop-command", stop)?,
            start: nonempty("--start-command", start)?,
        })),
        _ if args.dry_run => Ok(None),
        _ => Err(CliError::usage(
            "--restart-command TEMPLATE (or --stop-command and --start-command) is required to roll \
             (e.g. 'ssh {host} sudo systemctl restart kafka'; {id} and {host} are filled in); \
             --dry-run only prints the plan",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::{NodeRoles, NodeSnapshot, ObservedState};

    fn snapshot() -> ClusterSnapshot {
        let node = |id: i32, roles: NodeRoles| NodeSnapshot {
            id: NodeId(id),
            roles,
            state: ObservedState::Serving,
            reachable: true,
            rack: None,
            config: BTreeMap::new(),
            incarnation: None,
        };
        ClusterSnapshot {
            nodes: vec![
                node(1, NodeRoles::BROKER),
                node(2, NodeRoles::BROKER),
                node(101, NodeRoles::CONTROLLER),
            ],
            ..ClusterSnapshot::default()
        }
    }

    #[test]
    fn properties_files() {
        let p = parse_properties(
            "# comment\n! also\n\nlog.cleaner.threads=2\nnum.io.threads : 4\nempty=\n",
        )
        .unwrap();
        assert_eq!(p["log.cleaner.threads"], "2");
        assert_eq!(p["num.io.threads"], "4");
        assert_eq!(p["empty"], "");
        let err = parse_properties("a=1\nno separator\n").unwrap_err();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn selection_by_ids_roles_and_desired_config() {
        let s = snapshot();
        let none = BTreeMap::new();
        let r = requests(&s, Some(&Selection::All), &none).unwrap();
        assert_eq!(r.len(), 3);
        assert!(r.values().all(|q| !q.restart_reasons.is_empty()));
        let r = requests(&s, Some(&Selection::Role(RoleFilter::Controller)), &none).unwrap();
        assert_eq!(r.keys().copied().collect::<Vec<_>>(), vec![NodeId(101)]);
        let r = requests(&s, Some(&Selection::Nodes(vec![2])), &none).unwrap();
        assert_eq!(r.keys().copied().collect::<Vec<_>>(), vec![NodeId(2)]);
        let err = requests(&s, Some(&Selection::Nodes(vec![2, 9])), &none).unwrap_err();
        assert_eq!(err.code, ExitCode::Usage);
        assert!(err.to_string().contains("unknown node id(s) 9"), "{err}");
        // Desired settings: broker-role nodes, no forced restart; the controller is selected
        // too (an empty request: restarted only if unhealthy).
        let desired = BTreeMap::from([("log.cleaner.threads".to_string(), "2".to_string())]);
        let r = requests(&s, None, &desired).unwrap();
        assert_eq!(
            r.keys().copied().collect::<Vec<_>>(),
            vec![NodeId(1), NodeId(2), NodeId(101)]
        );
        assert!(r.values().all(|q| q.restart_reasons.is_empty()));
        assert!(r[&NodeId(101)].desired_config.is_empty());
        assert_eq!(r[&NodeId(1)].desired_config, desired);
        let err =
            requests(&s, Some(&Selection::Role(RoleFilter::Controller)), &desired).unwrap_err();
        assert_eq!(err.code, ExitCode::Usage);
    }

    #[test]
    #[allow(clippy::needless_update)]
    fn plan_text_names_nodes_reasons_and_blocks() {
        let s = snapshot();
        let plan = Plan {
            steps: vec![
                PlanStep::Restart {
                    nodes: vec![crate::engine::roll::NodeReason {
                        node: NodeId(1),
                        reason: "selected with --all".into(),
                    }],
                    reason: "brokers share no partition".into(),
                },
                PlanStep::Blocked {
                    nodes: vec![NodeId(2)],
                    reason: "restarting node 2 would take t-0 below min.insync.replicas".into(),
                },
            ],
            untouched: vec![NodeId(101)],
            // ENGINE's Plan has more fields (unselected_unhealthy).
            ..Plan::default()
        };
        let text = render_plan(&plan, &s, &["roles of node(s) 101 inferred (why)".into()]);
        assert!(
            text.contains("node 1 (broker): selected with --all"),
            "{text}"
        );
        assert!(text.contains("BLOCKED (node(s) 2)"), "{text}");
        assert!(text.contains("Untouched: 101"), "{text}");
        assert!(
            text.contains("Note: roles of node(s) 101 inferred (why)"),
            "{text}"
        );
    }

    #[test]
    #[allow(clippy::needless_update)]
    fn json_document_shape_is_stable() {
        let plan = Plan {
            steps: vec![PlanStep::Restart {
                nodes: vec![crate::engine::roll::NodeReason {
                    node: NodeId(1),
                    reason: "selected with --all".into(),
                }],
                reason: "why now".into(),
            }],
            untouched: vec![NodeId(2)],
            // ENGINE's Plan has more fields (unselected_unhealthy).
            ..Plan::default()
        };
        let result = ResultDoc {
            status: "done".into(),
            exit_code: 0,
            restarted: vec![NodeId(1)],
            reconfigured: Vec::new(),
            skipped: vec![NodeId(2)],
            elapsed_ms: 1234,
            actions: vec![ActionRecord::Restart {
                nodes: vec![NodeId(1)],
                at_ms: 0,
                error: None,
            }],
            notes: Vec::new(),
            error: None,
        };
        let doc = Document {
            plan: &plan,
            notes: &[],
            dry_run: false,
            result: Some(&result),
        };
        assert_eq!(
            serde_json::to_value(&doc).unwrap(),
            serde_json::json!({
                "plan": {
                    "steps": [{
                        "action": "restart",
                        "nodes": [{"node": 1, "reason": "selected with --all"}],
                        "reason": "why now"
                    }],
                    "untouched": [2]
                },
                "dry_run": false,
                "result": {
                    "status": "done",
                    "exit_code": 0,
                    "restarted": [1],
                    "reconfigured": [],
                    "skipped": [2],
                    "elapsed_ms": 1234,
                    "actions": [{"action": "restart", "nodes": [1], "at_ms": 0}]
                }
            })
        );
    }

    fn observation_of(snapshot: &ClusterSnapshot) -> KafkaObservation {
        use crate::kafka::observation::{
            BrokerStateSource, FencingSource, FetchTimeoutSource, NodeObservation,
            QuorumObservation, Roles,
        };
        KafkaObservation {
            cluster_id: None,
            nodes: snapshot
                .nodes
                .iter()
                .map(|n| NodeObservation {
                    id: n.id.0,
                    host: Some(format!("k{}", n.id)),
                    port: Some(9092),
                    rack: None,
                    roles: Roles {
                        controller: n.roles.controller,
                        broker: n.roles.broker,
                    },
                    roles_source: RolesSource::ProcessRoles,
                    fenced: None,
                    in_sync: None,
                    broker_state: None,
                    recovery: None,
                    broker_state_error: None,
                    process_running: None,
                    process_status_error: None,
                })
                .collect(),
            topics: vec![],
            broker_configs: BTreeMap::new(),
            unreachable_brokers: BTreeMap::new(),
            quorum: QuorumObservation {
                leader_id: Some(101),
                leader_epoch: 1,
                high_watermark: 1,
                voters: vec![],
                observers: vec![],
                fetch_timeout_ms: 2000,
                fetch_timeout_source: FetchTimeoutSource::ActiveController(101),
                answered_by: "x".into(),
            },
            reassignments: vec![],
            broker_state_source: BrokerStateSource::InferredFromFencing,
            fencing_source: FencingSource::Reported,
            metadata_from: vec![1],
            unknown_replica_ids: vec![],
        }
    }

    #[test]
    fn a_broker_state_list_missing_a_broker_is_a_usage_error() {
        let o = observation_of(&snapshot());
        let err = check_broker_state_list(Some("1=http://a:1/x"), &o).unwrap_err();
        assert_eq!(err.code, ExitCode::Usage);
        assert!(err.to_string().contains("broker(s) 2"), "{err}");
        assert!(
            !err.to_string().contains("101"),
            "controllers need no entry: {err}"
        );
        assert!(check_broker_state_list(Some("1=http://a/x,2=http://b/x"), &o).is_ok());
        assert!(check_broker_state_list(Some("http://{host}:8080/state"), &o).is_ok());
        assert!(check_broker_state_list(None, &o).is_ok());
    }

    #[test]
    fn unhealthy_nodes_outside_the_selection_are_reported_not_restarted() {
        let mut s = snapshot();
        s.nodes[1].state = ObservedState::NotRunning;
        s.nodes[1].reachable = false;
        s.nodes[2].state = ObservedState::NotReady;
        let mut o = observation_of(&s);
        o.nodes[2].roles_source = RolesSource::Inferred("no bootstrap.controllers".into());
        o.unknown_replica_ids = vec![9];
        let r = requests(&s, Some(&Selection::Nodes(vec![1])), &BTreeMap::new()).unwrap();
        let notes = observation_notes(&o, &s, &r, false);
        let text = render_plan(&Plan::default(), &s, &notes);
        assert!(
            text.contains(
                "node 2 (broker, not running): not restarted (outside the selection; \
                 --include-unhealthy)"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "node 101 (controller, not ready): not restarted (outside the selection; \
                 --include-unhealthy)"
            ),
            "{text}"
        );
        assert!(
            text.contains("roles of node(s) 101 inferred") && text.contains("bootstrap"),
            "{text}"
        );
        assert!(
            text.contains("replica id(s) 9 belong to no known node"),
            "{text}"
        );
        o.topics.push(crate::kafka::observation::TopicObservation {
            name: "secret".into(),
            internal: false,
            min_insync_replicas: None,
            configs_read: false,
            partitions: vec![],
        });
        let notes = observation_notes(&o, &s, &r, false);
        assert!(
            notes
                .iter()
                .any(|n| n.contains("topic(s) secret could not be read")),
            "{notes:?}"
        );
        // Asked to include them: no such note.
        let notes = observation_notes(&o, &s, &r, true);
        assert!(!notes.iter().any(|n| n.contains("outside the selection")));
        // A selected unhealthy node is not "outside the selection".
        let r = requests(&s, Some(&Selection::Nodes(vec![2])), &BTreeMap::new()).unwrap();
        let notes = observation_notes(&o, &s, &r, false);
        assert!(!notes.iter().any(|n| n.starts_with("node 2 ")), "{notes:?}");
    }

    #[test]
    fn the_witness_idle_limit_follows_the_brokers_idle_timeout() {
        let mut o = observation_of(&snapshot());
        assert_eq!(witness_idle_limit(&o), Duration::from_secs(540));
        let entry = |v: &str| crate::kafka::observation::ConfigEntry {
            name: "connections.max.idle.ms".into(),
            value: Some(v.into()),
            read_only: true,
            source: crate::kafka::observation::ConfigSource::StaticBroker,
            sensitive: false,
        };
        o.broker_configs.insert(1, vec![entry("60000")]);
        o.broker_configs.insert(2, vec![entry("600000")]);
        assert_eq!(witness_idle_limit(&o), Duration::from_secs(54));
    }

    #[test]
    fn incarnations_come_from_the_witness_for_nodes_with_a_listener() {
        let s0 = snapshot();
        let mut o = observation_of(&s0);
        o.nodes[1].port = None;
        let platform = ProcessPlatform::status_only(platform_nodes(&o), Duration::from_secs(1));
        let witness = RestartWitness::default();
        let mut s = s0.clone();
        set_incarnations(&mut s, &platform, &witness);
        assert_eq!(s.nodes[0].incarnation.as_deref(), Some("witness-0"));
        assert_eq!(s.nodes[1].incarnation, None, "no listener known");
    }

    #[tokio::test]
    async fn fenced_brokers_are_probed_and_alive_ones_read_unknown() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let alive = listener.local_addr().unwrap();
        let gone = {
            let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            l.local_addr().unwrap()
        };
        let mut o = observation_of(&snapshot());
        for (n, addr) in o.nodes.iter_mut().take(2).zip([alive, gone]) {
            n.host = Some(addr.ip().to_string());
            n.port = Some(addr.port());
            n.fenced = Some(true);
            n.broker_state = Some(crate::kafka::observation::BrokerState::NotRunning);
        }
        let platform = ProcessPlatform::status_only(platform_nodes(&o), Duration::from_secs(5));
        let status = process_status(&platform, &o).await;
        assert_eq!(status.len(), 2, "only fenced brokers are probed");
        apply_process_status(&mut o, &status);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(1)).unwrap().state, ObservedState::Unknown);
        assert_eq!(s.node(NodeId(2)).unwrap().state, ObservedState::NotRunning);
    }
}
