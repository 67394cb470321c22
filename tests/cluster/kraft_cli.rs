//! `kafkaops quorum`, `broker list|unregister` and `upgrade` (issue #28) run as a user runs
//! them, against real Kafka clusters, judged by what the nodes report through other means
//! (Jolokia raft-metrics and feature gauges, rdkafka metadata, the harness's processes):
//! - a dynamic quorum grows from 3 to 4 voters and shrinks back with an `acks=all` producer
//!   running and no failed send; the active controller's removal is refused;
//! - a ghost broker: refused while it holds a replica, listed fenced and not running once its
//!   replicas moved away and it stopped, then unregistered;
//! - an upgrade from the previous Kafka release: the dry run names each node's software,
//!   `--finalize` is refused while one node still runs the old release, then finalizes;
//! - a static quorum is migrated to dynamic; a removal that would leave no caught-up majority
//!   is refused with nothing changed.
//!
//! Run with `cargo test --test cluster kraft_cli:: -- --nocapture`.

use crate::support;
use support::WAIT;

use serde_json::Value;
use support::bin::{Out, kafkaops, run};
use support::control::connection_args;
use support::kafka::{
    BackgroundProducer, ClusterSpec, KafkaCluster, KafkaVersion, create_topic, placement, wait_for,
};

fn cli(cluster: &KafkaCluster, args: &[&str]) -> Out {
    let mut cmd = kafkaops();
    cmd.args(connection_args(cluster)).args(args);
    run(&mut cmd)
}

fn json(out: &Out) -> Value {
    out.json()
}

fn voter_ids(status: &Value) -> Vec<i64> {
    let mut v: Vec<i64> = status["voters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    v.sort_unstable();
    v
}

/// The voter count the active controller reports through Jolokia (not through kafkaops).
fn jolokia_voters(cluster: &mut KafkaCluster) -> anyhow::Result<Option<u32>> {
    let leader = cluster
        .quorum_leader()?
        .ok_or_else(|| anyhow::anyhow!("no leader"))?;
    Ok(cluster.raft_state(leader)?.voters)
}

#[test]
fn quorum_grows_and_shrinks_a_ghost_is_unregistered_and_an_upgrade_is_finalized() {
    let mut spec = ClusterSpec::combined(3)
        .with_dynamic_quorum()
        .with_version(KafkaVersion::Previous);
    spec.brokers = 1;
    let mut cluster = KafkaCluster::start(spec).expect("start 3 combined + 1 broker");
    let bootstrap = cluster.bootstrap_servers();

    // ---- quorum status ---------------------------------------------------------------------
    let out = cli(&cluster, &["quorum", "status", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let status = json(&out);
    assert_eq!(status["mode"], "dynamic");
    assert_eq!(status["verdict"]["verdict"], "healthy");
    assert_eq!(voter_ids(&status), vec![1, 2, 3]);
    for v in status["voters"].as_array().unwrap() {
        let id = i32::try_from(v["id"].as_i64().unwrap()).unwrap();
        assert_eq!(
            v["directory_id"].as_str(),
            Some(cluster.directory_id(id).unwrap().as_str())
        );
    }
    let leader = cluster.quorum_leader().unwrap().unwrap();
    assert_eq!(status["leader"].as_i64(), Some(i64::from(leader)));

    create_topic(
        &bootstrap,
        "kraft-acks",
        &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
        &[("min.insync.replicas", "2")],
    )
    .unwrap();
    create_topic(&bootstrap, "ghost", &[vec![4, 1]], &[]).unwrap();
    let producer = BackgroundProducer::start(&bootstrap, "kraft-acks").unwrap();

    // ---- grow 3 -> 4 -----------------------------------------------------------------------
    let added = cluster
        .add_controller(KafkaVersion::Current, WAIT)
        .expect("a controller observing");
    // Without a terminal and without --yes nothing changes.
    let out = cli(
        &cluster,
        &["quorum", "add", "--controller", &added.to_string()],
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(jolokia_voters(&mut cluster).unwrap(), Some(3));
    let out = cli(
        &cluster,
        &[
            "quorum",
            "add",
            "--controller",
            &added.to_string(),
            "--yes",
            "-o",
            "json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(voter_ids(&json(&out)), vec![1, 2, 3, i64::from(added)]);
    wait_for("4 voters per Jolokia", WAIT, || {
        Ok((jolokia_voters(&mut cluster)? == Some(4)
            && cluster.raft_state(added)?.state == "follower")
            .then_some(()))
    })
    .unwrap();
    // Adding it again: nothing to do (exit 0), nothing sent.
    let out = cli(
        &cluster,
        &["quorum", "add", "--controller", &added.to_string(), "--yes"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("already a voter"), "{}", out.stderr);
    // A broker is not a controller: usage error.
    let out = cli(&cluster, &["quorum", "add", "--controller", "4", "--yes"]);
    assert_eq!(out.code, 2, "{}", out.stderr);

    // ---- the active controller is not removed directly ---------------------------------------
    let leader = cluster.quorum_leader().unwrap().unwrap();
    let out = cli(
        &cluster,
        &[
            "quorum",
            "remove",
            "--controller",
            &leader.to_string(),
            "--yes",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("active controller"), "{}", out.stderr);
    assert_eq!(jolokia_voters(&mut cluster).unwrap(), Some(4));

    // ---- shrink 4 -> 3 -----------------------------------------------------------------------
    let out = cli(
        &cluster,
        &[
            "quorum",
            "remove",
            "--controller",
            &added.to_string(),
            "--yes",
            "-o",
            "json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(voter_ids(&json(&out)), vec![1, 2, 3]);
    wait_for("3 voters per Jolokia", WAIT, || {
        Ok((jolokia_voters(&mut cluster)? == Some(3)).then_some(()))
    })
    .unwrap();
    let stats = producer.stats();
    eprintln!("producer across the quorum changes: {stats:?}");
    assert!(stats.sent > 0);
    assert_eq!(stats.failed(), 0, "{stats:?}");
    // The removed controller keeps running (an observer) until the end: stopped, its
    // registration stays and `upgrade --finalize` could not ask it (it refuses then).

    // ---- ghost broker 4 ----------------------------------------------------------------------
    cluster.stop_node(4).expect("stop broker 4");
    wait_for("broker 4 fenced", WAIT, || {
        let out = cli(&cluster, &["broker", "list", "-o", "json"]);
        let list = json(&out);
        Ok(list
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["id"] == 4 && b["fenced"] == true)
            .then_some(()))
    })
    .unwrap();
    // It still holds ghost-0: refused, with or without --execute, nothing changed.
    for extra in [&[][..], &["--execute", "--yes"][..]] {
        let mut args = vec!["broker", "unregister", "--brokers", "4"];
        args.extend_from_slice(extra);
        let out = cli(&cluster, &args);
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(out.stderr.contains("ghost-0"), "{}", out.stderr);
    }
    let list = json(&cli(&cluster, &["broker", "list", "-o", "json"]));
    let b4 = list
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == 4)
        .expect("broker 4 still registered")
        .clone();
    assert_eq!(b4["running"], false);
    assert_eq!(b4["holds"][0][0], "ghost");
    // Move its replica away (a plain Kafka reassignment), then it may go.
    let admin = support::admin::Admin::connect(&cluster).unwrap();
    admin.reassign("ghost", 0, &[1, 2]).unwrap();
    wait_for("ghost-0 on [1, 2]", WAIT, || {
        let p = placement(&bootstrap, "ghost")?;
        Ok((p[0].replicas == vec![1, 2]).then_some(()))
    })
    .unwrap();
    wait_for("broker 4 holds nothing", WAIT, || {
        let out = cli(&cluster, &["broker", "unregister", "--brokers", "4"]);
        Ok((out.code == 0).then_some(()))
    })
    .unwrap();
    let out = cli(
        &cluster,
        &[
            "broker",
            "unregister",
            "--brokers",
            "4",
            "--execute",
            "--yes",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let list = json(&cli(&cluster, &["broker", "list", "-o", "json"]));
    assert!(
        !list.as_array().unwrap().iter().any(|b| b["id"] == 4),
        "{list}"
    );
    // Unknown broker: usage.
    let out = cli(&cluster, &["broker", "unregister", "--brokers", "4"]);
    assert_eq!(out.code, 2, "{}", out.stderr);

    // ---- upgrade ----------------------------------------------------------------------------
    let previous_mv = cluster.finalized_level(1, "metadata.version").unwrap();
    let out = cli(&cluster, &["upgrade", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let plan = json(&out);
    let previous = KafkaVersion::Previous.number().unwrap();
    let current = KafkaVersion::Current.number().unwrap();
    for n in plan["nodes"].as_array().unwrap() {
        let release = if n["id"] == added {
            &current
        } else {
            &previous
        };
        assert!(
            release.starts_with(n["release"].as_str().unwrap()),
            "{n} on {release}"
        );
    }
    assert_eq!(plan["would_finalize"], Value::Array(vec![]), "{plan}");
    let producer = BackgroundProducer::start(&bootstrap, "kraft-acks").unwrap();
    for id in [1, 2] {
        cluster
            .restart_node_onto(id, KafkaVersion::Current)
            .unwrap();
        cluster.wait_until_ready(WAIT).unwrap();
    }
    let new_mv = cluster.supported_levels(1, "metadata.version").unwrap().1;
    assert!(new_mv > previous_mv);
    // Node 3 still runs the previous release: refused, nothing finalized.
    let feature = format!("metadata.version={new_mv}");
    let out = cli(
        &cluster,
        &["upgrade", "--finalize", "--feature", &feature, "--yes"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("node 3"), "{}", out.stderr);
    assert_eq!(
        cluster.finalized_level(1, "metadata.version").unwrap(),
        previous_mv
    );
    cluster.restart_node_onto(3, KafkaVersion::Current).unwrap();
    cluster.wait_until_ready(WAIT).unwrap();
    let out = cli(&cluster, &["upgrade", "--finalize", "--yes", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let finalized = json(&out);
    assert!(
        finalized
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["feature"] == "metadata.version" && c["to"] == i64::from(new_mv)),
        "{finalized}"
    );
    for id in [1, 2, 3] {
        assert_eq!(
            cluster.finalized_level(id, "metadata.version").unwrap(),
            new_mv
        );
        assert_eq!(cluster.finalized_level(id, "kraft.version").unwrap(), 1);
    }
    let stats = producer.stop();
    eprintln!("producer across the upgrade: {stats:?}");
    assert_eq!(stats.failed(), 0, "{stats:?}");
    cluster.stop_node(added).unwrap();
}

#[test]
fn a_static_quorum_migrates_then_a_removal_without_majority_is_refused() {
    let mut cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("start 3 combined");
    let out = cli(&cluster, &["quorum", "status", "-o", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(json(&out)["mode"], "static");
    // A static quorum's membership cannot change.
    let out = cli(
        &cluster,
        &["quorum", "remove", "--controller", "1", "--yes"],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("quorum migrate"), "{}", out.stderr);

    let out = cli(
        &cluster,
        &["quorum", "migrate", "--yes", "--wait", "90s", "-o", "json"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(json(&out)["mode"], "dynamic");
    for id in [1, 2, 3] {
        assert_eq!(cluster.finalized_level(id, "kraft.version").unwrap(), 1);
    }
    // Again: nothing to do.
    let out = cli(&cluster, &["quorum", "migrate", "--yes"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("already dynamic"), "{}", out.stderr);

    // Stop one follower: removing the other would leave 1 of 2 voters caught up.
    let leader = cluster.quorum_leader().unwrap().unwrap();
    let followers: Vec<i32> = [1, 2, 3].into_iter().filter(|id| *id != leader).collect();
    cluster.kill_node(followers[0]).unwrap();
    let out = cli(&cluster, &["quorum", "status", "-o", "json"]);
    assert_eq!(out.code, 4, "{}", out.stderr);
    assert_eq!(json(&out)["verdict"]["verdict"], "voter-lagging");
    let out = cli(
        &cluster,
        &[
            "quorum",
            "remove",
            "--controller",
            &followers[1].to_string(),
            "--yes",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("needed for a majority"),
        "{}",
        out.stderr
    );
    assert_eq!(jolokia_voters(&mut cluster).unwrap(), Some(3));
    let out = cli(&cluster, &["quorum", "status", "-o", "json"]);
    assert_eq!(voter_ids(&json(&out)), vec![1, 2, 3]);
}
