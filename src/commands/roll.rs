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
//! The IO (Kafka adapter + platform, generic over [`crate::platform::Platform`]) is
//! [`crate::driver::kafka_io::KafkaRollIo`]; this command only builds it, loops
//! [`crate::driver::step`] and saves the run's state after every step (see [`crate::state`]):
//! re-running the same roll after Ctrl-C, a crash or a lost terminal resumes it, and a roll
//! for a different request is refused (exit 2) until the saved one is finished or discarded
//! with `--discard-state`. A finished or aborted roll deletes its state; an interrupted one
//! keeps it.
//!
//! The selection is the set of keys of the engine's requests: every selected node is there,
//! and unhealthy nodes outside it are listed in the plan as not restarted unless
//! `--include-unhealthy`.
//!
//! Before the plan it asks Cruise Control (when configured or found) whether it executes: no
//! node restarts during an execution, and reassignments no execution owns are named (see
//! `roll/movers.rs`).
//!
//! Exit codes: 0 done; 1 refused by a safety check, aborted by the engine or a failed restart
//! command; 2 usage (unknown node ids, bad desired config, no restart command, a broker-state
//! list `ID=URL,...` without an entry for a broker); 3 a node did
//! not serve again in time (or a restart command timed out); 5 Cruise Control executes (a new
//! roll refuses; a running one aborts when it has waited `--blocked-timeout`), or `--strict`
//! with reassignments Cruise Control did not start; 6 the cluster, or Cruise Control, is
//! unreachable; 130 stopped by Ctrl-C between batches.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use serde::Serialize;

use super::Ctx;
use crate::cli::roll::{RoleFilter, RollArgs};
use crate::driver::kafka_io::{KafkaRollIo, process_status, set_incarnations, witness_idle_limit};
use crate::driver::{
    self, ActionRecord, DriverOptions, Event, Outcome, Progress, RollIo, RunReport,
};
use crate::engine::model::{ClusterSnapshot, Millis, NodeId, NodeSnapshot, ObservedState};
use crate::engine::operator_guard::Action;
use crate::engine::roll::{Decision, NodeRequest, NodeState, Plan, PlanStep, RollConfig, Roller};
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::KafkaObservation;
use crate::kafka::client::{ClusterObserver, missing_broker_state_ids};
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::{RolesSource, apply_process_status};
use crate::output::{Printer, confirm};
use crate::platform::kube::KubePlatform;
use crate::platform::process::{ProcessPlatform, RestartMethod};
use crate::platform::witness::RestartWitness;
use crate::platform::{AnyPlatform, Platform, PlatformNode};

/// How long a roll's Kubernetes lease lives without renewal (renewed every third of it).
pub(crate) const LEASE_DURATION: Duration = Duration::from_secs(30);

mod movers;
mod render;

pub(crate) use render::StderrProgress;
#[cfg(test)]
use render::render_summary;
use render::{Document, emit_result};
pub use render::{ResultDoc, render_plan};

/// The pods to roll, when the nodes are Kubernetes pods. With `--strimzi CLUSTER` (global), the
/// cluster's pods; without a selection (`--all`, `--nodes`, `--role`) the roll restarts the pods
/// Kubernetes gives a reason for: annotated `strimzi.io/manual-rolling-update=true`, stuck, or
/// on an old revision.
#[must_use]
pub fn pod_selector(
    args: &RollArgs,
    strimzi: Option<&str>,
) -> Option<crate::platform::kube::PodSelector> {
    use crate::platform::kube::{NodeIdRule, PodSelector};
    if let Some(c) = strimzi {
        return Some(PodSelector::strimzi(c));
    }
    args.pod_selector.as_ref().map(|labels| PodSelector {
        labels: labels.clone(),
        id_rule: args
            .node_id_label
            .clone()
            .map_or(NodeIdRule::NameSuffix, NodeIdRule::Label),
        strimzi_cluster: None,
    })
}

/// Runs `kafkaops roll`.
pub async fn run(ctx: &Ctx, args: RollArgs) -> Result<ExitCode, CliError> {
    let desired = desired_config(&args)?;
    let selection = Selection::from_args(&args)?;
    let pod_selector = pod_selector(&args, ctx.global.kube.strimzi.as_deref());
    if pod_selector.is_some()
        && (args.restart_command.is_some()
            || args.stop_command.is_some()
            || args.start_command.is_some())
    {
        return Err(CliError::usage(
            "--strimzi and --pod-selector restart pods by deleting them: drop \
             --restart-command/--stop-command/--start-command",
        ));
    }
    if ctx.global.kube.strimzi.is_some() && args.pod_selector.is_some() {
        return Err(CliError::usage(
            "--strimzi selects the cluster's pods itself: drop --pod-selector",
        ));
    }
    if selection.is_none() && desired.is_empty() && pod_selector.is_none() {
        return Err(CliError::usage(
            "nothing selected: pass --all, --nodes IDS, --role broker|controller, \
             --desired-config FILE or --set KEY=VALUE",
        ));
    }
    if args.max_batch_size == 0 {
        return Err(CliError::usage("--max-batch-size must be at least 1"));
    }
    let restart_method = if pod_selector.is_some() {
        None
    } else {
        restart_method(&args)?
    };
    // A Strimzi operator that is not paused, or its KafkaRebalance executing, would race the
    // roll: refused before anything is touched (a dry run only warns).
    let action = if args.dry_run {
        Action::DryRun
    } else {
        Action::Roll
    };
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, args.force, &ctx.printer)
        .await?;
    // Kubernetes (the bootstrap address of a Strimzi cluster is already in the settings).
    let kube = match &pod_selector {
        Some(_) => Some(
            super::kube_target(&ctx.global.kube)
                .connect()
                .await
                .map_err(anyhow::Error::from)?,
        ),
        None => None,
    };

    // One roll per cluster (Kubernetes): the lease is taken before the cluster is looked at
    // (a second roll says who holds it instead of judging, or failing to observe, a cluster the
    // first one is rolling), held and renewed until the roll ends, and released on every way out.
    let lease = match (&kube, &pod_selector) {
        (Some(conn), Some(sel)) if !args.dry_run => Some(
            KubePlatform::new(conn.clone(), sel.clone(), args.command_timeout)
                .take_lease(LEASE_DURATION)
                .await
                .map_err(anyhow::Error::from)?,
        ),
        _ => None,
    };
    let result: Result<ExitCode, CliError> = async {
    let timeout = ctx.request_timeout();
    let client = crate::app::clients::kafka(
        &ctx.settings.kafka,
        timeout,
        Some("cannot connect to the Kafka cluster"),
    )
    .await?;
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
    let platform = match (&kube, &pod_selector, &restart_method) {
        (Some(conn), Some(sel), _) => AnyPlatform::Kube(
            KubePlatform::new(conn.clone(), sel.clone(), args.command_timeout).with_addresses(
                platform_nodes(&observation)
                    .into_iter()
                    .filter_map(|n| n.address.map(|a| (n.id, a)))
                    .collect(),
            ),
        ),
        (_, _, Some(method)) => AnyPlatform::Process(ProcessPlatform::new(
            platform_nodes(&observation),
            method.clone(),
            args.command_timeout,
        )),
        _ => AnyPlatform::Process(ProcessPlatform::status_only(
            platform_nodes(&observation),
            args.command_timeout,
        )),
    };
    // The pods' own restart reasons (annotated, stuck, old revision), read before the first
    // observation so that stuck pods already read as not running.
    let pod_reasons: BTreeMap<NodeId, Vec<String>> = match &platform {
        AnyPlatform::Kube(k) => k
            .discover()
            .await
            .map_err(anyhow::Error::from)?
            .iter()
            .map(|p| {
                (
                    NodeId(p.id),
                    p.restart_reasons().into_iter().map(|(_, r)| r).collect(),
                )
            })
            .filter(|(_, r): &(NodeId, Vec<String>)| !r.is_empty())
            .collect(),
        AnyPlatform::Process(_) => BTreeMap::new(),
    };
    let status = process_status(&platform, &observation).await;
    apply_process_status(&mut observation, &status);
    let witness = RestartWitness::new(Duration::from_secs(5), witness_idle_limit(&observation));
    let mut snapshot = to_snapshot(&observation);
    set_incarnations(
        &mut snapshot,
        &platform.list_nodes().await.map_err(anyhow::Error::from)?,
        &witness,
    );

    let requests = if selection.is_none() && desired.is_empty() {
        // Kubernetes without a selection: the pods Kubernetes gives a reason for.
        BTreeMap::new()
    } else {
        requests(&snapshot, selection.as_ref(), &desired)?
    };
    let requests = with_platform_reasons(requests, &snapshot, &pod_reasons);
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
    // The saved state of an earlier run of this roll, if any.
    let cluster_key = observation
        .cluster_id
        .clone()
        .unwrap_or_else(|| client.config().bootstrap_servers.clone());
    let state_path = crate::state::roll_state_path(
        &args
            .state_dir
            .clone()
            .unwrap_or_else(crate::state::default_state_dir),
        &cluster_key,
    );
    let mut request = roll_request(&args, selection.as_ref(), &desired, &roll_config);
    if let Some(sel) = &pod_selector {
        request["pods"] = serde_json::json!(sel.labels);
    }
    let resumed = saved_run(&args, &state_path, &request, ctx.printer.quiet)?;
    // Who else moves data: Cruise Control's execution (no node restarts while it runs) and
    // reassignments no execution owns (named below; refused with --strict).
    let others = movers::observe(ctx, &observation, timeout).await?;
    let mut roller = match &resumed {
        Some(run) => run.roller.clone(),
        None => Roller::new(roll_config.clone(), requests),
    };
    if !args.force {
        roller.handle_cruise_control(&others.others.cruise_control);
    }
    let plan = roller.plan(&snapshot);
    // Topics no order of restarts can keep available (engine::risk): listed before anything
    // restarts, refused with --strict, and named again in the summary if the roll touched them.
    let risky = crate::engine::risk::risky_topics(&snapshot, &restarting_nodes(&plan));
    let mut plan_notes = plan_notes;
    plan_notes.extend(risky.iter().map(|t| {
        format!(
            "topic {} cannot stay available during this roll",
            t.describe()
        )
    }));
    plan_notes.extend(movers::notes(&others, args.force));
    let printer = &ctx.printer;
    let blocked = plan.steps.iter().find_map(|s| match s {
        PlanStep::Blocked { nodes, reason } => Some((nodes.clone(), reason.clone())),
        _ => None,
    });
    if let Some(run) = &resumed
        && !printer.quiet
    {
        crate::output::stderr_line(format_args!(
            "Resuming the roll saved in {} (restarted so far: {}; a node whose restart was \
             in flight is judged from evidence, not restarted again)",
            state_path.display(),
            join_or_none(&RunReport::of(run, Outcome::Interrupted, run.started).restarted())
        ));
    }
    if printer.format == crate::output::OutputFormat::Table {
        crate::output::write_stdout(&render_plan(&plan, &snapshot, &plan_notes))?;
    }

    let strict_refusal = (args.strict && !risky.is_empty()).then(|| {
        format!(
            "--strict: {} topic(s) cannot stay available during this roll: {}",
            risky.len(),
            risky
                .iter()
                .map(|t| t.topic.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
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
        if let Some(reason) = strict_refusal {
            return Err(CliError::new(
                ExitCode::Failed,
                CodedError::new(ExitCode::Failed, format!("refusing the roll: {reason}")),
            ));
        }
        if let Some(reason) = movers::strict_refusal(&others, args.strict) {
            return Err(movers::error(
                ExitCode::Busy,
                format!("refusing the roll: {reason}"),
            ));
        }
        return Ok(ExitCode::Ok);
    }
    // Cruise Control executes (or cannot be asked): a new roll refuses at once, naming the
    // execution; a resumed one may be in the middle of a batch, and waits (the engine holds new
    // actions until the execution ends).
    if resumed.is_none()
        && let Some((code, message)) = movers::refusal(&others, args.force)
    {
        let mut result = ResultDoc::refused(&plan, &message);
        result.exit_code = code.code();
        emit_result(printer, &plan, &plan_notes, &result)?;
        return Err(movers::error(code, message));
    }
    if resumed.is_none()
        && let Some(reason) = movers::strict_refusal(&others, args.strict)
    {
        let mut result = ResultDoc::refused(&plan, &reason);
        result.exit_code = ExitCode::Busy.code();
        emit_result(printer, &plan, &plan_notes, &result)?;
        return Err(movers::error(
            ExitCode::Busy,
            format!("refusing to start the roll: {reason}"),
        ));
    }
    if resumed.is_none()
        && let Some(reason) = &strict_refusal
    {
        let result = ResultDoc::refused(&plan, reason);
        emit_result(printer, &plan, &plan_notes, &result)?;
        return Err(CliError::new(
            ExitCode::Failed,
            CodedError::new(
                ExitCode::Failed,
                format!("refusing to start the roll: {reason}; nothing was changed"),
            ),
        ));
    }
    // A resumed run may be in the middle of a batch (a node down): the engine waits for it.
    if resumed.is_none() {
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
    }
    for warning in plan_warnings(&plan, &snapshot) {
        if !printer.quiet {
            crate::output::stderr_line(format_args!("warning: {warning}"));
        }
    }
    let touched = plan.steps.len();
    confirm(
        &if resumed.is_some() {
            format!(
                "Resume the roll ({touched} step(s) left above{})",
                movers::confirmation(&others)
            )
        } else {
            format!(
                "Roll the cluster ({touched} step(s) above{})",
                movers::confirmation(&others)
            )
        },
        ctx.global.yes,
        printer.interactive,
    )?;

    let mut io = KafkaRollIo::new(client, platform, witness.clone())
        .await
        .context("cannot list the platform's nodes")?;
    if !args.force
        && let Some(cc) = others.client
    {
        io = io.with_cruise_control(cc, timeout);
    }
    let recovery = io.recovery();
    let mut store = crate::state::RollStore::new(state_path.clone(), cluster_key, request);
    let mut run = resumed.unwrap_or_else(|| driver::RollRun::new(roller, io.now()));
    store
        .write(&run)
        .with_context(|| "cannot save the roll state (see --state-dir)")?;
    let stop = Arc::new(AtomicBool::new(false));
    let exit_after_command = Arc::new(AtomicBool::new(false));
    let signals = spawn_signal_handler(
        Arc::clone(&stop),
        Arc::clone(&exit_after_command),
        Arc::clone(&store.restart_in_flight),
        printer.quiet,
        state_path.clone(),
    );
    let mut progress = StderrProgress {
        quiet: printer.quiet,
        recovery,
        ..StderrProgress::default()
    };
    let options = DriverOptions {
        observe_retry_ms: roll_config.post_restart_timeout_ms.max(60_000),
        settle_after_restart_ms: roll_config.poll_interval_ms.max(3_000),
        unconfirmed_restart_grace_ms: millis(args.command_timeout).max(60_000),
    };
    // The CLI's loop over the step function: save after every step, sleep until its wake-up.
    let outcome = loop {
        let result = driver::step(
            &mut run,
            &io,
            &mut progress,
            &mut store,
            stop.load(Ordering::SeqCst),
            &options,
        )
        .await;
        match result {
            driver::StepResult::Wake(at) => {
                if let Err(e) = store.write(&run) {
                    progress.event(&Event::SaveFailed { error: &e });
                }
                if exit_after_command.load(Ordering::SeqCst) {
                    break Outcome::Interrupted;
                }
                io.sleep_until(at).await;
            }
            driver::StepResult::Finished(outcome) => break outcome,
        }
    };
    signals.abort();
    witness.stop();
    // A run the engine finished (done, aborted, failed restart) is over: its state goes. An
    // interrupted one (Ctrl-C, observation or save failure) stays, to be resumed.
    let keep_state = matches!(
        outcome,
        Outcome::Interrupted | Outcome::ObserveFailed(_) | Outcome::SaveFailed(_)
    );
    if keep_state {
        if let Err(e) = store.write(&run) {
            tracing::warn!("{e:#}");
        }
    } else if let Err(e) = crate::state::remove_roll(&state_path) {
        tracing::warn!("{e:#}");
    }
    let report = RunReport::of(&run, outcome, io.now());
    let resume_hint = format!(
        "state saved in {}: re-run the same command to resume, or pass --discard-state to start \
         over",
        state_path.display()
    );

    let all: Vec<NodeId> = snapshot.nodes.iter().map(|n| n.id).collect();
    let restarted = report.restarted();
    let reconfigured = report.reconfigured();
    let skipped: Vec<NodeId> = all
        .iter()
        .filter(|n| !restarted.contains(n) && !reconfigured.contains(n))
        .copied()
        .collect();
    let code = crate::error_codes::roll_outcome_code(&report.outcome);
    let (status, error, notes): (&str, Option<CliError>, Vec<String>) = match report.outcome {
        Outcome::Done(summary) => ("done", None, summary.notes),
        Outcome::Aborted(reason) => {
            let msg = format!(
                "roll aborted: {reason}; nothing else was restarted (restarted so far: {})",
                join_or_none(&restarted)
            );
            (
                "aborted",
                Some(CliError::new(code, CodedError::new(code, msg))),
                Vec::new(),
            )
        }
        Outcome::Interrupted => {
            let msg = format!(
                "roll stopped by Ctrl-C between batches; restarted: {}; not yet rolled: {}; \
                 {resume_hint}",
                join_or_none(&restarted),
                join_or_none(&skipped)
            );
            (
                "interrupted",
                Some(CliError::new(code, CodedError::new(code, msg))),
                Vec::new(),
            )
        }
        Outcome::RestartFailed { node, error } => {
            let err = CliError::from(error.context(format!(
                "restarting node {node} failed; the roll stopped and restarted no further node"
            )));
            ("restart-failed", Some(err), Vec::new())
        }
        Outcome::ObserveFailed(error) => {
            let err = CliError::from(error.context(format!(
                "the cluster could not be observed; the roll stopped ({resume_hint})"
            )));
            ("observe-failed", Some(err), Vec::new())
        }
        Outcome::SaveFailed(error) => {
            let msg = format!(
                "the roll state could not be saved, so no further command was issued: {error:#}"
            );
            (
                "save-failed",
                Some(CliError::new(code, CodedError::new(code, msg))),
                Vec::new(),
            )
        }
    };
    let code = error.as_ref().map_or(code, |e| e.code);
    let mut notes = notes;
    notes.extend(
        crate::engine::risk::affected(&risky, &restarted)
            .iter()
            .map(|t| format!("affected risky topic {}", t.describe())),
    );
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
    .await;
    if let Some(lease) = lease {
        lease.release().await;
    }
    result
}

/// The nodes the plan restarts (reconfigured nodes stay up).
fn restarting_nodes(plan: &Plan) -> BTreeSet<NodeId> {
    plan.steps
        .iter()
        .flat_map(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// What the user asked for, as saved with the state: a re-run with the same request resumes.
fn roll_request(
    args: &RollArgs,
    selection: Option<&Selection>,
    desired: &BTreeMap<String, String>,
    config: &RollConfig,
) -> serde_json::Value {
    let selection = match selection {
        None => serde_json::Value::Null,
        Some(Selection::All) => serde_json::json!("all"),
        Some(Selection::Nodes(ids)) => serde_json::json!({ "nodes": ids }),
        Some(Selection::Role(RoleFilter::Broker)) => serde_json::json!({ "role": "broker" }),
        Some(Selection::Role(RoleFilter::Controller)) => {
            serde_json::json!({ "role": "controller" })
        }
    };
    serde_json::json!({
        "selection": selection,
        "desired_config": desired,
        "config": config,
        "restart": {
            "restart_command": args.restart_command,
            "stop_command": args.stop_command,
            "start_command": args.start_command,
        },
    })
}

/// The saved run to resume (`None`: start a new one). A saved run of a different request is
/// a usage error naming the file and `--discard-state`.
fn saved_run(
    args: &RollArgs,
    path: &Path,
    request: &serde_json::Value,
    quiet: bool,
) -> Result<Option<driver::RollRun>, CliError> {
    if args.discard_state {
        if path.exists() && !args.dry_run {
            crate::state::remove_roll(path)?;
            if !quiet {
                crate::output::stderr_line(format_args!(
                    "Discarded the saved roll state {}",
                    path.display()
                ));
            }
        }
        return Ok(None);
    }
    let saved = crate::state::load_roll(path).map_err(|e| {
        CliError::usage(format!(
            "{e:#}; pass --discard-state to delete it and start a new roll"
        ))
    })?;
    match saved {
        None => Ok(None),
        Some(s) if s.request == *request => Ok(Some(s.run)),
        Some(s) => Err(CliError::usage(format!(
            "a saved roll of this cluster for a different request exists in {} ({}, {} node(s) \
             restarted so far); re-run that roll to finish it, or pass --discard-state to \
             delete it and start this one",
            path.display(),
            describe_request(&s.request),
            RunReport::of(&s.run, Outcome::Interrupted, s.run.started)
                .restarted()
                .len()
        ))),
    }
}

/// A saved request in words (`--all`, `--nodes 1,2`, `--set KEY=...`).
fn describe_request(request: &serde_json::Value) -> String {
    let mut parts = Vec::new();
    match &request["selection"] {
        serde_json::Value::String(s) if s == "all" => parts.push("--all".to_string()),
        serde_json::Value::Object(o) => {
            if let Some(ids) = o.get("nodes").and_then(|v| v.as_array()) {
                let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
                parts.push(format!("--nodes {}", ids.join(",")));
            }
            if let Some(role) = o.get("role").and_then(|v| v.as_str()) {
                parts.push(format!("--role {role}"));
            }
        }
        _ => {}
    }
    if let Some(d) = request["desired_config"].as_object() {
        parts.extend(d.keys().map(|k| format!("desired {k}")));
    }
    if parts.is_empty() {
        "an unrecognised request".to_string()
    } else {
        parts.join(" ")
    }
}

/// Warnings shown before asking: a restart that makes the metadata quorum unavailable.
fn plan_warnings(plan: &Plan, snapshot: &ClusterSnapshot) -> Vec<String> {
    let voters = snapshot.quorum.as_ref().map_or(0, |q| q.voters.len());
    let mut out = Vec::new();
    if voters == 1 {
        let restarts_controller = plan.steps.iter().any(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().any(|n| {
                snapshot
                    .nodes
                    .iter()
                    .any(|x| x.id == n.node && x.roles.controller)
            }),
            _ => false,
        });
        if restarts_controller {
            out.push(
                "the cluster has a single controller: while it restarts the metadata quorum is \
                 unavailable (no topic, partition or broker registration changes, no new \
                 leaders until it is back)"
                    .to_string(),
            );
        }
    }
    out
}

/// Ctrl-C once: stop between batches. Ctrl-C again: exit at once, unless a restart command is
/// in flight: then the roll WAITS for that command (and its process group) to end, saves its
/// state and exits (the command is not killed: a half-done restart could leave the node down).
fn spawn_signal_handler(
    stop: Arc<AtomicBool>,
    exit_after_command: Arc<AtomicBool>,
    in_flight: Arc<AtomicBool>,
    quiet: bool,
    state_path: std::path::PathBuf,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        stop.store(true, Ordering::SeqCst);
        if !quiet {
            crate::output::stderr_line(format_args!(
                "Ctrl-C: stopping after the current batch is back in service \
                 (Ctrl-C again to exit sooner; the state is kept in {})",
                state_path.display()
            ));
        }
        while tokio::signal::ctrl_c().await.is_ok() {
            if in_flight.load(Ordering::SeqCst) {
                exit_after_command.store(true, Ordering::SeqCst);
                crate::output::stderr_line(format_args!(
                    "Ctrl-C: a restart command is running; waiting for it to end (it is not \
                     killed), then exiting; re-run the same command to resume"
                ));
            } else {
                crate::output::stderr_line(format_args!(
                    "second Ctrl-C: exiting now; the state is saved in {}: re-run the same \
                     command to resume (a node being restarted may still be down)",
                    state_path.display()
                ));
                std::process::exit(ExitCode::Interrupted.code());
            }
        }
    })
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
pub(crate) fn platform_nodes(observation: &KafkaObservation) -> Vec<PlatformNode> {
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

/// Parses a Java `.properties` file (Kafka's `server.properties` format: `key=value`,
/// `key: value` or `key value`, `#`/`!` comments, `\` escapes and line continuations) with the
/// `java-properties` crate; a key given twice keeps its last value, as Java does.
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

/// Adds the platform's restart reasons (Kubernetes: annotated, stuck, old-revision pods) to the
/// requests: a node with a reason restarts whether selected or not.
pub fn with_platform_reasons(
    mut requests: BTreeMap<NodeId, NodeRequest>,
    snapshot: &ClusterSnapshot,
    reasons: &BTreeMap<NodeId, Vec<String>>,
) -> BTreeMap<NodeId, NodeRequest> {
    for (id, why) in reasons {
        if snapshot.node(*id).is_none() {
            continue;
        }
        let r = requests.entry(*id).or_default();
        for w in why {
            if !r.restart_reasons.contains(w) {
                r.restart_reasons.push(w.clone());
            }
        }
    }
    requests
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

/// How nodes restart: one command, or a stop/start pair. Required unless `--dry-run`.
fn restart_method(args: &RollArgs) -> Result<Option<RestartMethod>, CliError> {
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
/// (`None`: neither given); `roll` and `operate` take the same flags.
pub(crate) fn restart_method_of(
    restart: Option<&String>,
    stop: Option<&String>,
    start: Option<&String>,
) -> Result<Option<RestartMethod>, CliError> {
    let nonempty = |flag: &str, c: &String| {
        if c.trim().is_empty() {
            Err(CliError::usage(format!("{flag} is empty")))
        } else {
            Ok(c.clone())
        }
    };
    match (restart, stop, start) {
        (Some(c), _, _) => Ok(Some(RestartMethod::Restart(nonempty(
            "--restart-command",
            c,
        )?))),
        (None, Some(stop), Some(start)) => Ok(Some(RestartMethod::StopStart {
            stop: nonempty("--stop-command", stop)?,
            start: nonempty("--start-command", start)?,
        })),
        _ => Ok(None),
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
        // What a hand-written split got wrong: whitespace separators, escapes, continuations,
        // `=` inside values, and a later duplicate winning.
        let p = parse_properties(
            "listeners PLAINTEXT://:9092\nsasl.jaas.config=a=b \\\n    c=d\nkey\\:with\\=escapes=v\nx=1\nx=2\n",
        )
        .unwrap();
        assert_eq!(p["listeners"], "PLAINTEXT://:9092");
        assert_eq!(p["sasl.jaas.config"], "a=b c=d");
        assert_eq!(p["key:with=escapes"], "v");
        assert_eq!(p["x"], "2");
        let err = parse_properties("a=1\nb=\\uZZZZ\n").unwrap_err();
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
        let entry = |v: &str| crate::engine::view::ConfigEntry {
            name: "connections.max.idle.ms".into(),
            value: Some(v.into()),
            read_only: true,
            source: crate::engine::view::ConfigSource::StaticBroker,
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
        let witness = RestartWitness::default();
        let mut s = s0.clone();
        set_incarnations(&mut s, &platform_nodes(&o), &witness);
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
        // The controller (Kafka does not fence controllers) is probed too, on every poll.
        let controller = o.nodes.iter_mut().find(|n| n.id == 101).unwrap();
        controller.host = Some(alive.ip().to_string());
        controller.port = Some(alive.port());
        let platform = ProcessPlatform::status_only(platform_nodes(&o), Duration::from_secs(5));
        let status = process_status(&platform, &o).await;
        assert_eq!(
            status.keys().copied().collect::<Vec<_>>(),
            vec![1, 2, 101],
            "fenced brokers and controllers are probed, nothing else"
        );
        apply_process_status(&mut o, &status);
        let s = to_snapshot(&o);
        assert_eq!(s.node(NodeId(1)).unwrap().state, ObservedState::Unknown);
        assert_eq!(s.node(NodeId(2)).unwrap().state, ObservedState::NotRunning);
        assert_eq!(o.node(101).unwrap().process_running, Some(true));
        assert_eq!(s.node(NodeId(101)).unwrap().state, ObservedState::Serving);
    }

    /// A roll of a simulated cluster (3 controllers, 3 brokers), rendered as the user sees
    /// it: the plan, the progress lines and the summary.
    fn simulated_roll(controllers: usize) -> (String, String, String) {
        use crate::driver::sim_io::SimIo;
        use crate::engine::roll::sim::{ClusterSpec, Placement, SimCluster};
        let spec = ClusterSpec {
            brokers: 3,
            combined: 0,
            controllers,
            topics: 2,
            partitions_per_topic: 2,
            replication_factor: 3,
            min_isr_choices: vec![2],
            racks: 3,
            placement: Placement::RackAware,
        };
        let mut sim = SimCluster::generate(&spec, 5);
        let ids: Vec<NodeId> = sim.nodes.keys().copied().collect();
        for id in ids {
            sim.restart_reasons
                .insert(id, vec!["selected with --all".into()]);
        }
        let config = RollConfig {
            poll_interval_ms: 1_000,
            ..RollConfig::default()
        };
        sim.start_roll(config.clone());
        let mut roller = Roller::new(config, sim.requests());
        let snapshot = sim.snapshot();
        let plan = roller.plan(&snapshot);
        let mut plan_text = render_plan(&plan, &snapshot, &[]);
        for w in plan_warnings(&plan, &snapshot) {
            plan_text.push_str(&format!("warning: {w}\n"));
        }
        let io = SimIo::new(sim);
        let mut progress = StderrProgress {
            captured: Some(std::cell::RefCell::new(Vec::new())),
            ..StderrProgress::default()
        };
        let stop = AtomicBool::new(false);
        let report = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(driver::run(
                &mut roller,
                &io,
                &mut progress,
                &stop,
                &DriverOptions::default(),
            ));
        let notes = match &report.outcome {
            Outcome::Done(s) => s.notes.clone(),
            other => panic!("{other:?}"),
        };
        let result = ResultDoc {
            status: "done".into(),
            exit_code: 0,
            restarted: report.restarted(),
            reconfigured: report.reconfigured(),
            skipped: Vec::new(),
            elapsed_ms: report.elapsed_ms,
            actions: report.actions,
            notes,
            error: None,
        };
        let lines = progress.captured.take().unwrap().into_inner();
        (plan_text, lines.join("\n"), render_summary(&result))
    }

    #[test]
    fn roll_plan_progress_and_summary_snapshots() {
        let (plan, progress, summary) = simulated_roll(3);
        insta::assert_snapshot!("roll_plan", plan);
        insta::assert_snapshot!("roll_progress", progress);
        insta::assert_snapshot!("roll_summary", summary);
    }

    #[test]
    fn a_single_controller_plan_says_the_quorum_is_unavailable() {
        let (plan, _, _) = simulated_roll(1);
        assert!(
            plan.contains("metadata quorum is unavailable") && !plan.contains("keeps a majority"),
            "{plan}"
        );
        insta::assert_snapshot!("roll_plan_single_controller", plan);
    }

    #[test]
    fn a_saved_request_is_described_in_flags() {
        let args = <crate::cli::Cli as clap::Parser>::try_parse_from([
            "kafkaops", "roll", "--nodes", "1,2", "--set", "a=b",
        ]);
        let Ok(crate::cli::Cli {
            command: crate::cli::Command::Roll(args),
            ..
        }) = args
        else {
            panic!("parse");
        };
        let desired = desired_config(&args).unwrap();
        let selection = Selection::from_args(&args).unwrap();
        let r = roll_request(&args, selection.as_ref(), &desired, &RollConfig::default());
        assert_eq!(describe_request(&r), "--nodes 1,2 desired a");
        // The same arguments give the same request (a re-run resumes).
        assert_eq!(
            r,
            roll_request(&args, selection.as_ref(), &desired, &RollConfig::default())
        );
    }

    #[test]
    fn a_saved_roll_resumes_the_same_request_and_refuses_another() {
        use crate::driver::RollRun;
        let dir = tempfile::tempdir().unwrap();
        let path = crate::state::roll_state_path(dir.path(), "cluster-1");
        let parse = |argv: &[&str]| -> RollArgs {
            let mut full = vec!["kafkaops", "roll"];
            full.extend_from_slice(argv);
            match <crate::cli::Cli as clap::Parser>::try_parse_from(full) {
                Ok(crate::cli::Cli {
                    command: crate::cli::Command::Roll(a),
                    ..
                }) => a,
                other => panic!("{other:?}"),
            }
        };
        let request_of = |args: &RollArgs| {
            roll_request(
                args,
                Selection::from_args(args).unwrap().as_ref(),
                &desired_config(args).unwrap(),
                &RollConfig::default(),
            )
        };
        let all = parse(&["--all"]);
        // Nothing saved: a new run.
        assert!(
            saved_run(&all, &path, &request_of(&all), true)
                .unwrap()
                .is_none()
        );
        let run = RollRun::new(
            Roller::new(RollConfig::default(), BTreeMap::new()),
            Millis(1),
        );
        let store =
            crate::state::RollStore::new(path.clone(), "cluster-1".into(), request_of(&all));
        store.write(&run).unwrap();
        // The same request resumes.
        assert!(
            saved_run(&all, &path, &request_of(&all), true)
                .unwrap()
                .is_some()
        );
        // Another is a usage error naming the file and --discard-state.
        let other = parse(&["--nodes", "1"]);
        let err = saved_run(&other, &path, &request_of(&other), true).unwrap_err();
        assert_eq!(err.code, ExitCode::Usage);
        let msg = err.to_string();
        assert!(
            msg.contains("--discard-state")
                && msg.contains(&*path.to_string_lossy())
                && msg.contains("--all"),
            "{msg}"
        );
        // --discard-state deletes it and starts anew.
        let discard = parse(&["--nodes", "1", "--discard-state"]);
        assert!(
            saved_run(&discard, &path, &request_of(&discard), true)
                .unwrap()
                .is_none()
        );
        assert!(!path.exists());
        // An unreadable state file is a usage error too.
        std::fs::write(&path, "{not json").unwrap();
        let err = saved_run(&all, &path, &request_of(&all), true).unwrap_err();
        assert_eq!(err.code, ExitCode::Usage);
        assert!(err.to_string().contains("--discard-state"), "{err}");
    }
}
