//! `kafkaops operate` on a plain host, end to end: a real KRaft cluster (1 controller + 4
//! brokers), the Cruise Control test double moving real replicas, and `operate` as a child
//! process with a policy file and a state directory. The oracles are Kafka's metadata (replicas
//! per broker) and the double's own record of the requests it got (`user_tasks`: endpoint,
//! dry run or execution, start time), never operate's own view.
//!
//! One cluster for the binary, steps in order (each starts and stops operate):
//! a) a broker added (empty) is filled with no command (add-brokers, short grace period);
//! b) a drain request empties the broker before it is stopped;
//! c) a drain and an add requested together run in the seed's order (remove_broker first);
//! d) operate killed (SIGKILL) in the middle of an execution and started again follows the
//!    running task (attaching through `user_tasks` when it died with the request in flight)
//!    without a second execution request; SIGTERM then leaves the execution running (exit 0)
//!    and the next start finishes it;
//! e) a desired broker configuration from the policy is rolled in (reconfigured, no restart);
//! f) a replication factor from the policy is applied (one `topic_configuration` execution).
//!
//! After a), `/metrics` carries the cluster's health verdict (`kafkaops_operate_health`).
//!
//! Before a): `--once --dry-run` says what it would do and sends and saves nothing; during b)
//! a second instance on the same state directory waits for the lock.
//!
//! `cargo test --test cluster operate_host:: -- --nocapture` shows the steps.

use crate::support;
use support::WAIT;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use support::bin::kafkaops_bin;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::control::{ControlServer, connection_args};
use support::kafka::{ClusterSpec, KafkaCluster, broker_config, create_topic, placement, wait_for};
use support::operate::{
    Operate, OperateOptions, epoch_ms, executions, fill, replicas_per_broker, saved_state,
    throttle, user_tasks, write_policy,
};

fn policy(drain: &[i32], modes: &[&str], grace: &str) -> String {
    let mut s = String::from("autoRebalance:\n");
    for m in modes {
        s.push_str(&format!("  - mode: {m}\n    template: {{ name: t }}\n"));
    }
    s.push_str(&format!(
        "scaleUpGracePeriod: {grace}\ndrain: [{}]\ntemplates:\n  t: {{}}\n",
        drain
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    ));
    s
}

fn count(bootstrap: &str, broker: i32) -> usize {
    replicas_per_broker(bootstrap)
        .unwrap()
        .get(&broker)
        .copied()
        .unwrap_or(0)
}

/// Waits until the saved state is Idle with nothing running.
fn wait_idle(state_dir: &Path, op: &Operate) {
    wait_for("operate's saved state to be Idle", WAIT, || {
        Ok(saved_state(state_dir).and_then(|s| {
            (s["rebalancer"]["state"] == "Idle" && s["mover"].is_null()).then_some(())
        }))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
}

/// SIGTERM: operate saves, releases and exits 0; its log is shown (`--nocapture`).
fn stop(op: &mut Operate) {
    let code = op.terminate().unwrap();
    let log = op.log();
    eprintln!("--- operate log ---\n{log}--- end ---");
    assert_eq!(code, Some(0), "{log}");
}

#[test]
fn operate_keeps_a_plain_host_cluster_as_the_policy_says() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let cluster = Arc::new(Mutex::new(
        KafkaCluster::start(ClusterSpec::split(1, 4)).expect("cluster"),
    ));
    let bootstrap = cluster.lock().unwrap().bootstrap_servers();
    // 12 partitions, RF 2, only on brokers 1-3: broker 4 is the new, empty broker.
    let on_123: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &on_123, &[]).unwrap();
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let url = cc.url();
    let dir = tempfile::tempdir().unwrap();
    let state_dir = dir.path().join("state");
    let all = ["add-brokers", "remove-brokers"];

    eprintln!("step a: an empty broker is filled with no command");
    assert_eq!(count(&bootstrap, 4), 0, "broker 4 starts empty");
    // --dry-run --once: says what it would do, does and saves nothing.
    let p = write_policy(dir.path(), "a0.yaml", &policy(&[], &all, "0s"));
    let t_dry = epoch_ms();
    let (code, out) = Operate::once(&{
        let mut o = OperateOptions::new(&url, &bootstrap, &p, &state_dir);
        o.extra_args = vec!["--dry-run".into()];
        o
    })
    .unwrap();
    eprintln!("--- operate --once --dry-run ---\n{out}--- end ---");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("rebalance-add-brokers brokers 4 dry-run"),
        "{out}"
    );
    let sent: Vec<_> = user_tasks(&url)
        .unwrap()
        .into_iter()
        .filter(|t| t.start_ms >= t_dry && !t.url.starts_with("GET"))
        .collect();
    assert!(sent.is_empty(), "a dry run only reads: {sent:?}");
    assert!(saved_state(&state_dir).is_none(), "a dry run saves nothing");
    // -o json: the plan is one JSON document on stdout (issue #26), not only log lines.
    let (code, out) = Operate::once(&{
        let mut o = OperateOptions::new(&url, &bootstrap, &p, &state_dir);
        o.extra_args = vec!["--dry-run".into(), "--output".into(), "json".into()];
        o
    })
    .unwrap();
    assert_eq!(code, 0, "{out}");
    let doc: serde_json::Value = serde_json::Deserializer::from_str(&out)
        .into_iter()
        .next()
        .expect("a JSON document first on stdout")
        .unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    assert_eq!(doc["actions"][0]["kind"], "rebalance-add-brokers", "{doc}");
    assert_eq!(doc["actions"][0]["target"], "brokers 4", "{doc}");
    assert_eq!(count(&bootstrap, 4), 0);
    let p = write_policy(dir.path(), "a.yaml", &policy(&[], &all, "2s"));
    let t_a = epoch_ms();
    let mut op = Operate::start(&OperateOptions::new(&url, &bootstrap, &p, &state_dir)).unwrap();
    wait_for("broker 4 to hold replicas", WAIT, || {
        Ok((count(&bootstrap, 4) > 0).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_idle(&state_dir, &op);
    let adds = executions(&url, "add_broker", t_a).unwrap();
    assert_eq!(
        adds.len(),
        1,
        "one add_broker execution: {adds:?}\n{}",
        op.log()
    );
    assert!(adds[0].url.contains("brokerid=4"), "{adds:?}");
    assert_eq!(adds[0].status, "Completed", "{adds:?}");
    assert!(executions(&url, "remove_broker", t_a).unwrap().is_empty());
    // The health verdict (issue #29) is on /metrics: exactly one verdict is 1, and with every
    // broker serving and nothing moving, it is healthy.
    let port = support::operate::http_port(&op).expect("operate's http port");
    let text = wait_for("the health verdict on /metrics", WAIT, || {
        let text = support::kafka::http_get(port, "/metrics")?;
        Ok((text.contains("kafkaops_operate_health{verdict=\"healthy\"} 1")).then_some(text))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("kafkaops_operate_health{") && l.ends_with(" 1"))
            .count(),
        1,
        "{text}"
    );
    stop(&mut op);
    let before_b = replicas_per_broker(&bootstrap).unwrap();
    eprintln!("placement after a: {before_b:?}");

    eprintln!("step b: a drain request empties the broker before it is stopped");
    let p = write_policy(dir.path(), "b.yaml", &policy(&[4], &all, "2s"));
    let t_b = epoch_ms();
    let mut op = Operate::start(&OperateOptions::new(&url, &bootstrap, &p, &state_dir)).unwrap();
    // A second instance on the same state directory waits for the lock and takes no action.
    wait_for("the first instance to lead", WAIT, || {
        Ok(op.log().contains(" leading; state ").then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let mut second =
        Operate::start(&OperateOptions::new(&url, &bootstrap, &p, &state_dir)).unwrap();
    wait_for("the second instance to wait for the lock", WAIT, || {
        Ok(second
            .log()
            .contains("another kafkaops operate holds")
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}\n---\n{}", second.log(), op.log()));
    wait_for("broker 4 to be empty", WAIT, || {
        Ok((count(&bootstrap, 4) == 0).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_idle(&state_dir, &op);
    wait_for("operate to say broker 4 is safe to stop", WAIT, || {
        Ok(op
            .log()
            .contains("broker 4 is drained (holds no replica): safe to stop")
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let second_code = second.terminate().unwrap();
    assert_eq!(second_code, Some(0), "{}", second.log());
    assert!(
        !second.log().contains("started"),
        "the waiting instance acted: {}",
        second.log()
    );
    let removes = executions(&url, "remove_broker", t_b).unwrap();
    assert_eq!(removes.len(), 1, "{removes:?}\n{}", op.log());
    assert!(removes[0].url.contains("brokerid=4"), "{removes:?}");
    // A drained broker is never a scale-up: no add_broker at all while it sits empty.
    assert!(
        user_tasks(&url)
            .unwrap()
            .iter()
            .all(|t| t.endpoint() != "add_broker" || t.start_ms < t_b),
        "{}",
        op.log()
    );
    stop(&mut op);
    // Stopping it loses nothing: every partition keeps both replicas on the other brokers.
    cluster.lock().unwrap().stop_node(4).unwrap();
    let after = replicas_per_broker(&bootstrap).unwrap();
    assert_eq!(
        after.values().sum::<usize>(),
        before_b.values().sum::<usize>(),
        "{after:?}"
    );
    cluster.lock().unwrap().start_node(4).unwrap();
    cluster
        .lock()
        .unwrap()
        .wait_until_unfenced(4, WAIT)
        .unwrap();

    eprintln!("step c: a drain and an add requested together run in the seed's order");
    assert_eq!(count(&bootstrap, 4), 0);
    assert!(count(&bootstrap, 3) > 0);
    let p = write_policy(dir.path(), "c.yaml", &policy(&[3], &all, "0s"));
    let t_c = epoch_ms();
    let mut op = Operate::start(&OperateOptions::new(&url, &bootstrap, &p, &state_dir)).unwrap();
    wait_for(
        "broker 3 to be empty and an add_broker to run",
        WAIT,
        || {
            let adds = user_tasks(&url)?
                .into_iter()
                .filter(|t| t.endpoint() == "add_broker" && t.start_ms >= t_c)
                .count();
            Ok((count(&bootstrap, 3) == 0 && adds > 0).then_some(()))
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_idle(&state_dir, &op);
    let tasks: Vec<_> = user_tasks(&url)
        .unwrap()
        .into_iter()
        .filter(|t| t.start_ms >= t_c)
        .collect();
    let remove = tasks
        .iter()
        .find(|t| t.endpoint() == "remove_broker" && t.executes())
        .unwrap_or_else(|| panic!("a remove_broker execution: {tasks:?}\n{}", op.log()));
    assert!(remove.url.contains("brokerid=3"), "{remove:?}");
    for t in tasks.iter().filter(|t| t.endpoint() == "add_broker") {
        assert!(
            t.start_ms >= remove.start_ms,
            "add_broker ({t:?}) before the remove_broker execution ({remove:?})\n{}",
            op.log()
        );
    }
    assert!(count(&bootstrap, 4) > 0, "broker 4 was filled");
    stop(&mut op);

    eprintln!("step d: killed mid-execution, restarted, it follows the task without a second one");
    assert_eq!(count(&bootstrap, 3), 0, "broker 3 is empty after c");
    create_topic(
        &bootstrap,
        "big",
        &[
            vec![1, 2],
            vec![2, 4],
            vec![4, 1],
            vec![1, 4],
            vec![2, 1],
            vec![4, 2],
        ],
        &[],
    )
    .unwrap();
    fill(&bootstrap, "big", 6, 300_000).unwrap();
    fill(&bootstrap, "orders", 12, 100_000).unwrap();
    throttle(&bootstrap, &["big", "orders"], &[1, 2, 3, 4], Some(10_000)).unwrap();
    let p = write_policy(dir.path(), "d.yaml", &policy(&[], &["add-brokers"], "0s"));
    let t_d = epoch_ms();
    let opts = OperateOptions::new(&url, &bootstrap, &p, &state_dir);
    let mut op = Operate::start(&opts).unwrap();
    let task = wait_for(
        "an add_broker execution of broker 3 in execution",
        WAIT,
        || {
            Ok(executions(&url, "add_broker", t_d)?
                .into_iter()
                .find(|t| t.status == "InExecution"))
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    assert!(task.url.contains("brokerid=3"), "{task:?}");
    op.kill().unwrap();
    let first_log = op.log();
    eprintln!("--- operate log (killed) ---\n{first_log}--- end ---");
    let saved = saved_state(&state_dir).expect("a saved state");
    // Killed after the answer was saved (the task id is in the state), or while the request
    // was in flight (saved before sending, no task id yet: the next instance must find the
    // task in user_tasks). Either way the restart must follow this task, not send another.
    let saved_task = saved["mover"]["flow"]["task_id"]
        .as_str()
        .map(str::to_string);
    match &saved_task {
        Some(id) => assert_eq!(id, &task.id, "{saved}\n{first_log}"),
        None => {
            assert_eq!(
                saved["mover"]["flow"]["phase"]["phase"], "starting",
                "{saved}"
            );
            assert!(saved["mover"]["requested_at"].is_u64(), "{saved}");
        }
    }
    eprintln!(
        "killed {}",
        if saved_task.is_some() {
            "after the task id was saved"
        } else {
            "with the execution request in flight (attach through user_tasks)"
        }
    );
    assert_eq!(
        executions(&url, "add_broker", t_d).unwrap()[0].status,
        "InExecution",
        "the execution still runs after the kill"
    );
    let mut op = Operate::start(&opts).unwrap();
    wait_for("the restarted operate to follow the task", WAIT, || {
        Ok(op
            .log()
            .contains(&format!("following the execution (task {})", task.id))
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    // SIGTERM while it executes: saved, released, exit 0, the execution left running.
    let code = op.terminate().unwrap();
    let second_log = op.log();
    eprintln!("--- operate log (SIGTERM) ---\n{second_log}--- end ---");
    assert_eq!(code, Some(0), "{second_log}");
    assert!(
        second_log.contains(&format!("Cruise Control task {} keeps running", task.id)),
        "{second_log}"
    );
    assert_eq!(
        executions(&url, "add_broker", t_d).unwrap()[0].status,
        "InExecution",
        "SIGTERM left the execution running"
    );
    let mut op = Operate::start(&opts).unwrap();
    wait_for("the third operate to follow the task", WAIT, || {
        Ok(op
            .log()
            .contains(&format!("following the execution (task {})", task.id))
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    throttle(&bootstrap, &[], &[1, 2, 3, 4], None).unwrap();
    wait_idle(&state_dir, &op);
    let adds = executions(&url, "add_broker", t_d).unwrap();
    assert_eq!(
        adds.len(),
        1,
        "exactly one add_broker execution across the restart: {adds:?}\n{first_log}\n---\n{}",
        op.log()
    );
    assert_eq!(adds[0].status, "Completed", "{adds:?}");
    let placed: BTreeMap<i32, usize> = replicas_per_broker(&bootstrap).unwrap();
    assert!(placed.get(&3).copied().unwrap_or(0) > 0, "{placed:?}");
    stop(&mut op);

    eprintln!("step e: a desired broker configuration is rolled in (reconfigured, no restart)");
    let server = ControlServer::start(Arc::clone(&cluster));
    let conn = connection_args(&cluster.lock().unwrap());
    let p = write_policy(
        dir.path(),
        "e.yaml",
        &(policy(&[], &["add-brokers"], "1h")
            + "roll:\n  brokerConfig:\n    log.cleaner.threads: \"2\"\n"),
    );
    let mut opts = OperateOptions::new(&url, &bootstrap, &p, &state_dir);
    opts.connection = Some(conn);
    opts.extra_args = vec!["--restart-command".into(), server.restart_command()];
    let mut op = Operate::start(&opts).unwrap();
    let brokers = [1, 2, 3, 4];
    wait_for(
        "every broker to run with log.cleaner.threads=2",
        WAIT,
        || {
            for b in brokers {
                if broker_config(&bootstrap, b, "log.cleaner.threads")?.as_deref() != Some("2") {
                    return Ok(None);
                }
            }
            Ok(Some(()))
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_for("the roll to end", WAIT, || {
        Ok(op
            .log()
            .contains("roll nodes 1,2,3,4 succeeded")
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_idle(&state_dir, &op);
    for b in brokers {
        assert!(
            op.log().contains(&format!("reconfigure node {b} started")),
            "each reconfiguration is recorded: {}",
            op.log()
        );
    }
    assert!(
        server.restarts().is_empty(),
        "a dynamic change restarted nodes: {:?}",
        server.restarts()
    );
    stop(&mut op);

    eprintln!("step f: a replication factor from the policy is applied (topic_configuration)");
    let p = write_policy(
        dir.path(),
        "f.yaml",
        &(policy(&[], &["add-brokers"], "1h") + "replicationFactors:\n  orders: 3\n"),
    );
    let t_f = epoch_ms();
    let mut op = Operate::start(&OperateOptions::new(&url, &bootstrap, &p, &state_dir)).unwrap();
    wait_for("every orders partition to have 3 replicas", WAIT, || {
        Ok(placement(&bootstrap, "orders")?
            .iter()
            .all(|p| p.replicas.len() == 3)
            .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    wait_idle(&state_dir, &op);
    let rf = executions(&url, "topic_configuration", t_f).unwrap();
    assert_eq!(
        rf.len(),
        1,
        "one topic_configuration execution: {rf:?}\n{}",
        op.log()
    );
    stop(&mut op);
}
