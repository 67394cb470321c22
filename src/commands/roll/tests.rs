//! The tests of `kafkaops roll`'s shell: selections, properties files, the plan text and JSON
//! document, a simulated roll's progress and summary (snapshots), resumes and the broker-state
//! list. Split out of `roll.rs` so the command reads apart from its tests.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;
use crate::app::roll::platform_nodes;
use crate::app::roll::session::describe_request;
use crate::driver::kafka_io::{process_status, set_incarnations, witness_idle_limit};
use crate::driver::{self, DriverOptions, Outcome};
use crate::engine::model::Millis;
use crate::engine::model::{NodeRoles, NodeSnapshot, ObservedState};
use crate::engine::roll::{RollConfig, Roller};
use crate::kafka::KafkaObservation;
use crate::kafka::convert::to_snapshot;
use crate::kafka::observation::RolesSource;
use crate::kafka::observation::apply_process_status;
use crate::platform::process::ProcessPlatform;
use crate::platform::witness::RestartWitness;

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
    let err = requests(&s, Some(&Selection::Role(RoleFilter::Controller)), &desired).unwrap_err();
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
        restart_failed: Vec::new(),
        held: Vec::new(),
        elapsed_ms: 1234,
        actions: vec![ActionView::Restart {
            nodes: vec![NodeId(1)],
            after_ms: 0,
            error: None,
            failed: Vec::new(),
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
                "actions": [{"action": "restart", "nodes": [1], "after_ms": 0}]
            }
        })
    );
}

fn observation_of(snapshot: &ClusterSnapshot) -> KafkaObservation {
    use crate::kafka::observation::{
        BrokerStateSource, FencingSource, FetchTimeoutSource, NodeObservation, QuorumObservation,
        Roles,
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
        vouched_alive: std::collections::BTreeSet::new(),
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
        restart_failed: report.restart_failed(),
        held: Vec::new(),
        elapsed_ms: report.elapsed_ms,
        actions: report.actions.into_iter().map(ActionView::from).collect(),
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
    let r = roll_request(
        &args.run,
        selection.as_ref(),
        &desired,
        &RollConfig::default(),
    );
    assert_eq!(describe_request(&r), "--nodes 1,2 desired a");
    // The same arguments give the same request (a re-run resumes).
    assert_eq!(
        r,
        roll_request(
            &args.run,
            selection.as_ref(),
            &desired,
            &RollConfig::default()
        )
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
            &args.run,
            Selection::from_args(args).unwrap().as_ref(),
            &desired_config(args).unwrap(),
            &RollConfig::default(),
        )
    };
    let all = parse(&["--all"]);
    // Nothing saved: a new run.
    assert!(
        saved_run(&all.run, &path, &request_of(&all), true)
            .unwrap()
            .is_none()
    );
    let run = RollRun::new(
        Roller::new(RollConfig::default(), BTreeMap::new()),
        Millis(1),
    );
    let store = crate::state::RollStore::new(path.clone(), "cluster-1".into(), request_of(&all));
    store.write(&run).unwrap();
    // The same request resumes.
    assert!(
        saved_run(&all.run, &path, &request_of(&all), true)
            .unwrap()
            .is_some()
    );
    // Another is a usage error naming the file and --discard-state.
    let other = parse(&["--nodes", "1"]);
    let err = saved_run(&other.run, &path, &request_of(&other), true).unwrap_err();
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
        saved_run(&discard.run, &path, &request_of(&discard), true)
            .unwrap()
            .is_none()
    );
    assert!(!path.exists());
    // An unreadable state file is a usage error too.
    std::fs::write(&path, "{not json").unwrap();
    let err = saved_run(&all.run, &path, &request_of(&all), true).unwrap_err();
    assert_eq!(err.code, ExitCode::Usage);
    assert!(err.to_string().contains("--discard-state"), "{err}");
}

/// Issue #29: a held node is named in the result and in the summary, not only in the plan.
#[test]
fn the_summary_names_held_nodes_with_their_reason() {
    let plan = Plan {
        held: vec![crate::engine::roll::NodeReason {
            node: NodeId(2),
            reason: "held: disk swap".into(),
        }],
        ..Plan::default()
    };
    let doc = ResultDoc::nothing(&plan);
    assert_eq!(doc.held, plan.held);
    let text = render_summary(&doc);
    assert!(
        text.contains("held, not restarted: node 2 (held: disk swap)"),
        "{text}"
    );
    let json = serde_json::to_value(&doc).unwrap();
    assert_eq!(json["held"][0]["node"], 2, "{json}");
}
