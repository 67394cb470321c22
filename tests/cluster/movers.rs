//! Playing well with other movers (issue #17), on a real 3-node KRaft cluster with the Cruise
//! Control double (`tests/env/cc-double`, `auto.stop.external.agent=false`), judged by Kafka's own
//! metadata (ListPartitionReassignments, replica placement) and the double's own state:
//!
//! - a slow reassignment started with the Admin API (replication throttle 1 KB/s) is listed by
//!   `reassignments list` as external, with adding/removing and progress;
//! - it blocks `rebalance add --execute` and `topic set-rf --execute` (exit 5, listed; nothing
//!   moves); `reassignments cancel` is a dry run by default, asks for confirmation, and with
//!   `--execute --yes` ends it (the partition is back on its original replicas);
//! - `--wait-for-reassignments` waits one out (the throttle is lifted while it waits) and then
//!   executes;
//! - without Kafka bootstrap servers kafkaops cannot look, and the double refuses like Cruise
//!   Control with its own message (exit 5).
//!
//! - `roll` lists the topics it cannot keep available on the nodes it restarts (RF 1, RF = min
//!   ISR), `--strict` refuses (no node restarted, per the control server's record), and the
//!   summary of a real roll names the risky topics it touched.
//!
//! - `roll` and other movers (issue 23, point 10): during a Cruise Control execution moving
//!   replicas onto the broker (the double's executor, throttled so it lasts) a roll refuses with
//!   exit 5, naming the task and saying the block clears when it ends, restarts nothing, and the
//!   execution completes; then the same roll runs. The external reassignment above is named in
//!   a roll's plan and confirmation, and `--strict` refuses (exit 5).
//!
//! - `rebalance pace` changes a running execution's concurrency live through `POST /admin`: the
//!   request on the wire (wiremock), and on the double the number of reassignments Kafka has in
//!   flight at once goes from 1 to 3 while the double's executor reports the new limit.
//!
//! - Cordoning (KIP-1066, Kafka 4.4 here): `broker cordon` keeps a topic Kafka places itself off
//!   the cordoned broker, `rebalance status` shows it; `rebalance remove --execute` cordons the
//!   leaving broker before anything moves, a topic created during the removal stays off it, and
//!   after `rebalance stop` the broker is uncordoned (its `cordoned.log.dirs` read back).
//!
//! Run with `cargo test --test cluster movers:: -- --nocapture` to see the steps.

use crate::support;
use support::WAIT;

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::admin::Admin;
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::control::{ControlServer, connection_args};
use support::kafka::{
    ClusterSpec, KafkaCluster, broker_config, create_topic, create_topic_placed_by_kafka,
    placement, produce_bulk, wait_for,
};

struct Env {
    bootstrap: Option<String>,
    cc_url: String,
}

fn command(env: &Env, args: &[&str]) -> std::process::Command {
    let mut cmd = support::bin::kafkaops();
    cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", &env.cc_url)
        .env(
            "KAFKAOPS_STATE_DIR",
            support::bin::test_state_dir("kafkaops-movers-test"),
        )
        .args(args);
    if let Some(b) = &env.bootstrap {
        cmd.env("KAFKAOPS_BOOTSTRAP_SERVERS", b);
    }
    cmd
}

fn kafkaops(env: &Env, args: &[&str]) -> Out {
    run(&mut command(env, args))
}

fn in_flight(admin: &Admin) -> Vec<(String, i32)> {
    admin
        .reassignments()
        .unwrap()
        .into_iter()
        .map(|r| (r.topic, r.partition))
        .collect()
}

fn replicas(bootstrap: &str, topic: &str, partition: i32) -> Vec<i32> {
    placement(bootstrap, topic)
        .unwrap()
        .into_iter()
        .find(|p| p.partition == partition)
        .map(|p| p.replicas)
        .unwrap()
}

/// Starts moving `ext`-0 from broker 1 onto 1 and 2 under a 1 KB/s throttle, so it stays in flight.
fn slow_reassignment(admin: &Admin) {
    admin
        .set_replication_throttle("ext", 0, &[1], &[2], &[1, 2], 1024)
        .unwrap();
    admin.reassign("ext", 0, &[1, 2]).unwrap();
    wait_for("the reassignment of ext-0 to show", WAIT, || {
        Ok(in_flight(admin)
            .contains(&("ext".to_string(), 0))
            .then_some(()))
    })
    .unwrap();
}

fn replicas_on(bootstrap: &str, topic: &str, broker: i32) -> usize {
    placement(bootstrap, topic)
        .unwrap()
        .iter()
        .filter(|p| p.replicas.contains(&broker))
        .count()
}

#[test]
fn external_reassignments_block_wait_and_cancel() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).unwrap();
    // 8 MB on broker 1 only: at 1 KB/s its copy to broker 2 takes hours unless unthrottled.
    create_topic(&bootstrap, "ext", &[vec![1]], &[]).unwrap();
    produce_bulk(&bootstrap, "ext", 800, 10_000, 1_000_000).unwrap();
    // Replicas on brokers 1 and 2 only, for add_broker 3 to move.
    let load: Vec<Vec<i32>> = (0..6)
        .map(|p| if p % 2 == 0 { vec![1, 2] } else { vec![2, 1] })
        .collect();
    create_topic(&bootstrap, "load", &load, &[]).unwrap();
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            extra_args: vec!["--auto-stop-external-agent".into(), "false".into()],
            ..CcDoubleOptions::default()
        },
    )
    .unwrap();
    let env = Env {
        bootstrap: Some(bootstrap.clone()),
        cc_url: cc.url(),
    };

    eprintln!("== nothing in flight");
    let o = kafkaops(&env, &["reassignments", "list", "-o", "json"]);
    assert_eq!(o.code, 0);
    assert_eq!(o.json()["reassignments"], Value::Array(vec![]));

    eprintln!("== a slow external reassignment is listed");
    slow_reassignment(&admin);
    let o = kafkaops(&env, &["reassignments", "list", "-o", "json"]);
    assert_eq!(o.code, 0);
    let list = o.json()["reassignments"].as_array().unwrap().clone();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["topic"], "ext");
    assert_eq!(list[0]["partition"], 0);
    assert_eq!(list[0]["adding"], serde_json::json!([2]));
    assert_eq!(list[0]["removing"], serde_json::json!([]));
    assert_eq!(list[0]["owner"], "external");
    assert_eq!(list[0]["adding_in_sync_count"], 0);
    assert_eq!(list[0]["adding_count"], 1);
    let table = kafkaops(&env, &["reassignments", "list"]);
    assert!(
        table.stdout.contains("ext-0") && table.stdout.contains("external"),
        "{}",
        table.stdout
    );

    eprintln!("== a roll names it in the plan and the confirmation; --strict refuses (exit 5)");
    let o = kafkaops(&env, &["roll", "--nodes", "3", "--dry-run", "-o", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let n = notes(&o.json()["notes"]);
    assert!(
        n.iter().any(|x| x.starts_with(
            "1 partition reassignment(s) in flight not started by Cruise Control (its executor \
             is idle): ext-0 (adding 2, removing none, 0/1 new replicas in sync)"
        )),
        "{n:#?}"
    );
    let o = kafkaops(
        &env,
        &["roll", "--nodes", "3", "--restart-command", "false"],
    );
    assert_eq!(o.code, 2, "no terminal to confirm: {}", o.stderr);
    assert!(
        o.stderr.contains(
            "Roll the cluster (1 step(s) above; 1 partition reassignment(s) in flight not \
             started by Cruise Control: ext-0)"
        ),
        "{}",
        o.stderr
    );
    // (`false` as the restart command: a roll that got as far as restarting would exit 1.)
    let o = kafkaops(
        &env,
        &[
            "--yes",
            "roll",
            "--nodes",
            "3",
            "--restart-command",
            "false",
            "--strict",
        ],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "--strict: 1 partition reassignment(s) not started by Cruise Control are in flight: \
             ext-0 (adding 2"
        ) && o.stderr.contains("nothing was changed"),
        "{}",
        o.stderr
    );

    eprintln!("== it blocks rebalance add --execute and topic set-rf --execute");
    let o = kafkaops(
        &env,
        &["rebalance", "add", "--brokers", "3", "--execute", "--yes"],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(
        o.stderr.contains("ext-0 (adding 2, removing none"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("--wait-for-reassignments"),
        "{}",
        o.stderr
    );
    let o = kafkaops(
        &env,
        &[
            "topic",
            "set-rf",
            "--topics",
            "load",
            "-r",
            "3",
            "--execute",
            "--yes",
        ],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(o.stderr.contains("ext-0"), "{}", o.stderr);
    assert_eq!(
        replicas_on(&bootstrap, "load", 3),
        0,
        "nothing may have moved"
    );
    assert_eq!(in_flight(&admin), vec![("ext".to_string(), 0)]);

    eprintln!("== cancel: dry run, then no confirmation without a terminal, then --yes");
    let o = kafkaops(&env, &["reassignments", "cancel", "ext-0", "nope-1"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("Dry run"), "{}", o.stdout);
    assert!(
        o.stdout.contains("nope-1: no reassignment in flight"),
        "{}",
        o.stdout
    );
    assert_eq!(in_flight(&admin), vec![("ext".to_string(), 0)]);
    let o = kafkaops(&env, &["reassignments", "cancel", "--all", "--execute"]);
    assert_ne!(
        o.code, 0,
        "no confirmation without a terminal: {}",
        o.stdout
    );
    assert_eq!(in_flight(&admin), vec![("ext".to_string(), 0)]);
    let o = kafkaops(
        &env,
        &[
            "reassignments",
            "cancel",
            "ext-0",
            "--execute",
            "--yes",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.json()["cancelled"][0]["topic"], "ext");
    wait_for("the cancelled reassignment to end", WAIT, || {
        Ok(in_flight(&admin).is_empty().then_some(()))
    })
    .unwrap();
    assert_eq!(
        replicas(&bootstrap, "ext", 0),
        vec![1],
        "back on its original replica"
    );
    let o = kafkaops(&env, &["reassignments", "cancel", "--all"]);
    assert_eq!(o.code, 0);
    assert!(o.stdout.contains("Nothing to cancel"), "{}", o.stdout);

    eprintln!("== without bootstrap servers the double refuses like Cruise Control");
    slow_reassignment(&admin);
    let no_kafka = Env {
        bootstrap: None,
        cc_url: cc.url(),
    };
    let o = kafkaops(
        &no_kafka,
        &["rebalance", "add", "--brokers", "3", "--execute", "--yes"],
    );
    assert_eq!(o.code, 5, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "Cannot execute new proposals while there are ongoing partition reassignments initiated by external agent: [ext-0]"
        ),
        "{}",
        o.stderr
    );
    assert_eq!(
        replicas_on(&bootstrap, "load", 3),
        0,
        "nothing may have moved"
    );

    eprintln!("== --wait-for-reassignments waits it out, then executes");
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = command(
        &env,
        &[
            "rebalance",
            "add",
            "--brokers",
            "3",
            "--execute",
            "--yes",
            "--wait-for-reassignments",
            "5m",
            "--poll-interval",
            "1s",
        ],
    )
    .stdout(Stdio::null())
    .stderr(log.reopen().unwrap())
    .spawn()
    .unwrap();
    let stderr = || {
        let mut s = String::new();
        log.reopen().unwrap().read_to_string(&mut s).unwrap();
        s
    };
    wait_for("kafkaops to say it waits", WAIT, || {
        Ok(stderr()
            .contains("Waiting up to 5m for 1 partition reassignment")
            .then_some(()))
    })
    .unwrap();
    assert_eq!(
        replicas_on(&bootstrap, "load", 3),
        0,
        "it must wait before moving"
    );
    admin.clear_replication_throttle("ext", &[1, 2]).unwrap();
    let status = wait_for(
        "the waiting rebalance to finish",
        Duration::from_secs(300),
        || Ok(child.try_wait()?),
    )
    .unwrap();
    eprintln!("{}", stderr());
    assert!(status.success(), "{status:?}\n{}", stderr());
    assert!(stderr().contains("have ended; going on"), "{}", stderr());
    // The external move finished (two replicas; add_broker may then have moved one onto 3).
    assert_eq!(
        replicas(&bootstrap, "ext", 0).len(),
        2,
        "the external move finished"
    );
    assert!(
        replicas_on(&bootstrap, "load", 3) > 0,
        "the rebalance moved replicas onto 3"
    );
    drop(cc);
}

fn roll(conn: &[String], args: &[&str]) -> Out {
    run(support::bin::kafkaops()
        .env(
            "KAFKAOPS_STATE_DIR",
            support::bin::test_state_dir("kafkaops-movers-roll"),
        )
        .args(conn)
        .args(["--yes", "roll", "--poll-interval", "1s"])
        .args(args))
}

fn notes(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn risky_topics_before_a_roll() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    create_topic(&bootstrap, "single", &[vec![2]], &[]).unwrap();
    create_topic(
        &bootstrap,
        "tight",
        &[vec![2, 3]],
        &[("min.insync.replicas", "2")],
    )
    .unwrap();
    create_topic(
        &bootstrap,
        "safe",
        &[vec![1, 2, 3]],
        &[("min.insync.replicas", "2")],
    )
    .unwrap();
    create_topic(&bootstrap, "far", &[vec![3]], &[]).unwrap();
    wait_for("full ISRs", WAIT, || {
        Ok(["tight", "safe"]
            .iter()
            .all(|t| {
                placement(&bootstrap, t)
                    .unwrap()
                    .iter()
                    .all(|p| p.isr.len() == p.replicas.len())
            })
            .then_some(()))
    })
    .unwrap();
    let conn = connection_args(&cluster);
    let cluster = std::sync::Arc::new(std::sync::Mutex::new(cluster));
    let server = ControlServer::start(std::sync::Arc::clone(&cluster));
    let cmd = server.restart_command();

    eprintln!("== dry run of node 2 lists single and tight, not safe or far");
    let o = roll(
        &conn,
        &[
            "--nodes",
            "2",
            "--restart-command",
            &cmd,
            "--dry-run",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let n = notes(&o.json()["notes"]);
    let about = |t: &str| {
        n.iter()
            .find(|x| x.starts_with(&format!("topic {t}:")))
            .cloned()
    };
    let single = about("single").unwrap_or_else(|| panic!("{n:#?}"));
    assert!(
        single.contains("replication factor 1 (on node(s) 2)"),
        "{single}"
    );
    let tight = about("tight").unwrap_or_else(|| panic!("{n:#?}"));
    assert!(
        tight.contains("replication factor 2 <= min.insync.replicas 2"),
        "{tight}"
    );
    assert!(about("safe").is_none() && about("far").is_none(), "{n:#?}");
    let text = roll(
        &conn,
        &["--nodes", "2", "--restart-command", &cmd, "--dry-run"],
    );
    assert!(
        text.stdout
            .contains("Note: topic single: replication factor 1"),
        "{}",
        text.stdout
    );

    eprintln!("== a roll of node 1 touches none of them");
    let o = roll(
        &conn,
        &[
            "--nodes",
            "1",
            "--restart-command",
            &cmd,
            "--dry-run",
            "-o",
            "json",
        ],
    );
    let n = notes(&o.json()["notes"]);
    assert!(
        !n.iter()
            .any(|x| x.starts_with("topic single:") || x.starts_with("topic tight:")),
        "{n:#?}"
    );

    eprintln!("== --strict refuses, dry run and real, and restarts nothing");
    let o = roll(
        &conn,
        &[
            "--nodes",
            "2",
            "--restart-command",
            &cmd,
            "--dry-run",
            "--strict",
        ],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("--strict: "), "{}", o.stderr);
    let o = roll(
        &conn,
        &[
            "--nodes",
            "2",
            "--restart-command",
            &cmd,
            "--strict",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert_eq!(o.json()["result"]["status"], "refused");
    assert!(server.restarts().is_empty(), "{:?}", server.restarts());

    eprintln!("== a real roll names the risky topics it touched");
    let o = roll(
        &conn,
        &[
            "--nodes",
            "2",
            "--restart-command",
            &cmd,
            "--post-restart-timeout",
            "3m",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let doc = o.json();
    assert_eq!(doc["result"]["status"], "done", "{doc:#}");
    assert_eq!(
        server.restarts().iter().map(|r| r.node).collect::<Vec<_>>(),
        vec![2]
    );
    let n = notes(&doc["result"]["notes"]);
    for t in ["single", "tight"] {
        assert!(
            n.iter()
                .any(|x| x.starts_with(&format!("affected risky topic {t}:"))),
            "{n:#?}"
        );
    }
    assert!(!n.iter().any(|x| x.contains("topic far:")), "{n:#?}");
    drop(server);
}

#[tokio::test]
async fn pace_sends_the_concurrency_to_the_admin_endpoint() {
    use kafkaops::cruise_control::params::ConcurrencyChange;
    use kafkaops::cruise_control::{ClientConfig, CruiseControlClient, LogObserver};
    use wiremock::matchers::{method, path, query_param, query_param_is_missing};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/admin"))
        .and(query_param("json", "true"))
        .and(query_param("concurrent_partition_movements_per_broker", "3"))
        .and(query_param("concurrent_leader_movements", "7"))
        .and(query_param("reason", "why"))
        .and(query_param_is_missing("dryrun"))
        .respond_with(ResponseTemplate::new(200).set_body_string(
            r#"{"ongoingConcurrencyChangeRequest":"Inter-broker partition movement concurrency is set to 3\nLeadership movement concurrency is set to 7\n","version":1}"#,
        ))
        .expect(1)
        .mount(&server)
        .await;
    let cc = CruiseControlClient::new(ClientConfig {
        url: server.uri().parse().unwrap(),
        username: None,
        password: None,
        ca_pem: None,
        timeout: Duration::from_secs(5),
        poll_interval: Duration::from_millis(10),
        backoff: kafkaops::cruise_control::retry::Backoff {
            initial: Duration::from_millis(10),
            max: Duration::from_millis(50),
            task_limit_pause: Duration::from_millis(10),
        },
        connect_to: None,
    })
    .unwrap();
    let change = ConcurrencyChange {
        partition_movements_per_broker: Some(3),
        leader_movements: Some(7),
    };
    let r = cc
        .change_concurrency(
            &change,
            "why",
            Instant::now() + Duration::from_secs(5),
            &LogObserver,
        )
        .await
        .unwrap();
    assert!(
        r.ongoing_concurrency_change_request
            .unwrap()
            .contains("Leadership movement concurrency is set to 7")
    );
}

/// The double's answer about one user task (`GET /user_tasks`): its `Status` (`None`: no
/// answer, e.g. all of its user-task slots are taken for a few seconds).
fn user_task_status(cc_url: &str, task: &str) -> Option<String> {
    let url =
        format!("{cc_url}/user_tasks?json=true&user_task_ids={task}&fetch_completed_task=true");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let body = rt
        .block_on(async { reqwest::get(&url).await?.text().await })
        .unwrap();
    let v = serde_json::from_str::<Value>(&body).ok()?;
    v["userTasks"][0]["Status"].as_str().map(str::to_string)
}

/// The double's executor state (`None`: no answer, e.g. its user-task slots are taken).
fn executor_state_name(cc_url: &str) -> Option<String> {
    executor_state(cc_url)["state"].as_str().map(str::to_string)
}

/// Issue 23, point 10: `roll --nodes 3 --yes` during an execution that moves replicas onto
/// broker 3 (the double's executor, throttled to 1 KB/s so it lasts) restarted the broker with
/// exit 0, and Cruise Control's execution died with it. Now the roll refuses (exit 5) naming the
/// task and saying the block clears when the execution ends; nothing is restarted; a dry run
/// shows the plan blocked on it; the execution completes once the throttle is lifted; and the
/// same roll then runs.
#[test]
fn a_roll_during_an_execution_refuses_naming_the_task_and_the_execution_completes() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).unwrap();
    // 4 partitions on brokers 1 and 2 with 2 MB each; add_broker 3 moves some onto 3.
    let assignment: Vec<Vec<i32>> = (0..4)
        .map(|p| if p % 2 == 0 { vec![1, 2] } else { vec![2, 1] })
        .collect();
    create_topic(&bootstrap, "moving", &assignment, &[]).unwrap();
    produce_bulk(&bootstrap, "moving", 1600, 5_000, 1_000_000).unwrap();
    admin
        .throttle_whole_topic("moving", &[1, 2, 3], 1024)
        .unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).unwrap();
    let env = Env {
        bootstrap: Some(bootstrap.clone()),
        cc_url: cc.url(),
    };
    let cluster = std::sync::Arc::new(std::sync::Mutex::new(cluster));
    let server = ControlServer::start(std::sync::Arc::clone(&cluster));
    let cmd = server.restart_command();

    eprintln!("== Cruise Control executes: replicas move onto broker 3");
    let o = kafkaops(
        &env,
        &[
            "rebalance",
            "add",
            "--brokers",
            "3",
            "--execute",
            "--yes",
            "--no-wait",
            "--concurrent-partition-movements-per-broker",
            "1",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let task = o.json()["task_id"].as_str().expect("a task id").to_string();
    wait_for("a reassignment adding broker 3", WAIT, || {
        Ok(admin
            .reassignments()?
            .iter()
            .any(|r| r.adding.contains(&3))
            .then_some(()))
    })
    .unwrap();

    eprintln!("== roll --nodes 3 refuses, naming the task; nothing restarts");
    let roll = [
        "--yes",
        "roll",
        "--nodes",
        "3",
        "--restart-command",
        cmd.as_str(),
        "--poll-interval",
        "1s",
        "-o",
        "json",
    ];
    let o = kafkaops(&env, &roll);
    assert_eq!(o.code, 5, "{}", o.stderr);
    for words in [
        "refusing to start the roll: Cruise Control is executing: ".to_string(),
        format!("(task {task})"),
        "the block clears when the execution ends".to_string(),
        format!("kafkaops rebalance status --task {task} --follow"),
        "nothing was changed".to_string(),
    ] {
        assert!(o.stderr.contains(&words), "{words:?} in:\n{}", o.stderr);
    }
    let doc = o.json();
    assert_eq!(doc["result"]["status"], "refused", "{doc:#}");
    assert_eq!(doc["result"]["exit_code"], 5, "{doc:#}");
    assert!(server.restarts().is_empty(), "{:?}", server.restarts());
    // A dry run shows the plan blocked on the execution (and is not refused).
    let o = kafkaops(&env, &["roll", "--nodes", "3", "--dry-run", "-o", "json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let step = &o.json()["plan"]["steps"][0];
    assert_eq!(step["action"], "blocked", "{step}");
    assert!(
        step["reason"]
            .as_str()
            .unwrap()
            .contains(&format!("task {task}")),
        "{step}"
    );
    let state = wait_for("the executor's state", WAIT, || {
        Ok(executor_state_name(&cc.url()))
    })
    .unwrap();
    assert_eq!(
        state, "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS",
        "the execution still runs"
    );

    eprintln!("== the throttle lifted, the execution completes");
    admin
        .clear_replication_throttle("moving", &[1, 2, 3])
        .unwrap();
    wait_for("the execution to end", WAIT, || {
        Ok(
            (executor_state_name(&cc.url()).as_deref() == Some("NO_TASK_IN_PROGRESS"))
                .then_some(()),
        )
    })
    .unwrap();
    let status = wait_for("the task's status", WAIT, || {
        Ok(user_task_status(&cc.url(), &task))
    })
    .unwrap();
    assert_eq!(status, "Completed");
    assert!(admin.reassignments().unwrap().is_empty());
    assert!(
        replicas_on(&bootstrap, "moving", 3) > 0,
        "the execution moved replicas onto broker 3"
    );

    eprintln!("== the block has cleared: the same roll runs");
    let o = kafkaops(&env, &roll);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(o.json()["result"]["status"], "done");
    assert_eq!(
        server.restarts().iter().map(|r| r.node).collect::<Vec<_>>(),
        vec![3]
    );
    drop(server);
    drop(cc);
}

/// The double's own ExecutorState (`GET /state?substates=executor`).
fn executor_state(cc_url: &str) -> Value {
    let url = format!("{cc_url}/state?json=true&substates=executor");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let body = rt
        .block_on(async { reqwest::get(&url).await?.text().await })
        .unwrap();
    serde_json::from_str::<Value>(&body).unwrap()["ExecutorState"].clone()
}

#[test]
fn pace_changes_the_running_execution_live() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).unwrap();
    // 8 partitions on brokers 1 and 2 with data; every move onto 3 is throttled to 1 KB/s,
    // so reassignments stay in flight and the number in flight at once is the concurrency.
    let assignment: Vec<Vec<i32>> = (0..8)
        .map(|p| if p % 2 == 0 { vec![1, 2] } else { vec![2, 1] })
        .collect();
    create_topic(&bootstrap, "paced", &assignment, &[]).unwrap();
    // 2 MB a partition: a follower's first fetch (replica.fetch.max.bytes, 1 MB) is not
    // throttled yet, the rest is.
    produce_bulk(&bootstrap, "paced", 3200, 5_000, 1_000_000).unwrap();
    admin
        .throttle_whole_topic("paced", &[1, 2, 3], 1024)
        .unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).unwrap();
    let env = Env {
        bootstrap: Some(bootstrap.clone()),
        cc_url: cc.url(),
    };

    eprintln!("== nothing executing: pace changes nothing");
    let o = kafkaops(&env, &["rebalance", "pace", "--concurrency", "3"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("not executing anything"), "{}", o.stderr);

    eprintln!("== an execution one partition at a time");
    let o = kafkaops(
        &env,
        &[
            "rebalance",
            "add",
            "--brokers",
            "3",
            "--execute",
            "--yes",
            "--no-wait",
            "--concurrent-partition-movements-per-broker",
            "1",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    wait_for("one reassignment in flight", WAIT, || {
        Ok((in_flight(&admin).len() == 1).then_some(()))
    })
    .unwrap();
    let e = executor_state(&cc.url());
    assert_eq!(e["maximumConcurrentPartitionMovementsPerBroker"], 1, "{e}");
    let pending = e["numPendingPartitionMovements"].as_u64().unwrap();
    assert!(pending >= 2, "enough moves left to see the change: {e}");
    // Held at 1 for a while: the limit, not chance.
    for _ in 0..5 {
        let now = in_flight(&admin);
        assert_eq!(
            now.len(),
            1,
            "{now:?}\n{}\n{:?}",
            executor_state(&cc.url()),
            placement(&bootstrap, "paced").unwrap()
        );
        std::thread::sleep(Duration::from_millis(300));
    }

    eprintln!("== pace --concurrency 3 --leader-concurrency 7");
    let o = kafkaops(
        &env,
        &[
            "rebalance",
            "pace",
            "--concurrency",
            "3",
            "--leader-concurrency",
            "7",
            "-o",
            "json",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v = o.json();
    assert_eq!(v["concurrency"], 3);
    assert!(
        v["cruise_control_says"]
            .as_str()
            .unwrap()
            .contains("Inter-broker partition movement concurrency is set to 3"),
        "{v}"
    );
    wait_for("three reassignments in flight", WAIT, || {
        Ok((in_flight(&admin).len() == 3).then_some(()))
    })
    .unwrap();
    let e = executor_state(&cc.url());
    assert_eq!(e["maximumConcurrentPartitionMovementsPerBroker"], 3, "{e}");

    let o = kafkaops(&env, &["rebalance", "stop"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    drop(cc);
}

/// Throttles every replica move of `topic` to 1 KB/s on `brokers`.
#[test]
fn cordoned_brokers_take_no_new_partitions() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let admin = Admin::connect(&cluster).unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).unwrap();
    let env = Env {
        bootstrap: Some(bootstrap.clone()),
        cc_url: cc.url(),
    };
    // What broker `b` itself says; kafkaops returns only once the broker shows its change.
    let cordon = |b: i32| broker_config(&bootstrap, b, "cordoned.log.dirs").unwrap();

    eprintln!("== broker cordon: a new topic stays off broker 2");
    let o = kafkaops(&env, &["broker", "cordon", "--brokers", "2"]);
    assert_ne!(o.code, 0, "no confirmation without a terminal");
    assert_eq!(cordon(2).filter(|v| !v.is_empty()), None);
    let o = kafkaops(&env, &["broker", "cordon", "--brokers", "2", "--yes"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(cordon(2).as_deref(), Some("*"));
    let o = kafkaops(&env, &["rebalance", "status", "-o", "json"]);
    assert_eq!(
        o.json()["cordoned_brokers"],
        serde_json::json!([2]),
        "{}",
        o.stdout
    );
    create_topic_placed_by_kafka(&bootstrap, "after-cordon", 12, 1).unwrap();
    assert_eq!(replicas_on(&bootstrap, "after-cordon", 2), 0);
    let o = kafkaops(&env, &["broker", "uncordon", "--brokers", "2", "--yes"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert_eq!(cordon(2).filter(|v| !v.is_empty()), None);
    let o = kafkaops(&env, &["rebalance", "status", "-o", "json"]);
    assert_eq!(
        o.json()["cordoned_brokers"],
        serde_json::json!([]),
        "{}",
        o.stdout
    );

    eprintln!("== rebalance remove cordons the leaving broker, stop uncordons it");
    let leaving: Vec<Vec<i32>> = (0..6).map(|_| vec![3]).collect();
    create_topic(&bootstrap, "leaving", &leaving, &[]).unwrap();
    produce_bulk(&bootstrap, "leaving", 2400, 5_000, 1_000_000).unwrap();
    admin
        .throttle_whole_topic("leaving", &[1, 2, 3], 1024)
        .unwrap();
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = command(
        &env,
        &[
            "rebalance",
            "remove",
            "--brokers",
            "3",
            "--execute",
            "--yes",
            "--poll-interval",
            "1s",
        ],
    )
    .stdout(Stdio::null())
    .stderr(log.reopen().unwrap())
    .spawn()
    .unwrap();
    let stderr = || {
        let mut s = String::new();
        log.reopen().unwrap().read_to_string(&mut s).unwrap();
        s
    };
    wait_for("the removal to move replicas", WAIT, || {
        Ok((!in_flight(&admin).is_empty()).then_some(()))
    })
    .unwrap();
    assert_eq!(cordon(3).as_deref(), Some("*"), "{}", stderr());
    create_topic_placed_by_kafka(&bootstrap, "during-removal", 12, 1).unwrap();
    assert_eq!(
        replicas_on(&bootstrap, "during-removal", 3),
        0,
        "a topic created during the removal must stay off the leaving broker"
    );
    let o = kafkaops(&env, &["rebalance", "status", "-o", "json"]);
    assert_eq!(
        o.json()["cordoned_brokers"],
        serde_json::json!([3]),
        "{}",
        o.stdout
    );
    let o = kafkaops(&env, &["rebalance", "stop"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let status = wait_for("the removal to end", WAIT, || Ok(child.try_wait()?)).unwrap();
    eprintln!("{}", stderr());
    assert!(
        !status.success(),
        "a stopped removal does not succeed: {status:?}"
    );
    assert_eq!(
        cordon(3).filter(|v| !v.is_empty()),
        None,
        "uncordoned after the stop:\n{}",
        stderr()
    );
    assert!(stderr().contains("Uncordoned broker(s) 3"), "{}", stderr());

    eprintln!("== --no-wait: the broker stays cordoned until `rebalance stop` stops that removal");
    wait_for("the stopped moves to be cancelled", WAIT, || {
        Ok(in_flight(&admin).is_empty().then_some(()))
    })
    .unwrap();
    let o = kafkaops(
        &env,
        &[
            "rebalance",
            "remove",
            "--brokers",
            "3",
            "--execute",
            "--yes",
            "--no-wait",
        ],
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("stay cordoned"), "{}", o.stderr);
    assert_eq!(cordon(3).as_deref(), Some("*"));
    let o = kafkaops(&env, &["rebalance", "stop"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("Uncordoned broker(s) 3"), "{}", o.stderr);
    assert_eq!(cordon(3).filter(|v| !v.is_empty()), None);
    drop(cc);
}
