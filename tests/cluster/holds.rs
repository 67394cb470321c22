//! Node holds (issue #29) on a real 3-node KRaft cluster, judged by what kafkaops reads back
//! from the cluster's own holds topic:
//!
//! - an unknown node is refused with exit 2 and nothing is written (no holds topic appears);
//! - `hold add --nodes 2` creates `__kafkaops_holds` (compacted, Kafka's own topic config says
//!   so), `hold list -o json` shows the hold; `roll --all --dry-run` plans no restart of node 2
//!   and says it is held with its reason;
//! - `health` shows the hold as a `held` reason (node, reason, expiry): exit 13, 0 with
//!   `--ignore held:2`, 0 once the hold is removed;
//! - `hold remove` writes a tombstone: the list is empty again;
//! - a hold with a short expiry is listed as expired once it passes, and the roll no longer
//!   leaves its node alone;
//! - a holds topic whose `compression.type` is gzip, snappy, lz4 or zstd (set on the topic, so
//!   the brokers store every hold written to it compressed with that codec) is still read back
//!   whole by `hold list`: the batches of all four codecs in one log.
//! - with broker 3 held, the requests the Cruise Control double received (its request log) are
//!   the oracle: `rebalance full` (dry run and execution) and `rebalance remove` carry
//!   `destination_broker_ids` without broker 3 (and without the removed broker), the execution
//!   places no replica on broker 3 (Kafka metadata), `rebalance add --brokers 3` and a held
//!   `--destination-brokers` are refused (exit 1) with no request sent; `topic set-rf` whose
//!   proposal needs broker 3 says so in the preview and refuses to execute (exit 1, no
//!   execution request, the factor unchanged); once the hold is removed, nothing restricts
//!   the request any more.

use crate::support;
use support::WAIT;
use support::admin::Admin;

use kafkaops::kafka::{ConfigChange, ConfigTarget};
use serde_json::Value;
use support::bin::{Out, run};
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::control::connection_args;
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};

fn kafkaops(cluster: &KafkaCluster, args: &[&str]) -> std::process::Command {
    let mut cmd = support::bin::kafkaops();
    cmd.args(connection_args(cluster))
        .env(
            "KAFKAOPS_STATE_DIR",
            support::bin::test_state_dir("kafkaops-hold-test"),
        )
        .args(args);
    cmd
}

fn holds(o: &Out) -> Vec<Value> {
    o.json()["holds"].as_array().cloned().unwrap_or_default()
}

#[test]
fn hold_add_list_remove_expire_round_trip_and_roll_skips_the_held_node() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");

    // Bad input: exit 2, nothing written (the topic is not even created).
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "42",
            "--reason",
            "x",
            "--expires",
            "1h",
        ],
    ));
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("unknown node id(s) 42"), "{}", o.stderr);
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "2",
            "--reason",
            "x",
            "--expires",
            "soon",
        ],
    ));
    assert_eq!(o.code, 2, "{}", o.stderr);
    let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(holds(&o).is_empty(), "{}", o.stdout);

    // Add: the topic is created compacted; the hold reads back.
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "2",
            "--reason",
            "disk swap",
            "--expires",
            "4h",
        ],
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
    let h = holds(&o);
    assert_eq!(h.len(), 1, "{}", o.stdout);
    assert_eq!(h[0]["node"], 2);
    assert_eq!(h[0]["reason"], "disk swap");
    assert_eq!(h[0]["expired"], false);
    let admin = Admin::connect(&cluster).expect("admin");
    // Read over the wire path (ListOffsets, Fetch), with no librdkafka consumer: its group
    // made Kafka create `__consumer_offsets` on a cluster no consumer group ever used.
    let topics = admin.topic_names().expect("topics");
    assert!(
        !topics.iter().any(|t| t == "__consumer_offsets"),
        "{topics:?}"
    );
    assert_eq!(
        admin
            .topic_config("__kafkaops_holds", "cleanup.policy")
            .expect("topic config")
            .as_deref(),
        Some("compact")
    );

    // health shows the hold (its reason and expiry) as a condition of its own: degraded, and
    // healthy again when it is --ignore'd (waited for: partitions may still be electing
    // leaders).
    wait_for("health --ignore held:2 to be healthy", WAIT, || {
        let o = run(&mut kafkaops(&cluster, &["health", "--ignore", "held:2"]));
        Ok((o.code == 0).then_some(()))
    })
    .expect("healthy but for the hold");
    let o = run(&mut kafkaops(&cluster, &["health", "-o", "json"]));
    assert_eq!(o.code, 13, "{}\n{}", o.stdout, o.stderr);
    let held: Vec<Value> = o.json()["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "held")
        .cloned()
        .collect();
    assert_eq!(held.len(), 1, "{}", o.stdout);
    assert_eq!(held[0]["subject"], "node 2", "{}", o.stdout);
    let message = held[0]["message"].as_str().unwrap();
    assert!(
        message.contains("node 2 is held until ") && message.contains("(disk swap)"),
        "{message}"
    );

    // The roll leaves node 2 alone and says why.
    let o = run(&mut kafkaops(&cluster, &["roll", "--all", "--dry-run"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("held, not restarted: node 2") && o.stdout.contains("disk swap"),
        "{}",
        o.stdout
    );
    let restarted: Vec<&str> = o
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("node ") && !l.contains("held"))
        .collect();
    assert!(
        restarted.iter().all(|l| !l.contains("node 2 ")),
        "{}",
        o.stdout
    );
    assert!(
        restarted.iter().any(|l| l.contains("node 1 ")),
        "{}",
        o.stdout
    );

    // Remove: a tombstone; the list is empty again.
    let o = run(&mut kafkaops(
        &cluster,
        &["--yes", "hold", "remove", "--nodes", "2"],
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
    assert!(holds(&o).is_empty(), "{}", o.stdout);
    let o = run(&mut kafkaops(&cluster, &["health"]));
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);

    // Expiry: listed as expired once past, and no longer honoured by the roll.
    let o = run(&mut kafkaops(
        &cluster,
        &[
            "--yes",
            "hold",
            "add",
            "--nodes",
            "3",
            "--reason",
            "short",
            "--expires",
            "2s",
        ],
    ));
    assert_eq!(o.code, 0, "{}", o.stderr);
    wait_for("the hold of node 3 expired", WAIT, || {
        let o = run(&mut kafkaops(&cluster, &["hold", "list", "-o", "json"]));
        let h = holds(&o);
        Ok((h.len() == 1 && h[0]["node"] == 3 && h[0]["expired"] == true).then_some(()))
    })
    .expect("expired");
    let o = run(&mut kafkaops(&cluster, &["roll", "--all", "--dry-run"]));
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(!o.stdout.contains("held, not restarted"), "{}", o.stdout);

    compressed_holds_read_back(&cluster, &admin);
}

/// With the holds topic's `compression.type` set to each codec in turn, a hold written then is
/// stored compressed by the brokers and `hold list` reads it (and every earlier batch) back.
fn compressed_holds_read_back(cluster: &KafkaCluster, admin: &Admin) {
    for codec in ["gzip", "snappy", "lz4", "zstd"] {
        admin
            .alter(
                ConfigTarget::Topic("__kafkaops_holds".into()),
                vec![ConfigChange::set("compression.type", codec)],
            )
            .expect("set compression.type");
        let reason = format!("written {codec}");
        let o = run(&mut kafkaops(
            cluster,
            &[
                "--yes",
                "hold",
                "add",
                "--nodes",
                "1",
                "--reason",
                &reason,
                "--expires",
                "4h",
            ],
        ));
        assert_eq!(o.code, 0, "{codec}: {}", o.stderr);
        let o = run(&mut kafkaops(cluster, &["hold", "list", "-o", "json"]));
        assert_eq!(o.code, 0, "{codec}: {}", o.stderr);
        let h = holds(&o);
        let node1: Vec<&Value> = h.iter().filter(|h| h["node"] == 1).collect();
        assert_eq!(node1.len(), 1, "{codec}: {}", o.stdout);
        assert_eq!(node1[0]["reason"], reason.as_str(), "{}", o.stdout);
        // The expired hold of node 3, written uncompressed earlier, is still read too.
        assert!(h.iter().any(|h| h["node"] == 3), "{codec}: {}", o.stdout);
    }
    assert_eq!(
        admin
            .topic_config("__kafkaops_holds", "compression.type")
            .expect("topic config")
            .as_deref(),
        Some("zstd")
    );
}

/// The POSTs the double received for `endpoint` (its request log), query decoded enough to read
/// broker lists (`1,2`).
fn posts(cc: &CcDouble, endpoint: &str) -> Vec<String> {
    let needle = format!("POST /kafkacruisecontrol/{endpoint}?");
    cc.log()
        .lines()
        .filter(|l| l.starts_with("cc-double: request ") && l.contains(&needle))
        .map(|l| l.replace("%2C", ",").replace("%2c", ","))
        .collect()
}

fn destinations_of(url: &str) -> Option<String> {
    url.split(['?', '&', ' '])
        .find_map(|kv| kv.strip_prefix("destination_broker_ids="))
        .map(str::to_string)
}

#[test]
fn a_held_broker_is_never_a_destination_of_the_requests_cruise_control_receives() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    // Every replica on broker 1: an unrestricted rebalance would fill brokers 2 and 3.
    create_topic(
        &bootstrap,
        "lopsided",
        &[vec![1], vec![1], vec![1], vec![1], vec![1], vec![1]],
        &[],
    )
    .unwrap();
    create_topic(&bootstrap, "single", &[vec![1], vec![2]], &[]).unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).unwrap();
    let ko = |args: &[&str]| {
        let mut cmd = kafkaops(&cluster, args);
        cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url());
        run(&mut cmd)
    };
    let o = ko(&[
        "--yes",
        "hold",
        "add",
        "--nodes",
        "3",
        "--reason",
        "disk swap",
        "--expires",
        "1h",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);

    // rebalance full (dry run): the live brokers but the held one.
    let o = ko(&["rebalance", "full"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("Held node(s) 3 (disk swap) are not destinations"),
        "{}",
        o.stderr
    );
    let sent = posts(&cc, "rebalance");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(
        destinations_of(&sent[0]).as_deref(),
        Some("1,2"),
        "{sent:?}"
    );

    // rebalance remove --brokers 1: neither the held nor the removed broker. Broker 2 alone
    // cannot take the replicas of a partition it already holds (`__consumer_offsets`, RF 3 on
    // three brokers), so the double answers as Cruise Control does: the goals cannot be met
    // (exit 12, nothing moved). The request is what this checks.
    let o = ko(&["rebalance", "remove", "--brokers", "1"]);
    assert!(o.code == 0 || o.code == 12, "{}", o.stderr);
    assert!(
        o.stderr.contains("replicas may move only to brokers 2 "),
        "{}",
        o.stderr
    );
    let sent = posts(&cc, "remove_broker");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(destinations_of(&sent[0]).as_deref(), Some("2"), "{sent:?}");

    // Refused before anything is sent: adding the held broker, naming it a destination.
    let o = ko(&["rebalance", "add", "--brokers", "3"]);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("3 (disk swap) are held"), "{}", o.stderr);
    assert!(posts(&cc, "add_broker").is_empty(), "{}", cc.log());
    let o = ko(&["rebalance", "full", "--destination-brokers", "2,3"]);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(o.stderr.contains("are held"), "{}", o.stderr);
    assert_eq!(posts(&cc, "rebalance").len(), 1, "{}", cc.log());

    // The execution: its request excludes broker 3, and Kafka shows no replica moved there.
    let o = ko(&["--yes", "rebalance", "full", "--execute"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    let executions: Vec<String> = posts(&cc, "rebalance")
        .into_iter()
        .filter(|u| u.contains("dryrun=false"))
        .collect();
    assert_eq!(executions.len(), 1, "{executions:?}");
    assert_eq!(
        destinations_of(&executions[0]).as_deref(),
        Some("1,2"),
        "{executions:?}"
    );
    for t in ["lopsided", "single"] {
        for p in placement(&bootstrap, t).unwrap() {
            assert!(
                !p.replicas.contains(&3),
                "{t}-{}: {:?}",
                p.partition,
                p.replicas
            );
        }
    }

    // topic set-rf: topic_configuration takes no destination; a factor of 3 on 3 brokers
    // needs broker 3, so the preview says so and --execute refuses (nothing executed).
    let o = ko(&["topic", "set-rf", "--topics", "single", "-r", "3"]);
    assert_eq!(o.code, 0, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr
            .contains("places new replicas on held nodes (node 3 (disk swap)"),
        "{}",
        o.stderr
    );
    let o = ko(&[
        "--yes",
        "topic",
        "set-rf",
        "--topics",
        "single",
        "-r",
        "3",
        "--execute",
    ]);
    assert_eq!(o.code, 1, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains("kafkaops does not execute it"),
        "{}",
        o.stderr
    );
    assert!(
        posts(&cc, "topic_configuration")
            .iter()
            .all(|u| !u.contains("dryrun=false")),
        "{}",
        cc.log()
    );
    for p in placement(&bootstrap, "single").unwrap() {
        assert_eq!(p.replicas.len(), 1, "{p:?}");
    }

    // Hold removed: the request is unrestricted again.
    let o = ko(&["--yes", "hold", "remove", "--nodes", "3"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let o = ko(&["rebalance", "full"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let last = posts(&cc, "rebalance").pop().unwrap();
    assert_eq!(destinations_of(&last), None, "{last}");
}
