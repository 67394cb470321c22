//! What a user still hit against a real Cruise Control (issue #25), end to end: kafkaops against
//! the Cruise Control double (which answers as reference section 14 records) over a real
//! 1-controller + 4-broker KRaft cluster. The oracles are ground truth: Kafka's placement and
//! configs, and the double's own user tasks (what it was really asked to execute).
//!
//! One cluster for the whole test (steps in order); run with
//! `cargo test --test cluster cc_second_round:: -- --nocapture` to see the steps.

use crate::support;
use support::WAIT;

use std::collections::BTreeMap;

use kafkaops::kafka::{ConfigChange, ConfigTarget};
use serde_json::Value;
use support::admin::Admin;
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

/// kafkaops with the double's URL and Kafka's bootstrap servers.
fn kafkaops(cc: &CcDouble, bootstrap: &str, args: &[&str]) -> Out {
    run(support::bin::kafkaops()
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
        .env("KAFKAOPS_BOOTSTRAP_SERVERS", bootstrap)
        .args(args))
}

/// (topic, partition) -> (leader, replicas), from the real cluster metadata.
fn placement_of(bootstrap: &str, topics: &[&str]) -> BTreeMap<(String, i32), (i32, Vec<i32>)> {
    let mut m = BTreeMap::new();
    for t in topics {
        for p in placement(bootstrap, t).unwrap() {
            m.insert(((*t).to_string(), p.partition), (p.leader, p.replicas));
        }
    }
    m
}

fn cc_get(cc: &CcDouble, path_and_query: &str) -> Value {
    let url = format!("{}/{path_and_query}", cc.url());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let text = reqwest::get(&url).await.unwrap().text().await.unwrap();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: {e}: {text}"))
    })
}

fn cc_post(cc: &CcDouble, path_and_query: &str) -> String {
    let url = format!("{}/{path_and_query}", cc.url());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let r = reqwest::Client::new().post(&url).send().await.unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        assert!(status.is_success(), "{url}: {status}: {text}");
        text
    })
}

fn executor_state(cc: &CcDouble) -> String {
    cc_get(cc, "state?json=true&substates=executor")["ExecutorState"]["state"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The request URLs of the executions the double was asked for.
fn executions_requested(cc: &CcDouble) -> Vec<String> {
    let tasks = cc_get(cc, "user_tasks?json=true");
    tasks["userTasks"]
        .as_array()
        .unwrap_or_else(|| panic!("user_tasks: {tasks}"))
        .iter()
        .filter_map(|t| t["RequestURL"].as_str())
        .filter(|u| u.contains("dryrun=false"))
        .map(str::to_string)
        .collect()
}

fn double(bootstrap: &str) -> CcDouble {
    CcDouble::start(
        bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            // A stop (by a user, or by Cruise Control for dead tasks) lingers in
            // STOPPING_EXECUTION, as a real one's does for ~45 s (section 14).
            stop_linger: Some(std::time::Duration::from_secs(2)),
            ..Default::default()
        },
    )
    .expect("cc-double")
}

#[test]
fn what_a_user_still_hit_against_a_real_cruise_control() {
    let _ = kafkaops_bin(); // copy it now, before anything else can rebuild it
    let mut cluster = KafkaCluster::start(ClusterSpec::split(1, 4)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // 12 partitions, RF 2, only on brokers 1-3: broker 4 is the one added back.
    let on_123: Vec<Vec<i32>> = (0..12)
        .map(|i| {
            let a = [1, 2, 3];
            vec![a[i % 3], a[(i + 1) % 3]]
        })
        .collect();
    create_topic(&bootstrap, "orders", &on_123, &[]).unwrap();
    let cc = double(&bootstrap);
    let fast = ["--poll-interval", "200ms"];
    let with_fast = |args: &[&'static str]| -> Vec<&'static str> {
        args.iter().chain(fast.iter()).copied().collect()
    };

    eprintln!(
        "step (point 1): a broker left cordoned by a removal is seen before anything is sent, \
         and a failed execution says what Kafka refused"
    );
    let admin = Admin::connect(&cluster).unwrap();
    admin
        .alter(
            ConfigTarget::Broker(4),
            vec![ConfigChange::set("cordoned.log.dirs", "*")],
        )
        .unwrap();
    wait_for("the controller to know broker 4 is cordoned", WAIT, || {
        Ok(crate::cc_double::controller_refuses_placement_on(&bootstrap, 4)?.then_some(()))
    })
    .unwrap();
    let before = placement_of(&bootstrap, &["orders"]);
    let dry = kafkaops(&cc, &bootstrap, &["rebalance", "add", "--brokers", "4"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(
        dry.stderr.contains("broker(s) 4 are cordoned"),
        "the dry run warns: {}",
        dry.stderr
    );
    let r = kafkaops(
        &cc,
        &bootstrap,
        &with_fast(&["rebalance", "add", "--brokers", "4", "--execute", "--yes"]),
    );
    assert_eq!(r.code, 1, "refused: {}", r.stderr);
    assert!(
        r.stderr.contains("broker(s) 4 are cordoned"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("broker uncordon --brokers 4"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("nothing was sent"), "{}", r.stderr);
    assert_eq!(executions_requested(&cc), Vec::<String>::new());
    assert_eq!(placement_of(&bootstrap, &["orders"]), before);
    // A full rebalance has no named destinations: Cruise Control proposes to fill the empty
    // broker 4, Kafka refuses the moves, and the failure says so.
    let r = kafkaops(
        &cc,
        &bootstrap,
        &with_fast(&["rebalance", "full", "--execute", "--yes"]),
    );
    assert_eq!(r.code, 1, "failed: {}\n{}", r.stderr, cc.log());
    assert!(
        r.stderr
            .contains("Kafka refuses moves onto cordoned broker(s) 4"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("partition(s) with moved replicas"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("may have moved"), "{}", r.stderr);
    // Point 16: what Cruise Control did, how far the proposal got, what is left in Kafka, and
    // what to do next.
    for said in [
        "Cruise Control stopped it itself",
        "dead tasks",
        "partition movement(s) of the proposal done",
        "no reassignment is still in flight",
        "no replication throttle was left behind",
        "next: uncordon them",
    ] {
        assert!(r.stderr.contains(said), "{said}: {}", r.stderr);
    }
    assert!(
        placement_of(&bootstrap, &["orders"])
            .values()
            .all(|(_, r)| !r.contains(&4)),
        "nothing landed on broker 4"
    );
    admin
        .alter(
            ConfigTarget::Broker(4),
            vec![ConfigChange::delete("cordoned.log.dirs")],
        )
        .unwrap();
    wait_for(
        "the controller to know broker 4 is uncordoned",
        WAIT,
        || Ok((!crate::cc_double::controller_refuses_placement_on(&bootstrap, 4)?).then_some(())),
    )
    .unwrap();

    eprintln!(
        "step (point 2): `topic set-rf` shows every topic the proposal touches (other topics' \
         leaders), and that is what runs"
    );
    let skew: Vec<Vec<i32>> = (0..6).map(|i| vec![1, 2 + i % 2]).collect();
    create_topic(&bootstrap, "skew", &skew, &[]).unwrap();
    let rfx: Vec<Vec<i32>> = (0..3).map(|i| vec![2 + i % 2, 3 - i % 2]).collect();
    create_topic(&bootstrap, "rfx", &rfx, &[]).unwrap();
    let state = tempfile::tempdir().unwrap();
    let state_dir = state.path().to_str().unwrap();
    let set_rf = |extra: &[&str]| {
        let mut args = vec![
            "topic",
            "set-rf",
            "--topics",
            "rfx",
            "--replication-factor",
            "3",
            "--state-dir",
            state_dir,
        ];
        args.extend(extra);
        args.extend(fast);
        kafkaops(&cc, &bootstrap, &args)
    };
    let dry = set_rf(&["-o", "json"]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    let v = dry.json();
    let touched = v["proposal"]["topics"].as_array().unwrap().clone();
    assert_eq!(touched[0]["topic"], "rfx", "{v}");
    assert_eq!(touched[0]["named"], true, "{v}");
    assert_eq!(touched[0]["replica_movements"], 3, "{v}");
    let others: Vec<&str> = touched
        .iter()
        .filter(|t| t["named"] == false)
        .map(|t| t["topic"].as_str().unwrap())
        .collect();
    assert!(others.contains(&"skew"), "other topics' leaders move: {v}");
    let table = set_rf(&[]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("It also moves") && table.stdout.contains("skew ("),
        "{}",
        table.stdout
    );
    let all = ["orders", "skew", "rfx"];
    let before = placement_of(&bootstrap, &all);
    let run = set_rf(&["--execute", "--yes", "-o", "json"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stderr, cc.log());
    let v = run.json();
    let listed: Vec<String> = v["proposal"]["topics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["named"] == false)
        .map(|t| t["topic"].as_str().unwrap().to_string())
        .collect();
    assert!(listed.contains(&"skew".to_string()), "{v}");
    // Ground truth: every other topic whose leaders or replicas changed in Kafka was listed.
    let after = placement_of(&bootstrap, &all);
    let changed: std::collections::BTreeSet<String> = before
        .iter()
        .filter(|(k, v)| after.get(*k) != Some(*v) && k.0 != "rfx")
        .map(|(k, _)| k.0.clone())
        .collect();
    assert!(changed.contains("skew"), "skew's leaders moved: {after:?}");
    for t in &changed {
        assert!(listed.contains(t), "{t} changed but was not shown: {v}");
    }

    eprintln!(
        "step (point 4): Cruise Control's Java exception text is one plain sentence; an unknown \
         goal is a usage error (2)"
    );
    let r = kafkaops(
        &cc,
        &bootstrap,
        &["rebalance", "full", "--goals", "NoSuchGoal,RackAwareGoal"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("Goals [NoSuchGoal]"), "{}", r.stderr);
    assert!(r.stderr.contains("are not supported"), "{}", r.stderr);
    assert!(!r.stderr.contains("java.lang"), "{}", r.stderr);
    assert!(!r.stderr.contains("Exception"), "{}", r.stderr);
    let v = kafkaops(
        &cc,
        &bootstrap,
        &[
            "-v",
            "rebalance",
            "full",
            "--goals",
            "NoSuchGoal,RackAwareGoal",
        ],
    );
    assert_eq!(v.code, 2, "{}", v.stderr);
    assert!(
        v.stderr.contains("KafkaCruiseControlException"),
        "the server's text at -v: {}",
        v.stderr
    );

    eprintln!(
        "step (point 9): an execution started while a stop lingers in STOPPING_EXECUTION waits \
         for it and says so"
    );
    let cc9 = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            task_scan_millis: Some(200),
            max_active_tasks: Some(50),
            stop_linger: Some(std::time::Duration::from_secs(6)),
            first_move_delay: Some(std::time::Duration::from_secs(3)),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let add4 = ["rebalance", "add", "--brokers", "4", "--execute", "--yes"];
    let started = kafkaops(
        &cc9,
        &bootstrap,
        &with_fast(&[&add4[..], &["--no-wait", "-o", "json"]].concat()),
    );
    assert_eq!(started.code, 0, "{}\n{}", started.stderr, cc9.log());
    assert_eq!(
        started.json()["execution"]["status"],
        "started",
        "{}",
        started.stdout
    );
    cc_post(&cc9, "stop_proposal_execution?json=true");
    wait_for("the stop to linger in STOPPING_EXECUTION", WAIT, || {
        Ok((executor_state(&cc9) == "STOPPING_EXECUTION").then_some(()))
    })
    .unwrap();
    let next = kafkaops(
        &cc9,
        &bootstrap,
        &with_fast(&[&add4[..], &["--no-wait", "-o", "json"]].concat()),
    );
    assert_eq!(
        next.code,
        0,
        "waits, not busy: {}\n{}",
        next.stderr,
        cc9.log()
    );
    assert!(
        next.stderr.contains("still stopping") && next.stderr.contains("STOPPING_EXECUTION"),
        "says it waits: {}",
        next.stderr
    );
    assert_eq!(
        next.stderr.matches("still stopping").count(),
        1,
        "said once: {}",
        next.stderr
    );
    let task = next.json()["task_id"].as_str().unwrap().to_string();
    assert_eq!(executions_requested(&cc9).len(), 2, "{}", cc9.log());

    eprintln!(
        "step (point 6): `status --task --follow` ends with the moved/total summary read from \
         Kafka, and says why the executor's count differs"
    );
    let followed = kafkaops(
        &cc9,
        &bootstrap,
        &[
            "rebalance",
            "status",
            "--task",
            &task,
            "--follow",
            "--poll-interval",
            "200ms",
        ],
    );
    assert_eq!(followed.code, 0, "{}\n{}", followed.stderr, cc9.log());
    assert!(
        followed.stdout.contains("completed") && followed.stdout.contains("Kafka shows"),
        "{}",
        followed.stdout
    );
    assert!(
        followed
            .stdout
            .contains("partition movement(s) of the proposal"),
        "{}",
        followed.stdout
    );
    let json = kafkaops(
        &cc9,
        &bootstrap,
        &["rebalance", "status", "--task", &task, "-o", "json"],
    );
    assert_eq!(json.code, 0, "{}", json.stderr);

    eprintln!("step (point 6): `stop` says what moved, from Kafka");
    let remove = kafkaops(
        &cc9,
        &bootstrap,
        &with_fast(&[
            "rebalance",
            "remove",
            "--brokers",
            "4",
            "--execute",
            "--yes",
            "--no-wait",
        ]),
    );
    assert_eq!(remove.code, 0, "{}\n{}", remove.stderr, cc9.log());
    let stop = kafkaops(&cc9, &bootstrap, &with_fast(&["rebalance", "stop"]));
    assert_eq!(stop.code, 0, "{}\n{}", stop.stderr, cc9.log());
    assert!(
        stop.stdout.contains("stopped") && stop.stdout.contains("Kafka shows"),
        "{}",
        stop.stdout
    );
    let stop_json = kafkaops(&cc9, &bootstrap, &["rebalance", "stop", "-o", "json"]);
    assert_eq!(stop_json.code, 0, "{}", stop_json.stderr);
    drop(cc9);

    eprintln!(
        "step (point 5): a broker that is down is marked DEAD in the proposal and warned about \
         before anything is asked"
    );
    cluster.stop_node(3).unwrap();
    let dead = wait_for("Cruise Control to report broker 3 DEAD", WAIT, || {
        let r = kafkaops(&cc, &bootstrap, &["rebalance", "full", "-o", "json"]);
        if r.code != 0 {
            return Ok(None);
        }
        let v = r.json();
        Ok((v["dead_brokers"] == serde_json::json!([3])).then_some(r))
    })
    .unwrap();
    assert!(
        dead.stderr.contains("broker(s) 3 DEAD"),
        "warned: {}",
        dead.stderr
    );
    let table = kafkaops(&cc, &bootstrap, &["rebalance", "full"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(table.stdout.contains("3 (DEAD)"), "{}", table.stdout);
    assert!(
        table.stderr.contains("broker(s) 3 DEAD"),
        "{}",
        table.stderr
    );
    drop(cc);
}
