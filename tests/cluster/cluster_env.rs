//! The test environment itself, against real Kafka 4.x KRaft clusters: separate controllers and
//! brokers, combined nodes, static and dynamic (KIP-853) quorums, a controller added as an
//! observer, two Kafka releases (a node restarted onto the other's jars), node control (kill -9,
//! graceful stop, start, never comes back, slow start), broker state through the agent, racks,
//! and that nothing outlives a cluster.
//!
//! These tests start JVMs (about 20-60 s per cluster on 2 cores). The harness runs one cluster at
//! a time per process, so the tests in this binary serialize themselves; run with
//! `cargo test --test cluster cluster_env::` (add `-- --nocapture` to see timings).

use crate::support;
use support::WAIT;

use std::time::Duration;

use support::kafka::{
    BackgroundProducer, BrokerState, ClusterSpec, KafkaCluster, KafkaVersion, NodeRole, QuorumMode,
    broker_config, create_topic, pid_alive, placement, unfenced_brokers, wait_for,
};

/// Produces with `acks=all` to an RF=3, min.insync.replicas=2 topic while a broker is killed with
/// SIGKILL and started again; the real metadata must show the ISR shrink and then recover, and
/// no send may fail (one broker down keeps 2 in-sync replicas).
fn kill_broker_and_watch_isr(cluster: &mut KafkaCluster, victim: i32) {
    let bootstrap = cluster.bootstrap_servers();
    let b = cluster.broker_ids();
    assert_eq!(b.len(), 3, "this scenario needs 3 brokers");
    let assignment = vec![
        vec![b[0], b[1], b[2]],
        vec![b[1], b[2], b[0]],
        vec![b[2], b[0], b[1]],
    ];
    create_topic(
        &bootstrap,
        "isr-test",
        &assignment,
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    let before = placement(&bootstrap, "isr-test").expect("placement");
    for (p, want) in before.iter().zip(&assignment) {
        assert_eq!(&p.replicas, want, "replica assignment as requested");
    }
    wait_for("full ISR on every partition", WAIT, || {
        let p = placement(&bootstrap, "isr-test")?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
    })
    .unwrap();

    let producer = BackgroundProducer::start(&bootstrap, "isr-test").expect("producer");
    wait_for("first acknowledged sends", WAIT, || {
        Ok((producer.stats().sent >= 50).then_some(()))
    })
    .unwrap();

    cluster.kill_node(victim).expect("kill -9");
    assert_eq!(
        cluster.broker_state(victim).unwrap(),
        BrokerState::NotRunning
    );
    let shrunk = wait_for(&format!("ISR without broker {victim}"), WAIT, || {
        let p = placement(&bootstrap, "isr-test")?;
        Ok(p.iter()
            .all(|p| !p.isr.contains(&victim) && p.isr.len() == 2 && p.leader != victim)
            .then_some(p))
    })
    .unwrap();
    eprintln!("after kill -9 of {victim}: {shrunk:?}");
    wait_for(&format!("broker {victim} fenced"), WAIT, || {
        Ok((!unfenced_brokers(&bootstrap)?.contains(&victim)).then_some(()))
    })
    .unwrap();
    let acked = producer.stats().sent;
    wait_for("sends acknowledged while a broker is down", WAIT, || {
        Ok((producer.stats().sent >= acked + 50).then_some(()))
    })
    .unwrap();

    cluster.start_node(victim).expect("start");
    cluster
        .wait_until_unfenced(victim, WAIT)
        .expect("broker back");
    assert_eq!(cluster.broker_state(victim).unwrap(), BrokerState::Running);
    let recovered = wait_for(&format!("broker {victim} back in every ISR"), WAIT, || {
        let p = placement(&bootstrap, "isr-test")?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(p))
    })
    .unwrap();
    eprintln!("after restart of {victim}: {recovered:?}");
    let acked = producer.stats().sent;
    wait_for("sends acknowledged after the restart", WAIT, || {
        Ok((producer.stats().sent >= acked + 50).then_some(()))
    })
    .unwrap();

    let stats = producer.stop();
    eprintln!("producer: {stats:?}");
    assert!(stats.sent > 150);
    assert!(
        stats.failed_by_code.is_empty(),
        "acks=all sends failed: {:?}",
        stats.failed_by_code
    );
}

fn assert_all_gone(pids: &[u32]) {
    for pid in pids {
        assert!(!pid_alive(*pid), "process {pid} outlived its cluster");
    }
}

#[test]
fn split_cluster_isr_shrinks_and_recovers_when_a_broker_is_killed() {
    let mut cluster = KafkaCluster::start(ClusterSpec::split(3, 3)).expect("start 3+3");
    eprintln!(
        "3 controllers + 3 brokers ready in {:.1?}",
        cluster.start_duration()
    );
    assert_eq!(cluster.broker_ids(), vec![1, 2, 3]);
    assert_eq!(cluster.controller_ids(), vec![101, 102, 103]);
    assert_eq!(cluster.controller_bootstrap().split(',').count(), 3);
    let leader = cluster.quorum_leader().unwrap().expect("a quorum leader");
    assert!(cluster.controller_ids().contains(&leader));
    for id in cluster.broker_ids() {
        assert_eq!(cluster.broker_state(id).unwrap(), BrokerState::Running);
        let raft = cluster.raft_state(id).unwrap();
        assert_eq!(raft.state, "observer", "brokers observe the quorum");
        assert_eq!(raft.leader, Some(leader));
    }
    assert!(
        cluster.broker_state(101).is_err(),
        "controller-only nodes have no BrokerState"
    );
    // Static voters. (Kafka publishes no FinalizedLevel gauge for kraft.version 0: a level of 0
    // is left out of the finalized features, so there is nothing to read per node here.)
    assert_eq!(cluster.quorum_mode(), QuorumMode::Static);

    kill_broker_and_watch_isr(&mut cluster, 2);

    let pids: Vec<u32> = cluster
        .nodes()
        .iter()
        .filter_map(|n| cluster.pid(n.id))
        .collect();
    assert_eq!(pids.len(), 6);
    drop(cluster);
    assert_all_gone(&pids);
}

/// Also the dynamic-quorum formatting of several controllers (`--initial-controllers`): the
/// voters are the three nodes with the directory ids the harness chose, and an election still
/// happens when the leader is killed.
#[test]
fn combined_cluster_isr_shrinks_and_recovers_when_a_node_is_killed() {
    let mut cluster = KafkaCluster::start(ClusterSpec::combined(3).with_dynamic_quorum())
        .expect("start combined 3");
    eprintln!(
        "3 combined nodes (dynamic quorum) ready in {:.1?}",
        cluster.start_duration()
    );
    assert_eq!(cluster.broker_ids(), vec![1, 2, 3]);
    assert_eq!(cluster.controller_ids(), vec![1, 2, 3]);
    assert!(cluster.nodes().iter().all(|n| n.role == NodeRole::Combined));
    assert_eq!(cluster.finalized_level(1, "kraft.version").unwrap(), 1);
    let leader = cluster.quorum_leader().unwrap().expect("a quorum leader");
    let raft = cluster.raft_state(leader).unwrap();
    assert_eq!(raft.voters, Some(3));
    let dirs: std::collections::BTreeSet<String> = (1..=3)
        .map(|id| cluster.directory_id(id).unwrap())
        .collect();
    assert_eq!(
        dirs.len(),
        3,
        "each voter has its own directory id: {dirs:?}"
    );
    // Kill the node that leads the quorum: a controller election happens too.
    let victim = cluster.quorum_leader().unwrap().expect("a quorum leader");
    kill_broker_and_watch_isr(&mut cluster, victim);
    let new_leader = cluster.quorum_leader().unwrap().expect("a quorum leader");
    assert!(cluster.controller_ids().contains(&new_leader));
}

/// The previous Kafka release, a single-controller dynamic quorum (`--standalone`), a controller
/// added as an observer (`--no-initial-controllers`) on the current release, and a broker
/// restarted from the previous release's jars onto the current one. Every claim is read from
/// the nodes themselves through Jolokia (app-info version, raft-metrics, feature gauges).
#[test]
fn dynamic_quorum_grows_an_observer_and_a_node_changes_release() {
    let previous = KafkaVersion::Previous.number().unwrap();
    let current = KafkaVersion::Current.number().unwrap();
    assert_ne!(previous, current);
    let mut cluster = KafkaCluster::start(
        ClusterSpec::split(1, 1)
            .with_dynamic_quorum()
            .with_version(KafkaVersion::Previous),
    )
    .expect("start 1+1 on the previous release");
    eprintln!(
        "1 controller + 1 broker (dynamic, Kafka {previous}) ready in {:.1?}",
        cluster.start_duration()
    );
    for id in [1, 101] {
        assert_eq!(cluster.software_version(id).unwrap(), previous);
        assert_eq!(cluster.node_version(id).unwrap(), KafkaVersion::Previous);
        assert_eq!(cluster.finalized_level(id, "kraft.version").unwrap(), 1);
    }
    // Formatted by the previous release's tool: its latest metadata.version is finalized.
    let (_, previous_max) = cluster.supported_levels(1, "metadata.version").unwrap();
    assert_eq!(
        cluster.finalized_level(1, "metadata.version").unwrap(),
        previous_max
    );
    assert_eq!(cluster.raft_state(101).unwrap().state, "leader");
    assert_eq!(cluster.raft_state(101).unwrap().voters, Some(1));

    let began = std::time::Instant::now();
    let added = cluster
        .add_controller(KafkaVersion::Current, WAIT)
        .expect("add a controller");
    eprintln!("controller {added} observing in {:.1?}", began.elapsed());
    assert_eq!(added, 102);
    assert_eq!(cluster.raft_state(added).unwrap().state, "observer");
    assert_eq!(cluster.software_version(added).unwrap(), current);
    assert_eq!(cluster.controller_ids(), vec![101, 102]);
    assert!(cluster.directory_id(added).unwrap() != cluster.directory_id(101).unwrap());
    // Still one voter: adding it to the voters is kafkaops' job (AddRaftVoter).
    assert_eq!(cluster.raft_state(101).unwrap().voters, Some(1));

    let began = std::time::Instant::now();
    cluster
        .restart_node_onto(1, KafkaVersion::Current)
        .expect("restart broker 1 onto the current release");
    cluster.wait_until_unfenced(1, WAIT).expect("broker 1 back");
    eprintln!(
        "broker 1 back on Kafka {current} in {:.1?}",
        began.elapsed()
    );
    assert_eq!(cluster.software_version(1).unwrap(), current);
    assert_eq!(cluster.node_version(1).unwrap(), KafkaVersion::Current);
    let (_, current_max) = cluster.supported_levels(1, "metadata.version").unwrap();
    assert!(current_max > previous_max, "{current_max} > {previous_max}");
    // New software, same finalized level: nothing was upgraded by the restart.
    assert_eq!(
        cluster.finalized_level(1, "metadata.version").unwrap(),
        previous_max
    );
    assert_eq!(cluster.software_version(101).unwrap(), previous);
}

/// Graceful stop, failed sends counted by error code, "never comes back", slow start, racks, and
/// no processes left after a panic.
#[test]
fn node_control_faults_and_cleanup() {
    let mut pids = Vec::new();
    let mut work_dir = None;
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut cluster = KafkaCluster::start(
            ClusterSpec::split(1, 2)
                .with_racks(["rack-a", "rack-b"])
                .with_broker_prop("auto.leader.rebalance.enable", "false"),
        )
        .expect("start 1+2");
        work_dir = Some(cluster.work_dir());
        let bootstrap = cluster.bootstrap_servers();
        assert_eq!(
            broker_config(&bootstrap, 1, "broker.rack")
                .unwrap()
                .as_deref(),
            Some("rack-a")
        );
        assert_eq!(
            broker_config(&bootstrap, 2, "broker.rack")
                .unwrap()
                .as_deref(),
            Some("rack-b")
        );
        assert_eq!(
            broker_config(&bootstrap, 2, "auto.leader.rebalance.enable")
                .unwrap()
                .as_deref(),
            Some("false")
        );

        // A producer without retries on an RF=2, min.insync.replicas=2 topic led by broker 1.
        create_topic(
            &bootstrap,
            "needs-two",
            &[vec![1, 2]],
            &[("min.insync.replicas", "2")],
        )
        .unwrap();
        let producer = BackgroundProducer::start_with(
            &bootstrap,
            "needs-two",
            &[("enable.idempotence", "false"), ("retries", "0")],
        )
        .unwrap();
        wait_for("acknowledged sends", WAIT, || {
            Ok((producer.stats().sent >= 20).then_some(()))
        })
        .unwrap();

        // Graceful stop: the broker leaves the metadata, the process has exited.
        cluster.stop_node(2).expect("graceful stop");
        assert!(!cluster.is_running(2));
        assert_eq!(cluster.broker_state(2).unwrap(), BrokerState::NotRunning);
        wait_for("broker 2 gone from metadata", WAIT, || {
            Ok((!unfenced_brokers(&bootstrap)?.contains(&2)).then_some(()))
        })
        .unwrap();

        // With one replica in sync, acks=all sends fail and are counted by error code.
        wait_for("sends refused for lack of in-sync replicas", WAIT, || {
            let stats = producer.stats();
            Ok(stats
                .failed_by_code
                .get("NotEnoughReplicas")
                .is_some_and(|n| *n >= 5)
                .then_some(()))
        })
        .unwrap();
        let stats = producer.stop();
        eprintln!("producer with broker 2 stopped: {stats:?}");
        assert!(stats.sent >= 20);

        // Never comes back: the JVM starts and exits with an error.
        cluster.break_node(2);
        cluster.start_node(2).expect("spawn");
        let err = cluster
            .wait_until_unfenced(2, WAIT)
            .expect_err("a broken node must not come back");
        assert!(format!("{err:#}").contains("exited"), "{err:#}");
        assert!(!cluster.is_running(2));

        // Slow start: the process exists at once, Kafka comes up only after the delay.
        cluster.repair_node(2);
        // Long enough that the checks right after the spawn see the process without Kafka.
        cluster.set_slow_start(2, Duration::from_secs(6));
        cluster.start_node(2).expect("spawn slow");
        assert!(cluster.is_running(2));
        assert_eq!(cluster.broker_state(2).unwrap(), BrokerState::NotRunning);
        cluster.wait_until_unfenced(2, WAIT).expect("slow node up");
        cluster.set_slow_start(2, Duration::ZERO);

        // restart_node = graceful stop + start.
        cluster.restart_node(1).expect("restart");
        cluster.wait_until_unfenced(1, WAIT).expect("broker 1 back");
        cluster.wait_until_ready(WAIT).expect("cluster ready");

        pids.extend(cluster.nodes().iter().filter_map(|n| cluster.pid(n.id)));
        assert_eq!(pids.len(), 3);
        eprintln!("node_control_faults_and_cleanup: a deliberate panic follows");
        panic!("deliberate panic with a running cluster");
    }));
    let msg = outcome.expect_err("the closure panics");
    assert_eq!(
        msg.downcast_ref::<&str>().copied(),
        Some("deliberate panic with a running cluster"),
        "the scenario failed before the deliberate panic"
    );
    assert_all_gone(&pids);
    // Drop keeps the work dir of a panicking test for debugging; this panic was deliberate.
    let work_dir = work_dir.expect("cluster started");
    assert!(work_dir.exists(), "work dir kept after a panic");
    std::fs::remove_dir_all(work_dir).unwrap();
}

// ----- Harness behaviour that needs no cluster -----

#[test]
fn cluster_spec_rejects_impossible_layouts() {
    let err = |spec: ClusterSpec| KafkaCluster::start(spec).unwrap_err().to_string();
    assert!(err(ClusterSpec::split(0, 3)).contains("controller"));
    assert!(err(ClusterSpec::split(3, 0)).contains("broker"));
    assert!(err(ClusterSpec::combined(3).with_racks(["a", "b"])).contains("2 racks"));
    assert!(
        err(ClusterSpec::combined(3).with_node_version(101, KafkaVersion::Previous))
            .contains("no node 101")
    );
}

#[test]
fn wait_for_retries_errors_until_the_deadline_and_reports_the_last_one() {
    let mut calls = 0;
    let err = wait_for(
        "a condition that never holds",
        Duration::from_millis(300),
        || {
            calls += 1;
            Err::<Option<()>, _>(anyhow::anyhow!("attempt {calls} failed"))
        },
    )
    .unwrap_err()
    .to_string();
    assert!(calls > 1, "errors are retried");
    assert!(err.contains("a condition that never holds"), "{err}");
    assert!(err.contains(&format!("attempt {calls} failed")), "{err}");

    let mut calls = 0;
    let err = wait_for("a fatal condition", Duration::from_secs(60), || {
        calls += 1;
        Err::<Option<()>, _>(support::kafka::fatal("node exited"))
    })
    .unwrap_err();
    assert_eq!(calls, 1, "a fatal error stops the wait at once");
    assert!(format!("{err:#}").contains("node exited"));

    let mut calls = 0;
    let v = wait_for("the third call", Duration::from_secs(60), || {
        calls += 1;
        Ok((calls == 3).then_some(calls))
    })
    .unwrap();
    assert_eq!(v, 3);
}

#[test]
fn stale_work_dirs_of_dead_processes_are_pruned() {
    let tmp = std::env::temp_dir();
    let make = |name: &str, owner: &str, kept: bool| {
        let dir = tmp.join(format!(
            "kafkaops-kafka-selftest-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(dir.join("node-1")).unwrap();
        std::fs::write(dir.join("owner"), owner).unwrap();
        if kept {
            std::fs::write(dir.join("KEPT"), "").unwrap();
        }
        dir
    };
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead_pid = child.id();
    child.wait().unwrap();
    let dead = make("dead", &format!("{dead_pid} 12345"), false);
    let kept = make("kept", &format!("{dead_pid} 12345"), true);
    let live = make(
        "live",
        &support::kafka::owner_stamp(std::process::id()),
        false,
    );
    support::kafka::prune_stale_work_dirs();
    assert!(!dead.exists(), "dir of a dead owner is removed");
    assert!(kept.exists(), "dir kept on purpose stays");
    assert!(live.exists(), "dir of a live owner stays");
    std::fs::remove_dir_all(kept).unwrap();
    std::fs::remove_dir_all(live).unwrap();
}
