//! `kafkaops upgrade --to RELEASE` (issue #28) on a real cluster started on the previous Kafka
//! release (`tests/env/pom.xml` `kafka.previous.version`): the safe roll onto the current
//! release's jars, then `upgrade --finalize`, judged by what the nodes report through Jolokia
//! (their supported and finalized `metadata.version`, their app-info version) and by an
//! `acks=all` producer.
//!
//! The restart command is the control server's (`support::control`); its `before_restart` hook
//! plays the operator who changed the software a node starts with (the harness's
//! `set_node_version`), or forgot to:
//! 1. the dry run plans a "software version" restart of every node;
//! 2. a node that comes back on the old jars stops the upgrade (exit 1): no other node is
//!    restarted, nothing is finalized;
//! 3. with the jars changed, every node is rolled onto the current release with the producer
//!    running and no failed send; a second run has nothing left to do;
//! 4. `upgrade --finalize` raises `metadata.version` to the new release's latest, and leaves
//!    `kraft.version` alone; a roll back onto the previous release is then refused.
//!
//! Run with `cargo test --test cluster upgrade_roll:: -- --nocapture`.

use crate::support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use support::WAIT;
use support::bin::{Out, kafkaops, run};
use support::control::{ControlOptions, ControlServer, connection_args};
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, KafkaVersion, create_topic, placement, wait_for,
};

const TOPIC: &str = "upgraded";

/// `kafkaops [--yes] upgrade ARGS` against the cluster (the cluster lock is not held
/// meanwhile: the control server needs it).
fn upgrade<S: AsRef<str>>(conn: &[String], yes: bool, args: &[S]) -> Out {
    let mut cmd = kafkaops();
    cmd.args(conn);
    if yes {
        cmd.arg("--yes");
    }
    cmd.arg("upgrade").args(args.iter().map(AsRef::as_ref)).env(
        "KAFKAOPS_STATE_DIR",
        support::bin::test_state_dir("kafkaops-upgrade-roll-state"),
    );
    run(&mut cmd)
}

/// Each node's supported `metadata.version` maximum, per Jolokia.
fn supported_max(cluster: &Arc<Mutex<KafkaCluster>>, ids: &[i32]) -> Vec<i16> {
    let mut c = cluster.lock().unwrap();
    ids.iter()
        .map(|id| c.supported_levels(*id, "metadata.version").unwrap().1)
        .collect()
}

fn finalized(cluster: &Arc<Mutex<KafkaCluster>>, ids: &[i32], feature: &str) -> Vec<i16> {
    let mut c = cluster.lock().unwrap();
    ids.iter()
        .map(|id| c.finalized_level(*id, feature).unwrap())
        .collect()
}

/// `kraft.version` and the quorum's mode as `quorum status` reads them (level 0 has no Jolokia
/// gauge: Kafka leaves a level-0 feature out of its finalized features).
fn kraft_version(conn: &[String]) -> (i64, String) {
    let mut cmd = kafkaops();
    cmd.args(conn).args(["quorum", "status", "-o", "json"]);
    let status = run(&mut cmd).json();
    (
        status["kraft_version"].as_i64().unwrap_or(0),
        status["mode"].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn an_upgrade_rolls_every_node_onto_the_new_release_then_finalizes() {
    let previous = KafkaVersion::Previous.number().unwrap();
    let current = KafkaVersion::Current.number().unwrap();
    let cluster =
        KafkaCluster::start(ClusterSpec::combined(3).with_version(KafkaVersion::Previous))
            .expect("start 3 combined nodes on the previous release");
    let ids: Vec<i32> = cluster.nodes().iter().map(|n| n.id).collect();
    let bootstrap = cluster.bootstrap_servers();
    let conn = connection_args(&cluster);
    create_topic(
        &bootstrap,
        TOPIC,
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    wait_for("full ISRs", WAIT, || {
        let p = placement(&bootstrap, TOPIC)?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
    })
    .unwrap();
    let cluster = Arc::new(Mutex::new(cluster));
    let old_max = supported_max(&cluster, &ids);
    let mv_before = finalized(&cluster, &ids, "metadata.version");
    let kraft_before = kraft_version(&conn);
    assert_eq!(kraft_before, (0, "static".to_string()), "formatted static");
    eprintln!("on {previous}: supported max {old_max:?}, finalized {mv_before:?}");
    assert!(old_max.iter().all(|m| *m == old_max[0]));
    assert_eq!(mv_before, vec![old_max[0]; 3]);

    // The operator's part: the software a node starts with, changed (or not) before its restart.
    let switch = Arc::new(AtomicBool::new(false));
    let hook_switch = Arc::clone(&switch);
    let server = ControlServer::start_with(
        Arc::clone(&cluster),
        ControlOptions {
            before_restart: Some(Box::new(move |c: &mut KafkaCluster, id: i32| {
                if hook_switch.load(Ordering::SeqCst) {
                    c.set_node_version(id, KafkaVersion::Current)
                        .expect("switch the node's jars");
                }
            })),
            ..ControlOptions::default()
        },
    );
    let cmd = server.restart_command();
    let roll_args = |extra: &[&'static str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "--to",
            current.as_str(),
            "--restart-command",
            cmd.as_str(),
            "--poll-interval",
            "1s",
            "--post-restart-timeout",
            "3m",
            "-o",
            "json",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        v.extend(extra.iter().map(ToString::to_string));
        v
    };

    // ---- 1. the dry run: every node, a "software version" restart --------------------------
    let out = upgrade(&conn, false, &roll_args(&["--dry-run"]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.planned_roll_nodes(), vec![1, 2, 3]);
    let doc = out.json();
    for step in doc["plan"]["steps"].as_array().unwrap() {
        for n in step["nodes"].as_array().unwrap() {
            let reason = n["reason"].as_str().unwrap();
            assert!(
                reason.starts_with("software version: runs ")
                    && reason.contains(&format!("target {}", &current[..3])),
                "{reason}"
            );
        }
    }
    assert!(server.restarts().is_empty());

    // ---- 2. the jars were not changed: the first node back on them stops the upgrade ---------
    let out = upgrade(&conn, true, &roll_args(&[]));
    assert_eq!(out.code, 1, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["result"]["status"], "aborted", "{doc:#}");
    assert!(
        out.stderr.contains("wrong software") && out.stderr.contains("nothing was finalized"),
        "{}",
        out.stderr
    );
    let restarts = server.restarts();
    assert_eq!(
        restarts.len(),
        1,
        "one node restarted, then stopped: {restarts:?}"
    );
    let wrong = restarts[0].node;
    assert!(
        out.stderr
            .contains(&format!("node {wrong} came back on the wrong software")),
        "{}",
        out.stderr
    );
    {
        let mut c = cluster.lock().unwrap();
        c.wait_until_ready(WAIT).unwrap();
        assert!(
            c.software_version(wrong)
                .unwrap()
                .starts_with(&previous[..3])
        );
    }
    assert_eq!(
        supported_max(&cluster, &ids),
        old_max,
        "every node still on {previous}"
    );
    assert_eq!(
        finalized(&cluster, &ids, "metadata.version"),
        mv_before,
        "nothing finalized"
    );

    // ---- 3. the jars changed: every node rolled onto the current release, no failed send -----
    switch.store(true, Ordering::SeqCst);
    let producer = BackgroundProducer::start(&bootstrap, TOPIC).expect("producer");
    wait_for("the producer to get going", WAIT, || {
        Ok((producer.stats().sent > 50).then_some(()))
    })
    .unwrap();
    let out = upgrade(&conn, true, &roll_args(&[]));
    let stats = producer.stop();
    eprintln!("producer across the upgrade roll: {stats:?}");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc = out.json();
    assert_eq!(doc["result"]["status"], "done", "{doc:#}");
    let mut rolled: Vec<i32> = server.restarts()[1..].iter().map(|r| r.node).collect();
    rolled.sort_unstable();
    assert_eq!(rolled, ids, "each node once: {:?}", server.restarts());
    assert!(stats.sent > 0);
    assert_eq!(stats.failed(), 0, "{stats:?}");
    let new_max = supported_max(&cluster, &ids);
    assert!(
        new_max.iter().all(|m| *m > old_max[0] && *m == new_max[0]),
        "{new_max:?}"
    );
    {
        let mut c = cluster.lock().unwrap();
        for id in &ids {
            assert_eq!(c.software_version(*id).unwrap(), current);
        }
    }
    // Nothing finalized by the roll.
    assert_eq!(finalized(&cluster, &ids, "metadata.version"), mv_before);
    // Every node on the target: nothing left to do.
    let out = upgrade(&conn, true, &roll_args(&[]));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.planned_roll_nodes(), Vec::<i64>::new());
    assert_eq!(server.restarts().len(), 4);

    // ---- 4. finalize: metadata.version raised, kraft.version untouched ------------------------
    let out = upgrade(&conn, true, &["--finalize", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mv_after = finalized(&cluster, &ids, "metadata.version");
    eprintln!("metadata.version before {mv_before:?}, after {mv_after:?}");
    assert_eq!(mv_after, new_max);
    assert_eq!(
        kraft_version(&conn),
        kraft_before,
        "kraft.version untouched"
    );
    // Back onto the previous release's software: refused (its nodes could not load the
    // finalized level), nothing restarted.
    let out = upgrade(
        &conn,
        true,
        &["--to", previous.as_str(), "--restart-command", cmd.as_str()],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("below the finalized") && out.stderr.contains("nothing was changed"),
        "{}",
        out.stderr
    );
    assert_eq!(server.restarts().len(), 4);
}
