//! Unit tests of the `operate` engine, split as the engine is: the request matching, the
//! precedence and waits, the drain and held-broker checks, the dry-run plan. The builders they
//! share (observations, policies, a flow driven up to its execution request) are here.

mod drain;
mod plan;
mod precedence;
mod tasks;

use std::collections::{BTreeMap, BTreeSet};

use super::decision::ids;
use super::*;
use crate::engine::anomalies::AnomalyRecord;
use crate::engine::cc_flow::{CcFlow, FlowConfig};
use crate::engine::model::Millis;
use crate::engine::rebalance::Mode;
use crate::engine::replicas::TopicFacts;
use crate::engine::view::{ExecutorState, Reassignment, TaskStatus, UserTask};

fn task(id: &str, url: &str, start: i64) -> UserTask {
    UserTask {
        user_task_id: id.into(),
        request_url: url.into(),
        client_identity: String::new(),
        start_ms: Some(start),
        status: TaskStatus::InExecution,
        original_response: None,
    }
}

fn config() -> FlowConfig {
    FlowConfig {
        execute: true,
        assume_yes: true,
        no_wait: false,
        timeout_ms: 60_000,
        wait_for_ready_ms: 0,
        poll_interval_ms: 1_000,
        recheck: false,
        follow_timeout_ms: Some(u64::MAX),
    }
}

fn observation(brokers: &[(i32, u64)], topics: &[(&str, u16)]) -> Observation {
    Observation {
        now: Millis(1_000_000),
        kafka: Ok(KafkaView {
            brokers: brokers.iter().copied().collect(),
            reassignments: Vec::new(),
            topics: topics
                .iter()
                .map(|(t, rf)| {
                    (
                        (*t).to_string(),
                        TopicFacts {
                            partitions: 3,
                            min_rf: *rf,
                            max_rf: *rf,
                            min_isr: None,
                        },
                    )
                })
                .collect(),
            racks: BTreeSet::new(),
            held: BTreeMap::new(),
        }),
        cc: Ok(CcView {
            executor: ExecutorState {
                state: "NO_TASK_IN_PROGRESS".into(),
                ..ExecutorState::default()
            },
            anomalies: Vec::new(),
            user_tasks: None,
        }),
        operator: None,
        platform_error: None,
        other_roll: None,
        roll: None,
    }
}

fn policy_add_remove(drain: &[i32]) -> OperatePolicy {
    OperatePolicy {
        modes: [Mode::AddBrokers, Mode::RemoveBrokers]
            .into_iter()
            .collect(),
        drain: drain.iter().copied().collect(),
        scale_up_grace_ms: 0,
        ..OperatePolicy::default()
    }
}

/// Drives the running flow up to its execution request (as the shell would, everything ok).
fn drive_to_start(s: &mut OperateState, now: Millis) {
    use crate::engine::cc_flow::Command;
    use crate::engine::view::MonitorState;
    let mut f = s.flow().cloned().unwrap();
    let mut cmd = f.resume(now);
    for _ in 0..10 {
        cmd = match cmd {
            Command::ObserveReadiness => f.handle_readiness(
                &MonitorState::default(),
                &ExecutorState {
                    state: "NO_TASK_IN_PROGRESS".into(),
                    ..ExecutorState::default()
                },
                now,
            ),
            Command::CheckInput => f.handle_input_checked(Ok(())),
            Command::RequestProposal => f.handle_proposal(false),
            Command::StartExecution => break,
            other => panic!("unexpected {other:?}"),
        };
    }
    s.set_flow(f);
    assert!(s.about_to_execute());
    let sent = sent_params(s);
    s.mark_requested(now, Some(sent));
}

/// The parameters the shell sends for the running mover's execution (as `act.rs` builds them:
/// endpoint parameters, `dryrun=false`, the reason with the mover's tag).
fn sent_params(s: &OperateState) -> RequestParams {
    let mut q: RequestParams = Vec::new();
    if let Some(r) = s.rebalance() {
        if !r.rebalance.brokers.is_empty() {
            q.push(("brokerid".into(), ids(&r.rebalance.brokers)));
        }
        if let Some(d) = &r.destinations {
            q.push(("destination_broker_ids".into(), ids(d)));
        }
    }
    q.push(("dryrun".into(), "false".into()));
    q.push((
        "reason".into(),
        format!("kafkaops operate: test [{}]", s.request_tag()),
    ));
    q
}

/// How Cruise Control lists a request with these parameters (values decoded, any order).
fn listed(endpoint: &str, q: &RequestParams) -> String {
    let mut q = q.clone();
    q.reverse();
    q.push(("json".into(), "true".into()));
    format!(
        "POST /kafkacruisecontrol/{endpoint}?{}",
        q.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    )
}

fn busy(obs: &mut Observation, task: &str) {
    if let Ok(cc) = &mut obs.cc {
        cc.executor.state = "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into();
        cc.executor.triggered_user_task_id = Some(task.into());
    }
}

/// A state where a remove of broker 4 runs (task known) and an add of broker 5 is queued.
fn removing_4_with_5_queued(policy: &OperatePolicy) -> OperateState {
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6)], &[]);
    let d = decide(&mut s, &obs, policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    drive_to_start(&mut s, obs.now);
    let mut f = s.flow().cloned().unwrap();
    f.handle_execution_started(Some("rm".into()), obs.now);
    s.set_flow(f);
    let mut obs = observation(&[(1, 6), (2, 6), (3, 6), (4, 6), (5, 0)], &[]);
    busy(&mut obs, "rm");
    let d = decide(&mut s, &obs, policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert!(
        s.rebalancer.queued().contains_key(&Mode::AddBrokers),
        "{s:?}"
    );
    s
}

/// The running rebalance's flow ended as completed (as the shell would leave it).
fn complete(s: &mut OperateState) {
    let mut f = s.flow().cloned().unwrap();
    let mut cmd = f.resume(Millis(1_001_000));
    for _ in 0..5 {
        cmd = match cmd {
            crate::engine::cc_flow::Command::ObserveProgress => f.handle_progress(
                &ExecutorState {
                    state: "NO_TASK_IN_PROGRESS".into(),
                    ..ExecutorState::default()
                },
                &crate::engine::cc_flow::TaskView::Status(TaskStatus::Completed),
                Millis(1_001_000),
            ),
            crate::engine::cc_flow::Command::Wait { until, .. } => f.handle_wait_over(until),
            _ => break,
        };
    }
    assert!(f.outcome().is_some(), "{f:?}");
    s.set_flow(f);
}

/// Whether the decision calls broker `b` safe to stop.
fn says_safe(d: &Decision, b: i32) -> bool {
    d.notes
        .iter()
        .any(|n| n.contains(&format!("broker {b} is drained")) && n.contains("safe to stop"))
}

/// A state whose imbalance rebalance (our own full rebalance) is executing.
fn imbalance_running(policy: &OperatePolicy, obs: &Observation) -> OperateState {
    use crate::engine::anomalies::AnomalyType;
    let mut s = OperateState::new();
    let mut first = obs.clone();
    if let Ok(cc) = &mut first.cc {
        cc.anomalies = vec![AnomalyRecord {
            kind: AnomalyType::GoalViolation,
            anomaly_id: "gv-1".into(),
            status: "DETECTED".into(),
            detected_at_ms: Some(999_000),
            status_updated_at_ms: Some(999_000),
            fixable_goals: vec!["ReplicaDistributionGoal".into()],
            unfixable_goals: Vec::new(),
            failed_brokers: BTreeMap::new(),
            failed_disks: BTreeMap::new(),
            description: None,
        }];
    }
    let d = decide(&mut s, &first, policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(
        s.rebalance().map(|r| r.rebalance.mode),
        Some(Mode::Imbalance)
    );
    drive_to_start(&mut s, first.now);
    let mut f = s.flow().cloned().unwrap();
    f.handle_execution_started(Some("full".into()), first.now);
    s.set_flow(f);
    s
}
