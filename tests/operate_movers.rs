//! `kafkaops operate` and the movers, end to end on a real KRaft cluster (1 controller + 3
//! brokers in racks a, b, c) with the Cruise Control test double really moving replicas. The
//! oracles are Kafka's metadata (the placement) and the double's own record of the requests it
//! got (`user_tasks`), never operate's view.
//!
//! a) A skewed placement (every replica on brokers 1 and 2) that the double's anomaly detector
//!    reports as a fixable goal violation is fixed by operate (imbalance mode, the policy's
//!    template): one `rebalance` execution, and the placement ends balanced with complete ISRs.
//!
//! `cargo test --test operate_movers -- --nocapture` shows the steps.

mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use support::bin::kafkaops_bin;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};
use support::operate::{
    Operate, OperateOptions, epoch_ms, executions, http_port, last_loop, saved_state, user_tasks,
    write_policy,
};

const WAIT: Duration = Duration::from_secs(180);

/// Replicas per broker of `topic` (Kafka's metadata).
fn spread(bootstrap: &str, topic: &str) -> BTreeMap<i32, usize> {
    let mut m = BTreeMap::new();
    for p in placement(bootstrap, topic).unwrap() {
        for r in p.replicas {
            *m.entry(r).or_insert(0) += 1;
        }
    }
    m
}

const IMBALANCE_POLICY: &str = "\
autoRebalance:
  - mode: imbalance
    template: { name: full }
templates:
  full:
    goals: [RackAwareGoal, ReplicaDistributionGoal, LeaderReplicaDistributionGoal]
    skipHardGoalCheck: true
    concurrentPartitionMovementsPerBroker: 5
";

#[test]
fn operate_fixes_a_goal_violation() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let cluster =
        KafkaCluster::start(ClusterSpec::split(1, 3).with_racks(["a", "b", "c"])).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let brokers = cluster.broker_ids();
    // The skew: 12 partitions, RF 2, only on the first two brokers (distinct racks).
    let (b1, b2) = (brokers[0], brokers[1]);
    let skew: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            if i % 2 == 0 {
                vec![b1, b2]
            } else {
                vec![b2, b1]
            }
        })
        .collect();
    create_topic(&bootstrap, "skew", &skew, &[]).unwrap();
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            anomaly_interval_seconds: Some(1),
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            anomaly_detection_goals: Some(vec![
                "RackAwareGoal".into(),
                "ReplicaDistributionGoal".into(),
                "LeaderReplicaDistributionGoal".into(),
            ]),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let url = cc.url();
    eprintln!(
        "replicas per broker before: {:?}",
        spread(&bootstrap, "skew")
    );

    eprintln!("step a: the skew is a goal violation; operate fixes it with the imbalance template");
    let dir = tempfile::tempdir().unwrap();
    let policy = write_policy(dir.path(), "policy.yaml", IMBALANCE_POLICY);
    let o = OperateOptions::new(&url, &bootstrap, &policy, &dir.path().join("state"));
    let since = epoch_ms();
    let mut op = Operate::start(&o).expect("operate");
    wait_for("a balanced placement of `skew`", WAIT, || {
        let s = spread(&bootstrap, "skew");
        let balanced =
            s.len() == brokers.len() && s.values().max().unwrap() - s.values().min().unwrap() <= 1;
        Ok(balanced.then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n--- operate ---\n{}", op.log()));
    wait_for("complete ISRs", WAIT, || {
        Ok(placement(&bootstrap, "skew")?
            .iter()
            .all(|p| p.isr.len() == 2)
            .then_some(()))
    })
    .unwrap();
    let after = spread(&bootstrap, "skew");
    eprintln!("replicas per broker after: {after:?}");
    assert_eq!(after.values().sum::<usize>(), 24);
    // Ground truth of what reached Cruise Control: one execution of `rebalance`, nothing else.
    let rebalances = executions(&url, "rebalance", since).unwrap();
    assert_eq!(
        rebalances.len(),
        1,
        "one rebalance execution: {:?}\n{}",
        user_tasks(&url).unwrap(),
        op.log()
    );
    let url_of = &rebalances[0].url;
    for goal in ["ReplicaDistributionGoal", "LeaderReplicaDistributionGoal"] {
        assert!(url_of.contains(goal), "the template's goals: {url_of}");
    }
    for other in ["add_broker", "remove_broker"] {
        assert!(executions(&url, other, since).unwrap().is_empty());
    }
    // Back to Idle, and the loops that follow (the double keeps detecting every second, now
    // nothing) start nothing more.
    wait_for("operate's saved state to be Idle", WAIT, || {
        Ok(saved_state(&dir.path().join("state")).and_then(|s| {
            (s["rebalancer"]["state"] == "Idle" && s["mover"].is_null()).then_some(())
        }))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let port = http_port(&op).expect("operate printed its /metrics address");
    let idle_at = epoch_ms() as f64 / 1000.0;
    wait_for("three more loops after Idle", WAIT, || {
        Ok(last_loop(port)
            .is_some_and(|t| t > idle_at + 3.0)
            .then_some(()))
    })
    .unwrap();
    assert_eq!(
        executions(&url, "rebalance", since).unwrap().len(),
        1,
        "{}",
        op.log()
    );
    assert_eq!(op.terminate().unwrap(), Some(0), "{}", op.log());
}
