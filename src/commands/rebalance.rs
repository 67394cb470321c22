//! `kafkaops rebalance add|remove|full|status|stop`: Cruise Control rebalances.
//!
//! `add`, `remove` and `full` run the shared Cruise Control execution flow: the pure
//! state machine [`crate::engine::cc_flow`] (ready? busy? input valid? no-op? confirmed?
//! finished?) driven by [`crate::driver::cc_flow::run`], which asks for the proposal
//! (always a dry run first) and only with `--execute` plus confirmation starts it once and
//! follows it until it ends, with Ctrl-C offering to stop it or leave it running. This
//! module only plugs in what is particular to rebalances: the request
//! ([`RebalanceRequest`](crate::cruise_control::params::RebalanceRequest)), the broker-id checks (pure functions below, unit-tested), the
//! views, the confirmation text and the progress bar.
//!
//! Bad input changes nothing: ids are checked against Cruise Control's broker list
//! (KRaft controller-only nodes are not in it) before any mutating call.
//!
//! # JSON output (`--output json`), a stable API
//!
//! Dry run: one [`ProposalView`]:
//! `{"operation":"add_broker"|"remove_broker"|"rebalance","brokers":[..],"destination_brokers":[..],
//!   "dry_run":true,"noop":bool,"summary":{"replica_movements","leader_movements","data_to_move_mb",
//!   "intra_broker_replica_movements","intra_broker_data_to_move_mb","balancedness_before",
//!   "balancedness_after","monitored_partitions_pct","recent_windows","excluded_topics",
//!   "provision_status","provision_recommendation"},"goals":[{"goal","status"}],
//!   "broker_load":[{"broker","replicas_before","replicas_after","leaders_before","leaders_after",
//!   "disk_mb_before","disk_mb_after","dead"}],"dead_brokers":[..],"movements":[{"topic","partition","old_replicas",
//!   "new_replicas","old_leader","new_leader"}]}`; numbers Cruise Control sent as `NaN` are `null`.
//!
//! With `--execute`: one [`ExecutionView`] `{"task_id":str|null,"proposal":<ProposalView>,"approved_proposal":
//! <ProposalView>|null,"drift":<DriftReport>|null,"execution_drift":<DriftReport>|null,
//! "follow":<follow>|null,"execution":{"status":"completed"|"started"|"failed"|"stopped"|
//! "nothing-to-do"|"drifted"|"running"|"stopping","progress":{"state",
//! "partitions_total","partitions_finished","partitions_in_progress","partitions_pending",
//! "leaders_total","leaders_finished","data_total_mb","data_finished_mb"}|null}}`.
//!
//! `status`: [`StatusView`] `{"executing":bool,"executor_state":str,"task_id":str|null,"reason":
//! str|null,"progress":<progress>|null,"monitor_state":str|null,"ready":bool,"not_ready_reason":
//! str|null,"proposal_ready":bool|null,"details":{"task_kind":"user"|"self-healing"|null,
//! "started_at_ms","elapsed_ms","eta_ms","intra_broker_movements_total",
//! "intra_broker_movements_finished","aborting_partitions","concurrency":{name:number}}|null,
//! "throttles":[{"broker","leader_bytes_per_second","follower_bytes_per_second"}]|null}`; `status --task`:
//! `{"task_id","status":"running"|"completed"|"failed"|"stopped","cruise_control_status","request",
//! "started_at_ms","progress","placement_in_kafka":{"movements","done","reorders"}|null,
//! "follow":<follow>|null}`. `<follow>` (after following an execution, `null` otherwise) is
//! `{"ended":"finished"|"left-running"|"timeout"|"interrupted"|"terminated"|"stop-requested"|
//! "stop-failed","follow_timeout_ms":int|null}`: every way following ends prints the document
//! (the task's state at that moment), with the exit code of that case; `stop`:
//! [`StopView`] `{"stop_requested":bool,"task_id":str|null,"executor_state":str,"message":str,
//! "placement_in_kafka":{"movements","done","reorders"}|null,"progress":<progress>|null}`; `review list|approve|discard`: `[{"id","status",
//! "endpoint","execution","request","submitter","submitted_at_ms","reason"}]`. An execution ended by
//! a stop request is `"status":"stopped"` (exit 9), distinct from `"failed"` (exit 1).
//!
//! The execution is started with a second, non-dry-run request (as Strimzi does), so Cruise
//! Control recomputes the proposal; the `proposal` of an execution is that second answer. Before
//! it is sent, the proposal is asked for once more as a dry run and compared with the approved one
//! (`approved_proposal`: the dry run shown, or `--approved-plan`); past `--max-drift` /
//! `--max-data-mb` nothing runs (`drifted`, exit 1 under `--yes`; a person is asked again). See
//! [`crate::engine::drift`] for why the check happens before, not after, the execution request. After a
//! completed execution the executor reports no counters any more, so the final `progress` is the
//! last observation with every movement counted as finished.

/// `rebalance status` output: the status and the cordoned brokers (KIP-1066), when Kafka is
/// configured and supports them.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct WithCordons<'a> {
    #[serde(flatten)]
    view: &'a StatusView,
    #[serde(skip_serializing_if = "Option::is_none")]
    cordoned_brokers: Option<Vec<i32>>,
}

pub(crate) mod review;
#[cfg(test)]
mod table_snapshots;

pub use super::shared::cc_flow::render::*;
pub use super::shared::cc_flow::text::*;
use super::shared::cc_flow::{emit_flow_output, run_flow, status_extra, usage};

use std::time::{Duration, Instant};

use serde::Serialize;

use super::Ctx;
use super::shared::observe::{CliObserver, cruise_control as client};
use crate::app::rebalance::{FullOptions, ProposalSpec, checked_request, ids, validate_args};
use crate::cli::rebalance::{
    AddArgs, DemoteArgs, FullArgs, ProposalArgs, RebalanceCommand, RemoveArgs, RemoveDisksArgs,
    StatusArgs, StopArgs,
};
use crate::cruise_control::model::CruiseControlState;
use crate::cruise_control::params::{RebalanceKind, Substate};
use crate::engine::cc_flow::Outcome;
use crate::engine::view::{MonitorState, Readiness};
use crate::error::{CliError, ExitCode};

/// Runs a `rebalance` subcommand (`imbalance` and `pace` are routed to their own modules by
/// [`super::run`]).
pub async fn run(ctx: &Ctx, cmd: RebalanceCommand) -> Result<ExitCode, CliError> {
    match cmd {
        RebalanceCommand::Add(AddArgs { brokers, proposal }) => {
            propose(ctx, RebalanceKind::AddBrokers(brokers.0), proposal, None).await
        }
        RebalanceCommand::Remove(RemoveArgs {
            brokers,
            destination_brokers,
            proposal,
        }) => {
            let kind = RebalanceKind::RemoveBrokers {
                brokers: brokers.0,
                destinations: destination_brokers.map(|d| d.0).unwrap_or_default(),
            };
            propose(ctx, kind, proposal, None).await
        }
        RebalanceCommand::Full(FullArgs {
            destination_brokers,
            rebalance_disk,
            concurrent_intra_broker_partition_movements,
            proposal,
        }) => {
            let full = FullOptions {
                destination_brokers: destination_brokers.map(|d| d.0).unwrap_or_default(),
                rebalance_disk,
                concurrent_intra_broker_partition_movements,
            };
            propose(ctx, RebalanceKind::Full, proposal, Some(full)).await
        }
        RebalanceCommand::Demote(DemoteArgs { brokers, proposal }) => {
            propose(ctx, RebalanceKind::Demote(brokers.0), proposal, None).await
        }
        RebalanceCommand::RemoveDisks(RemoveDisksArgs {
            brokers_and_logdirs,
            proposal,
        }) => {
            let kind = RebalanceKind::RemoveDisks(brokers_and_logdirs);
            propose(ctx, kind, proposal, None).await
        }
        RebalanceCommand::Status(a) => status(ctx, &a).await,
        RebalanceCommand::Stop(a) => stop(ctx, &a).await,
        RebalanceCommand::Imbalance(_) | RebalanceCommand::Pace(_) => {
            unreachable!(
                "commands::run routes `rebalance imbalance` and `rebalance pace` to their own modules"
            )
        }
        RebalanceCommand::Review(c) => review::run(ctx, c).await,
    }
}

// ---------------------------------------------------------------------------
// Decide: pure functions.
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Act: the imperative shell.
// ---------------------------------------------------------------------------

async fn propose(
    ctx: &Ctx,
    kind: RebalanceKind,
    a: ProposalArgs,
    full: Option<FullOptions>,
) -> Result<ExitCode, CliError> {
    let a = ProposalSpec::from(&a);
    validate_args(&kind).map_err(usage)?;
    let mut request = checked_request(&kind, &a, full.as_ref())?;
    // Held nodes are never destinations (issue 29): `destination_broker_ids` without them, or
    // refused before anything is sent (adding a held broker).
    crate::app::rebalance::holds::avoid_held_nodes(
        ctx.kafka_access(),
        &ctx.holds().await?,
        &mut request,
        a.execute,
        &ctx.printer,
    )
    .await?;
    let kind = request.kind.clone();
    // Destinations that are cordoned (an earlier removal's) refuse every move: seen before
    // anything is sent (#25 point 1).
    let destinations: &[i32] = match &kind {
        RebalanceKind::AddBrokers(b) => b,
        RebalanceKind::RemoveBrokers { destinations, .. } => destinations,
        RebalanceKind::Full => full.as_ref().map_or(&[], |f| &f.destination_brokers),
        _ => &[],
    };
    if !destinations.is_empty()
        && let Some(cordoned) = crate::app::cordon::cordoned_brokers(ctx.kafka_access()).await
    {
        let hit = crate::app::cordon::cordoned_destinations(destinations, &cordoned);
        if !hit.is_empty() {
            let msg = crate::app::cordon::cordoned_destinations_message(&hit, a.execute);
            if a.execute {
                return Err(CliError::new(ExitCode::Failed, anyhow::anyhow!(msg)));
            }
            ctx.printer.note(format!("Warning: {msg}"));
        }
    }
    // Leaving brokers are cordoned before anything moves (KIP-1066; see commands::cordon).
    let cordon = match &kind {
        RebalanceKind::RemoveBrokers { brokers, .. } if a.execute => {
            crate::app::cordon::before_removal(ctx.kafka_access(), &ctx.printer, brokers).await?
        }
        _ => None,
    };
    let run = run_flow(ctx, &kind, &request, &a).await;
    if let Some(c) = cordon {
        match &run {
            Ok(r) => {
                c.after_run(ctx.kafka_access(), &ctx.printer, &r.report.outcome)
                    .await;
            }
            Err(_) => c.after(&ctx.printer, &Outcome::Declined).await,
        }
    }
    let run = run?;
    if let Some(out) = &run.output {
        emit_flow_output(&ctx.printer, out)?;
    }
    if let (RebalanceKind::RemoveBrokers { brokers, .. }, Outcome::Completed { .. }) =
        (&kind, &run.report.outcome)
    {
        let leaving = ids(brokers);
        let now = if verify_empty(ctx, brokers).await? {
            "hold no replicas now (Kafka metadata)"
        } else {
            "were not checked: no Kafka connection is configured (--bootstrap-servers); check them before shutting them down"
        };
        ctx.printer.note(format!(
            "Broker(s) {leaving} {now}. Topics created from now on may still be placed on them (Kafka uses any live broker): shut them down soon, or run `kafkaops rebalance remove` again if new replicas appear"
        ));
    }
    run.finish()
}

/// Checks the leaving brokers against the Kafka metadata: `Ok(false)` when no Kafka connection
/// is configured (nothing could be checked), an exit-11 error when replicas are left.
async fn verify_empty(ctx: &Ctx, leaving: &[i32]) -> Result<bool, CliError> {
    match crate::app::rebalance::leaving::left_after_removal(ctx.kafka_access(), leaving).await? {
        None => Ok(false),
        Some(left) if left.is_empty() => Ok(true),
        Some(left) => Err(CliError::new(
            ExitCode::ReplicasLeft,
            anyhow::anyhow!(crate::app::rebalance::leaving::left_message(&left)),
        )),
    }
}

async fn status(ctx: &Ctx, a: &StatusArgs) -> Result<ExitCode, CliError> {
    if let Some(task_id) = &a.task {
        return super::shared::cc_flow::task::status_task(ctx, a, task_id).await;
    }
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, Duration::from_secs(5))?;
    let deadline = Instant::now() + a.timeout;
    let state = cc
        .state(
            &[Substate::Executor, Substate::Monitor, Substate::Analyzer],
            false,
            deadline,
            &obs,
        )
        .await?;
    let mut view = status_view(&state);
    if view.executing {
        let executor = state.executor.clone().unwrap_or_default();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        view.details = Some(status_extra::details(&executor, now));
    }
    view.throttles = status_extra::throttles(ctx).await;
    // Cordoned brokers (KIP-1066) come from Kafka, when it is configured and supports them.
    let out = WithCordons {
        view: &view,
        cordoned_brokers: crate::app::cordon::cordoned_brokers(ctx.kafka_access()).await,
    };
    printer.emit(&out, |o| {
        let mut s = render_status(o.view, printer.style());
        if let Some(c) = &o.cordoned_brokers {
            s.push_str(&format!(
                "Cordoned brokers: {}\n",
                if c.is_empty() { "none".into() } else { ids(c) }
            ));
        }
        s
    })?;
    Ok(ExitCode::Ok)
}

/// The status shown for a Cruise Control state (pure).
#[must_use]
pub fn status_view(state: &CruiseControlState) -> StatusView {
    let executor = state.executor_view();
    let monitor = state.monitor_view();
    let readiness = monitor.as_ref().map(MonitorState::readiness);
    StatusView {
        executing: !executor.is_idle(),
        executor_state: if executor.state.is_empty() {
            "UNKNOWN".into()
        } else {
            executor.state.clone()
        },
        task_id: executor.running_task().map(str::to_string),
        reason: executor
            .triggered_task_reason
            .clone()
            .filter(|r| !r.is_empty()),
        progress: (!executor.is_idle()).then(|| executor.progress()),
        monitor_state: monitor.as_ref().map(|m| m.state.clone()),
        ready: matches!(readiness, Some(Readiness::Ready)),
        not_ready_reason: match readiness {
            Some(Readiness::NotReady { reason, .. }) => Some(reason),
            _ => None,
        },
        proposal_ready: state.analyzer.as_ref().map(|a| a.is_proposal_ready),
        details: None,
        throttles: None,
    }
}

async fn stop(ctx: &Ctx, a: &StopArgs) -> Result<ExitCode, CliError> {
    let printer = ctx.printer.clone();
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let cc = client(ctx, a.poll_interval)?;
    let started = Instant::now();
    let deadline = started + a.timeout;
    let before = cc
        .state(&[Substate::Executor], false, deadline, &obs)
        .await?
        .executor_view();
    if before.is_idle() {
        let view = StopView {
            stop_requested: false,
            task_id: None,
            executor_state: before.state.clone(),
            message: "Nothing is executing; nothing was changed.".into(),
            placement_in_kafka: None,
            progress: None,
        };
        printer.emit(&view, render_stop)?;
        return Ok(ExitCode::Ok);
    }
    let task_id = before.running_task().map(str::to_string);
    // What the execution was to do (its task's answer), to say at the end how far it got.
    let proposal = match &task_id {
        Some(t) => crate::app::rebalance::task::executed_proposal(&cc, t, deadline, &obs).await,
        None => None,
    };
    printer.note(format!("Stopping: {}", before.describe()));
    cc.stop_proposal_execution(&a.reason, deadline, &obs)
        .await?;
    // Cruise Control stops after the in-flight batch; wait until the executor is idle.
    let now = crate::app::rebalance::wait_until_idle(
        &cc,
        a.poll_interval,
        started,
        deadline,
        &printer,
        &obs,
    )
    .await?;
    let placement_in_kafka = match &proposal {
        Some(p) => {
            crate::app::placement::read(&ctx.settings.kafka, ctx.request_timeout(), &printer)
                .await
                .map(|now| crate::app::placement::proposal_done(&p.proposals, &now))
        }
        None => None,
    };
    let view = StopView {
        stop_requested: true,
        task_id,
        executor_state: now.state,
        message: "The execution was stopped; replicas already moved stay where they are.".into(),
        placement_in_kafka,
        progress: Some(before.progress()),
    };
    printer.emit(&view, render_stop)?;
    if let Some(t) = &view.task_id {
        crate::app::cordon::after_stop(ctx.kafka_access(), &printer, t).await;
    }
    Ok(ExitCode::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cruise_control::lenient::from_str;
    use crate::cruise_control::model::OptimizationResult;

    #[test]
    fn status_of_an_idle_ready_and_a_busy_cruise_control() {
        let idle: CruiseControlState = from_str(
            r#"{"MonitorState":{"state":"RUNNING","numMonitoredWindows":2,"numValidPartitions":4},
                "ExecutorState":{"state":"NO_TASK_IN_PROGRESS"},"AnalyzerState":{"isProposalReady":false}}"#,
        )
        .unwrap();
        let v = status_view(&idle);
        assert!(!v.executing && v.ready && v.progress.is_none());
        assert_eq!(v.proposal_ready, Some(false));
        let busy: CruiseControlState = from_str(
            r#"{"ExecutorState":{"state":"LEADER_MOVEMENT_TASK_IN_PROGRESS","triggeredUserTaskId":"t",
                "triggeredTaskReason":"","numTotalLeadershipMovements":3}}"#,
        )
        .unwrap();
        let v = status_view(&busy);
        assert!(v.executing && !v.ready);
        assert_eq!(v.task_id.as_deref(), Some("t"));
        assert_eq!(v.reason, None);
        assert_eq!(v.progress.unwrap().leaders_total, 3);
        assert_eq!(v.monitor_state, None);
    }

    #[test]
    fn internal_topics_are_folded_into_one_line_unless_asked() {
        let r: OptimizationResult = from_str(
            r#"{"summary":{"numReplicaMovements":3,"numLeaderMovements":0,"dataToMoveMB":0},
               "proposals":[{"topicPartition":"orders-0","oldLeader":1,"oldReplicas":[1,2],"newReplicas":[4,2]},
                            {"topicPartition":"__KafkaCruiseControlPartitionMetricSamples-0","oldLeader":1,"oldReplicas":[1,2],"newReplicas":[4,2]},
                            {"topicPartition":"__KafkaCruiseControlModelTrainingSamples-3","oldLeader":2,"oldReplicas":[2,3],"newReplicas":[2,4]}]}"#,
        )
        .unwrap();
        let v = ProposalView::new(&RebalanceKind::AddBrokers(vec![4]), &r, true);
        let text = render_proposal(&v, crate::output::Style::PLAIN, false);
        assert!(text.contains("orders-0"), "{text}");
        assert!(
            !text.contains("__KafkaCruiseControlPartitionMetricSamples-0"),
            "{text}"
        );
        assert!(
            text.contains("2 internal partition(s) of 2 topic(s)"),
            "{text}"
        );
        let v = ProposalView {
            show_internal: true,
            ..v
        };
        let text = render_proposal(&v, crate::output::Style::PLAIN, false);
        assert!(
            text.contains("__KafkaCruiseControlPartitionMetricSamples-0"),
            "{text}"
        );
        assert!(!text.contains("internal partition(s)"), "{text}");
        assert_eq!(
            v.movements.len(),
            3,
            "the view (and JSON) keeps every movement"
        );
    }

    #[test]
    fn proposal_view_orders_movements_and_merges_loads() {
        let r: OptimizationResult = from_str(
            r#"{"summary":{"numReplicaMovements":2,"numLeaderMovements":1,"dataToMoveMB":5,
                "onDemandBalancednessScoreBefore":NaN,"onDemandBalancednessScoreAfter":99.0},
               "goalSummary":[{"goal":"ReplicaDistributionGoal","status":"FIXED"}],
               "proposals":[{"topicPartition":{"topic":"b","partition":1},"oldLeader":1,"oldReplicas":[1,2],"newReplicas":[4,2]},
                            {"topicPartition":"a-0","oldLeader":2,"oldReplicas":[2,3],"newReplicas":[2,4]}],
               "loadBeforeOptimization":{"brokers":[{"Broker":4,"Replicas":0,"Leaders":0}]},
               "loadAfterOptimization":{"brokers":[{"Broker":4,"Replicas":2,"Leaders":1}]}}"#,
        )
        .unwrap();
        let v = ProposalView::new(&RebalanceKind::AddBrokers(vec![4]), &r, true);
        assert_eq!(v.movements[0].topic, "a");
        assert_eq!(v.movements[1].new_leader, Some(4));
        assert_eq!(v.broker_load[0].replicas_before, Some(0));
        assert_eq!(v.broker_load[0].replicas_after, Some(2));
        assert!(!v.noop);
        let text = render_proposal(&v, crate::output::Style::PLAIN, false);
        assert!(text.contains("- -> 99.0"), "{text}");
        assert!(text.contains("not reported"), "{text}");
    }

    #[test]
    fn dead_brokers_are_marked_and_warned_about() {
        // A broker that is down: Cruise Control reports it DEAD and proposes to drain it
        // (reference section 14, #25 point 5).
        let r: OptimizationResult = from_str(
            r#"{"summary":{"numReplicaMovements":2,"numLeaderMovements":0,"dataToMoveMB":0},
               "proposals":[{"topicPartition":"a-0","oldLeader":1,"oldReplicas":[1,3],"newReplicas":[1,2]}],
               "loadBeforeOptimization":{"brokers":[{"Broker":1,"BrokerState":"ALIVE","Replicas":2,"Leaders":1},
                                                    {"Broker":3,"BrokerState":"DEAD","Replicas":2,"Leaders":0}]},
               "loadAfterOptimization":{"brokers":[{"Broker":1,"BrokerState":"ALIVE","Replicas":2,"Leaders":1},
                                                   {"Broker":3,"BrokerState":"DEAD","Replicas":0,"Leaders":0}]}}"#,
        )
        .unwrap();
        let v = ProposalView::new(&RebalanceKind::Full, &r, true);
        assert_eq!(v.dead_brokers, vec![3]);
        assert!(v.broker_load[1].dead && !v.broker_load[0].dead);
        let text = render_proposal(&v, crate::output::Style::PLAIN, false);
        assert!(text.contains("3 (DEAD)"), "{text}");
        assert!(!text.contains("1 (DEAD)"), "{text}");
        let w = dead_brokers_warning(&v).unwrap();
        assert!(
            w.contains("broker(s) 3 DEAD") && w.contains("broker 3: 2 -> 0 replica(s)"),
            "{w}"
        );
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["dead_brokers"], serde_json::json!([3]));
        assert_eq!(json["broker_load"][1]["dead"], true);
        let alive = ProposalView::new(
            &RebalanceKind::Full,
            &from_str::<OptimizationResult>(r#"{"summary":{}}"#).unwrap(),
            true,
        );
        assert_eq!(dead_brokers_warning(&alive), None);
    }
}
