//! `kafkaops operate` rides out outages instead of exiting (issue #13): started while Cruise
//! Control is down, it keeps looking (with backoff, the outage logged once), and fills a new
//! broker as soon as Cruise Control answers. Real KRaft cluster (1 controller + 3 brokers), the
//! Cruise Control test double, `operate` as a child process; the oracles are Kafka's metadata
//! (replicas per broker) and the double's own `user_tasks`.
//!
//! Kafka unreachable at start without `--once` is covered without a cluster in `tests/cli/cli.rs`.
//!
//! `cargo test --test cluster operate_outage:: -- --nocapture` shows the steps.

use crate::support;
use support::WAIT;

use support::bin::kafkaops_bin;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, wait_for};
use support::operate::{
    Operate, OperateOptions, epoch_ms, executions, replicas_per_broker, write_policy,
};

fn count(bootstrap: &str, broker: i32) -> usize {
    replicas_per_broker(bootstrap)
        .unwrap()
        .get(&broker)
        .copied()
        .unwrap_or(0)
}

#[test]
fn operate_started_while_cruise_control_is_down_acts_once_it_answers() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let cluster = KafkaCluster::start(ClusterSpec::split(1, 3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // 6 partitions, RF 2, only on brokers 1-2: broker 3 is the new, empty broker.
    let on_12: Vec<Vec<i32>> = (0..6)
        .map(|i| if i % 2 == 0 { vec![1, 2] } else { vec![2, 1] })
        .collect();
    create_topic(&bootstrap, "orders", &on_12, &[]).unwrap();
    let mut cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let url = cc.url();
    cc.stop();
    let dir = tempfile::tempdir().unwrap();
    let p = write_policy(
        dir.path(),
        "p.yaml",
        "autoRebalance:\n  - mode: add-brokers\n    template: { name: t }\n\
         scaleUpGracePeriod: 0s\ntemplates:\n  t: {}\n",
    );
    let mut op = Operate::start(&OperateOptions::new(
        &url,
        &bootstrap,
        &p,
        &dir.path().join("state"),
    ))
    .unwrap();
    wait_for("operate to say Cruise Control cannot be read", WAIT, || {
        Ok(op
            .log()
            .contains("Cruise Control cannot be read (looking again with backoff)")
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    // Nothing can start without Cruise Control, and operate keeps running.
    assert_eq!(op.exited(), None, "operate exited: {}", op.log());
    assert_eq!(count(&bootstrap, 3), 0, "{}", op.log());
    let t = epoch_ms();
    cc.restart().expect("cc-double starts again");
    wait_for("broker 3 to hold replicas", WAIT, || {
        Ok((count(&bootstrap, 3) > 0).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}\n--- double ---\n{}", op.log(), cc.log()));
    let adds = executions(&url, "add_broker", t).unwrap();
    assert_eq!(adds.len(), 1, "{adds:?}\n{}", op.log());
    assert!(adds[0].url.contains("brokerid=3"), "{adds:?}");
    let code = op.terminate().unwrap();
    let log = op.log();
    eprintln!("--- operate log ---\n{log}--- end ---");
    assert_eq!(code, Some(0), "{log}");
    // The outage was logged once when it began and once when it ended, not in every loop.
    assert_eq!(
        log.matches("Cruise Control cannot be read (looking again")
            .count(),
        1,
        "{log}"
    );
    assert_eq!(
        log.matches("Cruise Control answers again").count(),
        1,
        "{log}"
    );
}
