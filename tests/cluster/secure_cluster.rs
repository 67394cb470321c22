//! kafkaops against a SASL_SSL cluster: real Kafka (KRaft, from `tests/env`) with a SCRAM-SHA-512
//! listener and certificates from a generated CA, run as the real binary.
//!
//! One cluster start (3 combined nodes, each with PLAINTEXT listeners for the harness's own
//! oracles and SASL_SSL listeners for the code under test, see `support::kafka::SaslSsl`):
//! - a wrong password and a CA that did not sign the brokers' certificates are each refused
//!   at once with exit code 6 and their own message (the TLS/SASL check kafkaops makes before
//!   librdkafka, which would only report a "broker transport failure" after its timeout), at
//!   `-vvv` without the password in the output, and nothing restarts;
//! - a full `kafkaops roll -vvv` over SASL_SSL: librdkafka for metadata and elections, the
//!   kafka-protocol path (DescribeQuorum, DescribeCluster, ListPartitionReassignments) against
//!   the controllers' SASL_SSL listener with real SCRAM; judged by the control server's record
//!   of restarts and by Kafka's metadata read over PLAINTEXT; the password never appears in
//!   stdout or stderr, even at `-vvv`;
//! - the Cruise Control double connects to Kafka over SASL_SSL (its AdminClient gets the same
//!   SCRAM user and CA) and `kafkaops rebalance add` gets a dry-run proposal built from the
//!   real cluster's placement;
//! - `kafkaops operate --once --log-format json -vvv` over SASL_SSL with a Cruise Control double
//!   demanding basic auth: one loop succeeds, every stderr line is JSON, neither password
//!   appears;
//! - kafkaops' client moves a partition with AlterPartitionReassignments and lists
//!   reassignments over the controllers' SASL_SSL listener, judged by Kafka's metadata;
//! - the journals of the roll and of an executed `rebalance add` (Cruise Control double with
//!   basic auth, the Kafka password given on the command line) read back with `journal list`
//!   and `journal show`: the command, the confirmation, the requests to Kafka and Cruise
//!   Control with their answers, what was shown, the outcome; and `journal bundle` writes one
//!   archive with the journals and a health snapshot in which no file holds either password.
//!
//! Run with `cargo test --test cluster secure_cluster:: -- --nocapture` (about two minutes on 2 cores).

use crate::support;
use support::WAIT;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use kafkaops::kafka::config::ConnectionConfig;
use support::admin::Admin;
use support::bin::{Out as Run, run};
use support::cc_double::{CcDouble, CcDoubleOptions, sasl_ssl_kafka_properties};
use support::control::{ControlServer, Restart};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, placement, wait_for};
use support::tls::TestCa;

const TOPIC: &str = "secured";
const USER: &str = "kafkaops-operator";
/// Distinctive, so a leak anywhere in the output is found by a plain substring search.
const PASSWORD: &str = "Scram-Secret-7f3a9c1e";
const WRONG_PASSWORD: &str = "Not-The-Password-55d2";

/// The state directory of this test process (not the user's).
fn state_dir() -> std::path::PathBuf {
    support::bin::test_state_dir("kafkaops-secure-state")
}

/// Runs `kafkaops ARGS` with `conn` and `password` (through the environment, as an operator
/// would), nothing from the user's environment.
fn kafkaops(conn: &[String], password: &str, args: &[&str]) -> Run {
    run(support::bin::kafkaops()
        .env("KAFKAOPS_STATE_DIR", state_dir())
        .env("KAFKAOPS_KAFKA_PASSWORD", password)
        .args(conn)
        .args(args))
}

/// Connection flags for the SASL_SSL listeners (brokers and controllers) with `ca` as the
/// trusted CA; the password comes from the environment.
fn secure_args(cluster: &KafkaCluster, ca: &std::path::Path) -> Vec<String> {
    let urls = cluster
        .nodes()
        .iter()
        .filter(|n| n.role.is_broker())
        .map(|n| format!("{}={}", n.id, n.broker_state_url()))
        .collect::<Vec<_>>()
        .join(",");
    let x = |kv: String| ["-X".to_string(), kv];
    let mut a = vec![
        "--bootstrap-servers".to_string(),
        cluster.secure_bootstrap_servers(),
        "--request-timeout".into(),
        "15s".into(),
    ];
    for kv in [
        format!(
            "bootstrap.controllers={}",
            cluster.secure_controller_bootstrap()
        ),
        format!("kafkaops.broker.state.url={urls}"),
        "security.protocol=SASL_SSL".into(),
        "sasl.mechanism=SCRAM-SHA-512".into(),
        format!("sasl.username={USER}"),
        format!("ssl.ca.location={}", ca.display()),
    ] {
        a.extend(x(kv));
    }
    a
}

fn assert_no_secret(run: &Run, secret: &str) {
    assert!(
        !run.stdout.contains(secret),
        "the password leaked to stdout:\n{}",
        run.stdout
    );
    assert!(
        !run.stderr.contains(secret),
        "the password leaked to stderr:\n{}",
        run.stderr
    );
}

/// RF 3 / min ISR 2, preferred leaders spread evenly (created over PLAINTEXT by the harness).
fn create_secured_topic(cluster: &KafkaCluster) {
    let brokers = cluster.broker_ids();
    let assignment: Vec<Vec<i32>> = (0..brokers.len() * 2)
        .map(|p| (0..3).map(|r| brokers[(p + r) % brokers.len()]).collect())
        .collect();
    create_topic(
        &cluster.bootstrap_servers(),
        TOPIC,
        &assignment,
        &[("min.insync.replicas", "2")],
    )
    .expect("create topic");
    wait_for("full ISRs", WAIT, || {
        let p = placement(&cluster.bootstrap_servers(), TOPIC)?;
        Ok(p.iter().all(|p| p.isr.len() == 3).then_some(()))
    })
    .expect("full ISRs");
}

fn refusals(conn: &[String], other_ca: &std::path::Path, server: &ControlServer) {
    let cmd = server.restart_command();
    let roll = [
        "-vvv",
        "--yes",
        "roll",
        "--all",
        "--restart-command",
        cmd.as_str(),
        "--poll-interval",
        "1s",
    ];

    eprintln!("step: wrong password, at -vvv");
    let run = kafkaops(conn, WRONG_PASSWORD, &roll);
    assert_eq!(run.code, 6, "wrong password:\n{}", run.stderr);
    let error = error_line(&run);
    assert!(
        error.contains("authentication")
            && error.contains("SCRAM-SHA-512")
            && error.contains("sasl.username"),
        "the error names the failed authentication and what to check: {error}"
    );
    assert!(
        !error.to_lowercase().contains("certificate"),
        "a credentials error is not a certificate error: {error}"
    );
    assert_no_secret(&run, WRONG_PASSWORD);
    assert_no_secret(&run, PASSWORD);

    eprintln!("step: a CA that did not sign the brokers' certificates, at -vvv");
    let untrusted: Vec<String> = conn
        .iter()
        .map(|a| {
            if a.starts_with("ssl.ca.location=") {
                format!("ssl.ca.location={}", other_ca.display())
            } else {
                a.clone()
            }
        })
        .collect();
    let run = kafkaops(&untrusted, PASSWORD, &roll);
    assert_eq!(run.code, 6, "untrusted certificate:\n{}", run.stderr);
    let error = error_line(&run);
    assert!(
        error.contains("certificate is not trusted") && error.contains("ssl.ca.location"),
        "the error says the certificate is not trusted and what to set: {error}"
    );
    assert!(
        !error.to_lowercase().contains("authentication"),
        "a certificate error is not a credentials error: {error}"
    );
    assert_no_secret(&run, PASSWORD);
    assert!(
        server.restarts().is_empty(),
        "nothing restarts when kafkaops cannot connect: {:?}",
        server.restarts()
    );
}

/// The `error: ...` line kafkaops ends with.
fn error_line(run: &Run) -> String {
    run.stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("no error line in:\n{}", run.stderr))
        .to_string()
}

fn roll_over_sasl_ssl(cluster: &Arc<Mutex<KafkaCluster>>, server: &ControlServer, conn: &[String]) {
    eprintln!("step: roll every node over SASL_SSL at -vvv");
    let (bootstrap, all_nodes) = {
        let c = cluster.lock().unwrap();
        let mut all: Vec<i32> = c.nodes().iter().map(|n| n.id).collect();
        all.sort_unstable();
        (c.bootstrap_servers(), all)
    };
    let cmd = server.restart_command();
    let run = kafkaops(
        conn,
        PASSWORD,
        &[
            "-vvv",
            "--yes",
            "roll",
            "--all",
            "--restart-command",
            &cmd,
            "--poll-interval",
            "1s",
            "--post-restart-timeout",
            "3m",
            "--output",
            "json",
        ],
    );
    assert_no_secret(&run, PASSWORD);
    assert_eq!(run.code, 0, "roll failed:\n{}", run.stderr);
    // -vvv really logged the connections (so the secret check above looked at something).
    assert!(
        run.stderr.contains("DEBUG") || run.stderr.contains("TRACE"),
        "-vvv logs debug output:\n{}",
        run.stderr
    );
    // The quorum and reassignment requests went over kafkaops' own protocol path to the
    // controllers' SASL_SSL listeners, authenticated with SCRAM.
    let controller_secure: Vec<String> = {
        let c = cluster.lock().unwrap();
        c.nodes()
            .iter()
            .filter_map(support::kafka::NodeInfo::controller_secure_address)
            .collect()
    };
    let wire_to_controllers = run
        .stderr
        .lines()
        .filter(|l| {
            l.contains("kafka-protocol connection open")
                && l.contains("sasl=\"SCRAM-SHA-512\"")
                && l.contains("tls=true")
                && controller_secure.iter().any(|a| l.contains(a.as_str()))
        })
        .count();
    assert!(
        wire_to_controllers > 0,
        "no SCRAM connection to a controller's SASL_SSL listener ({controller_secure:?}) in:\n{}",
        run.stderr
            .lines()
            .filter(|l| l.contains("kafka-protocol"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let doc = run.json();
    assert_eq!(doc["result"]["status"], "done", "{doc:#}");

    let restarts: Vec<Restart> = server.restarts();
    let mut restarted: Vec<i32> = restarts.iter().map(|r| r.node).collect();
    restarted.sort_unstable();
    assert_eq!(restarted, all_nodes, "each node once: {restarts:?}");
    // The quorum check over the controllers' SASL_SSL listener worked: the active controller
    // (as Kafka's own raft metrics had it at the time) went last.
    let last = restarts.last().expect("restarts");
    assert_eq!(
        last.leader_before,
        Some(last.node),
        "the active controller restarts last: {restarts:?}"
    );
    // Ground truth over PLAINTEXT: full ISRs and preferred leaders again.
    let p = placement(&bootstrap, TOPIC).expect("placement");
    assert!(p.iter().all(|p| p.isr.len() == 3), "full ISRs: {p:?}");
    assert!(
        p.iter().all(|p| p.leader == p.replicas[0]),
        "preferred leaders: {p:?}"
    );
}

/// A Cruise Control double that reaches Kafka only through the cluster's SASL_SSL listener
/// (SCRAM as [`USER`], trusting the cluster's CA), demanding HTTP basic auth when given.
fn cc_double_over_sasl_ssl(
    cluster: &Arc<Mutex<KafkaCluster>>,
    basic_auth: Option<(&str, &str)>,
) -> CcDouble {
    let (secure_bootstrap, ca) = {
        let c = cluster.lock().unwrap();
        (c.secure_bootstrap_servers(), c.ca_pem_path())
    };
    CcDouble::start(
        &secure_bootstrap,
        CcDoubleOptions {
            kafka_properties: sasl_ssl_kafka_properties(USER, PASSWORD, &ca),
            basic_auth: basic_auth.map(|(user, password)| (user.into(), password.into())),
            ..Default::default()
        },
    )
    .expect("start the cc-double")
}

fn cruise_control_over_sasl_ssl(cluster: &Arc<Mutex<KafkaCluster>>) {
    eprintln!("step: the Cruise Control double talks to Kafka over SASL_SSL");
    let bootstrap = cluster.lock().unwrap().bootstrap_servers();
    // Only the SASL_SSL listener is given to the double: it cannot fall back to PLAINTEXT.
    let cc = cc_double_over_sasl_ssl(cluster, None);
    // Broker 1 leads nothing after a move of its leaderships would be a rebalance; here the
    // request is `add` of a broker that holds the fewest replicas: a topic only on 1 and 2.
    create_topic(
        &bootstrap,
        "skewed",
        &(0..6)
            .map(|i| vec![1 + (i % 2), 2 - (i % 2)])
            .collect::<Vec<_>>(),
        &[],
    )
    .expect("create skewed topic");
    let out = support::bin::kafkaops()
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
        .args(["rebalance", "add", "--brokers", "3", "-o", "json"])
        .output()
        .expect("run kafkaops");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stderr}\n--- cc-double log ---\n{}",
        cc.log()
    );
    let doc = support::schema::json_of(&["rebalance", "add"], &stdout);
    // The proposal comes from the real placement the double read over SASL_SSL: replicas of
    // `skewed` (only on brokers 1 and 2) move to broker 3.
    let movements = doc["movements"].as_array().expect("movements");
    let onto_3: Vec<&serde_json::Value> = movements
        .iter()
        .filter(|m| {
            m["topic"] == "skewed"
                && m["new_replicas"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|b| b == 3))
                && !m["old_replicas"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|b| b == 3))
        })
        .collect();
    assert!(
        !onto_3.is_empty(),
        "replicas of `skewed` move onto broker 3: {doc:#}"
    );
    // Nothing moved: a dry run.
    let p = placement(&bootstrap, "skewed").expect("placement");
    assert!(
        p.iter().all(|p| !p.replicas.contains(&3)),
        "a dry run moves nothing: {p:?}"
    );
    assert!(
        !cc.log().contains("SaslAuthenticationException")
            && !cc.log().contains("SSLHandshakeException"),
        "the double connected without authentication or TLS errors:\n{}",
        cc.log()
    );
}

/// `kafkaops operate --once --log-format json -vvv` over SASL_SSL, against a Cruise Control
/// double that demands HTTP basic auth: one reconcile loop succeeds (exit 0), every stderr line
/// is a JSON object (the loop's own lines and those of librdkafka, hyper and the rest at trace
/// level), and neither the SASL password nor the Cruise Control password appears anywhere.
fn operate_json_logs_over_sasl_ssl(cluster: &Arc<Mutex<KafkaCluster>>, conn: &[String]) {
    eprintln!("step: operate --log-format json -vvv over SASL_SSL, Cruise Control with basic auth");
    const CC_USER: &str = "cc-operator";
    const CC_PASSWORD: &str = "Basic-Auth-Secret-31b8d0";
    let cc = cc_double_over_sasl_ssl(cluster, Some((CC_USER, CC_PASSWORD)));
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = dir.path().join("policy.yaml");
    std::fs::write(
        &policy,
        "autoRebalance:\n  - mode: imbalance\n    template: { name: full }\ntemplates:\n  full: {}\n",
    )
    .expect("policy");
    let out = support::bin::kafkaops()
        .env("KAFKAOPS_KAFKA_PASSWORD", PASSWORD)
        .env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
        .env("KAFKAOPS_CRUISE_CONTROL_USER", CC_USER)
        .env("KAFKAOPS_CRUISE_CONTROL_PASSWORD", CC_PASSWORD)
        .args(conn)
        .args(["-vvv", "operate", "--once", "--log-format", "json"])
        .args(["--listen", "127.0.0.1:0", "--resync", "1s", "--policy"])
        .arg(&policy)
        .arg("--state-dir")
        .arg(dir.path().join("state"))
        .output()
        .expect("run kafkaops operate");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        args: vec!["operate".into()],
    };
    let tail: Vec<&str> = run.stderr.lines().rev().take(30).collect();
    assert_eq!(
        run.code,
        0,
        "one loop over SASL_SSL with basic auth:\n{}\n--- cc-double log ---\n{}",
        tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        cc.log()
    );
    let mut ours = 0;
    for line in run.stderr.lines() {
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("a stderr line is not JSON ({e}): {line}"));
        assert!(
            v["timestamp"].is_string() && v["level"].is_string(),
            "a log record: {line}"
        );
        if v["target"]
            .as_str()
            .is_some_and(|t| t.starts_with("kafkaops"))
        {
            ours += 1;
        }
    }
    let levels: std::collections::BTreeSet<String> = run
        .stderr
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["level"].as_str().map(str::to_string))
        .collect();
    eprintln!(
        "{} JSON lines ({ours} from kafkaops), levels {levels:?}",
        run.stderr.lines().count()
    );
    assert!(
        run.stderr.contains("\"message\":\"leading;"),
        "the loop's own lines are JSON records:\n{}",
        run.stderr
    );
    assert!(
        levels.contains("TRACE"),
        "-vvv logs at trace level: {levels:?}"
    );
    assert_no_secret(&run, PASSWORD);
    assert_no_secret(&run, CC_PASSWORD);
}

/// kafkaops' own client moves a partition over the controllers' SASL_SSL listener
/// (AlterPartitionReassignments and ListPartitionReassignments on the kafka-protocol path, SCRAM);
/// judged by Kafka's metadata read over PLAINTEXT.
fn reassignment_over_sasl_ssl(cluster: &Arc<Mutex<KafkaCluster>>) {
    eprintln!("step: a partition reassignment through kafkaops' client over SASL_SSL");
    let (config, bootstrap) = {
        let c = cluster.lock().unwrap();
        let mut config = ConnectionConfig::new(c.secure_bootstrap_servers())
            .with_property("bootstrap.controllers", c.secure_controller_bootstrap())
            .with_property("security.protocol", "SASL_SSL")
            .with_property("sasl.mechanism", "SCRAM-SHA-512")
            .with_property("sasl.username", USER)
            .with_property("sasl.password", PASSWORD)
            .with_property("ssl.ca.location", c.ca_pem_path().display().to_string());
        config.request_timeout = Duration::from_secs(15);
        (config, c.bootstrap_servers())
    };
    create_topic(&bootstrap, "moved", &[vec![1, 2]], &[]).expect("create topic");
    let admin = Admin::connect_with(config).expect("connect over SASL_SSL");
    admin
        .reassign("moved", 0, &[2, 3])
        .expect("reassign over SASL_SSL");
    wait_for("the reassignment to complete", WAIT, || {
        let p = placement(&bootstrap, "moved")?;
        let listed = admin.reassignments()?;
        Ok((p[0].replicas == [2, 3] && listed.is_empty()).then_some(()))
    })
    .expect("the partition moved to [2, 3] and no reassignment is listed any more");
}

/// `journal show ID -o json` of the newest journal of `command` (in [`state_dir`]), which
/// ended with `outcome`.
fn journal_of(command: &str, outcome: &str) -> (String, Vec<serde_json::Value>) {
    let list = kafkaops(&[], PASSWORD, &["journal", "list", "-o", "json"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    let doc = list.json();
    let entry = doc
        .as_array()
        .expect("a list")
        .iter()
        .rev()
        .find(|j| j["command"] == command)
        .unwrap_or_else(|| panic!("no journal of {command}: {doc:#}"))
        .clone();
    assert_eq!(entry["outcome"], outcome, "{entry:#}");
    assert!(entry["duration_ms"].as_u64().is_some(), "{entry:#}");
    assert!(entry["started_at_ms"].as_u64().is_some(), "{entry:#}");
    let id = entry["id"].as_str().expect("id").to_string();
    let show = kafkaops(&[], PASSWORD, &["journal", "show", &id, "-o", "json"]);
    assert_eq!(show.code, 0, "{}", show.stderr);
    let events = show.json()["events"].as_array().expect("events").clone();
    // The human form reads the same journal.
    let human = kafkaops(&[], PASSWORD, &["journal", "show", &id]);
    assert_eq!(human.code, 0, "{}", human.stderr);
    assert!(
        human.stdout.contains(&format!("Journal {id}")),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .contains(&format!("end       {outcome} (exit ")),
        "{}",
        human.stdout
    );
    (id, events)
}

fn events_of<'a>(events: &'a [serde_json::Value], kind: &str) -> Vec<&'a serde_json::Value> {
    events.iter().filter(|e| e["event"] == kind).collect()
}

/// The roll's journal (written by [`roll_over_sasl_ssl`]) and that of an executed
/// `rebalance add`, read back; then a bundle of them with a health snapshot, free of both
/// passwords. The Kafka password is given on the rebalance's command line (`-X
/// sasl.password=...`) and the Cruise Control password through the environment, so a journal
/// that recorded either unredacted would hold it.
fn journals_of_a_roll_and_a_rebalance(cluster: &Arc<Mutex<KafkaCluster>>, conn: &[String]) {
    eprintln!("step: the journal of the roll, read back");
    const CC_USER: &str = "cc-journal";
    const CC_PASSWORD: &str = "Journal-Basic-Auth-9e2c41";
    let (_id, roll) = journal_of("roll", "ok");
    let start = &events_of(&roll, "start")[0];
    assert_eq!(start["yes"], true, "{start:#}");
    let confirmed = events_of(&roll, "confirmed");
    assert!(
        confirmed.iter().any(|c| c["how"] == "--yes"
            && c["action"].as_str().is_some_and(
                |a| a.starts_with("Roll the cluster") || a.starts_with("Resume the roll")
            )),
        "the roll's confirmation and how it was given: {confirmed:#?}"
    );
    assert!(
        start["args"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == "--all")),
        "{start:#}"
    );
    let kafka_requests: Vec<&str> = events_of(&roll, "request")
        .iter()
        .filter(|e| e["system"] == "kafka")
        .filter_map(|e| e["request"].as_str())
        .collect();
    for api in ["DescribeQuorum", "Metadata"] {
        assert!(
            kafka_requests.iter().any(|r| r.contains(api)),
            "a {api} request in the roll's journal: {kafka_requests:?}"
        );
    }
    // What it showed (the JSON document with the plan and the result) and what it decided.
    let shown: Vec<&str> = events_of(&roll, "shown")
        .iter()
        .filter(|e| e["stream"] == "stdout")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(
        shown.iter().any(|t| t.contains("\"done\"")),
        "the result the roll printed: {shown:?}"
    );
    assert!(
        !events_of(&roll, "log").is_empty(),
        "the roll's decisions and waits"
    );
    let end = events_of(&roll, "end");
    assert_eq!(end.len(), 1, "{roll:#?}");
    assert_eq!(end[0]["exit_code"], 0);

    eprintln!("step: an executed rebalance (Cruise Control with basic auth) keeps a journal");
    let cc = cc_double_over_sasl_ssl(cluster, Some((CC_USER, CC_PASSWORD)));
    let with_cc = |args: &[&str]| {
        run(support::bin::kafkaops()
            .env("KAFKAOPS_STATE_DIR", state_dir())
            .env("KAFKAOPS_CRUISE_CONTROL_URL", cc.url())
            .env("KAFKAOPS_CRUISE_CONTROL_USER", CC_USER)
            .env("KAFKAOPS_CRUISE_CONTROL_PASSWORD", CC_PASSWORD)
            .args(conn)
            .args(["-X", &format!("sasl.password={PASSWORD}")])
            .args(args))
    };
    let r = with_cc(&[
        "--yes",
        "rebalance",
        "add",
        "--brokers",
        "3",
        "--execute",
        "--poll-interval",
        "200ms",
        "-o",
        "json",
    ]);
    assert_eq!(
        r.code,
        0,
        "{}\n--- cc-double log ---\n{}",
        r.stderr,
        cc.log()
    );
    assert_eq!(r.json()["execution"]["status"], "completed", "{}", r.stdout);
    assert_no_secret(&r, CC_PASSWORD);

    let (_id, rebalance) = journal_of("rebalance add", "ok");
    let start = &events_of(&rebalance, "start")[0];
    assert_eq!(start["yes"], true, "confirmed by --yes: {start:#}");
    let args = start["args"].as_array().expect("args");
    assert!(args.iter().any(|a| a == "--execute"), "{start:#}");
    assert!(
        args.iter().any(|a| a == "sasl.password=********"),
        "the password on the command line is masked: {start:#}"
    );
    let cc_requests: Vec<(&str, &str)> = events_of(&rebalance, "request")
        .iter()
        .filter(|e| e["system"] == "cruise-control")
        .filter_map(|e| Some((e["request"].as_str()?, e["answer"].as_str()?)))
        .collect();
    // The dry run, then the execution, each with Cruise Control's answer.
    let add_broker: Vec<&(&str, &str)> = cc_requests
        .iter()
        .filter(|(r, _)| r.starts_with("POST ") && r.contains("/add_broker"))
        .collect();
    assert!(
        add_broker.iter().any(|(r, _)| r.contains("dryrun=true"))
            && add_broker.iter().any(|(r, _)| r.contains("dryrun=false")),
        "a dry run and an execution of add_broker: {cc_requests:#?}"
    );
    assert!(
        add_broker.iter().all(|(_, a)| a.starts_with("HTTP 200")),
        "Cruise Control's answers: {add_broker:#?}"
    );
    assert!(
        cc_requests
            .iter()
            .any(|(r, _)| r.contains("/user_tasks") || r.contains("/state")),
        "the execution followed: {cc_requests:#?}"
    );
    let shown = events_of(&rebalance, "shown");
    assert!(
        shown.iter().any(|e| e["text"]
            .as_str()
            .is_some_and(|t| t.contains("\"completed\""))),
        "the result shown: {shown:#?}"
    );

    eprintln!("step: journal bundle holds the journals and a health snapshot, and no password");
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = dir.path().join("bundle.tar.gz");
    let b = with_cc(&[
        "-vvv",
        "journal",
        "bundle",
        "--output-file",
        archive.to_str().expect("utf-8"),
        "-o",
        "json",
    ]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    assert_no_secret(&b, PASSWORD);
    assert_no_secret(&b, CC_PASSWORD);
    let files = support::schema::bundle_files(&archive);
    let journals = files.keys().filter(|n| n.starts_with("journal/")).count();
    assert!(
        journals >= 2,
        "the roll's and the rebalance's journals: {:?}",
        files.keys()
    );
    let bundled = b.json();
    assert_eq!(
        bundled["journals"].as_u64(),
        Some(journals as u64),
        "{bundled}"
    );
    assert_eq!(bundled["health"], true, "{bundled}");
    let health: serde_json::Value =
        serde_json::from_slice(&files["health.json"]).expect("health.json is JSON");
    assert!(
        health["report"]["verdict"].is_string(),
        "a health snapshot: {health:#}"
    );
    for (name, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        for pw in [PASSWORD, CC_PASSWORD] {
            assert!(!text.contains(pw), "{pw} in {name} of the bundle");
        }
    }
}

#[test]
fn sasl_ssl_roll_refusals_and_cruise_control() {
    let cluster = KafkaCluster::start(ClusterSpec::combined(3).with_sasl_ssl([(USER, PASSWORD)]))
        .expect("start the secured cluster");
    eprintln!("secured cluster started in {:?}", cluster.start_duration());
    create_secured_topic(&cluster);
    let other_ca_dir = tempfile::tempdir().expect("tempdir");
    let other_ca = other_ca_dir.path().join("other-ca.pem");
    TestCa::generate("some other CA")
        .and_then(|ca| ca.write_cert(&other_ca))
        .expect("other CA");
    let conn = secure_args(&cluster, &cluster.ca_pem_path());
    let cluster = Arc::new(Mutex::new(cluster));
    let server = ControlServer::start(Arc::clone(&cluster));

    refusals(&conn, &other_ca, &server);
    roll_over_sasl_ssl(&cluster, &server, &conn);
    cruise_control_over_sasl_ssl(&cluster);
    journals_of_a_roll_and_a_rebalance(&cluster, &conn);
    operate_json_logs_over_sasl_ssl(&cluster, &conn);
    reassignment_over_sasl_ssl(&cluster);
    drop(server);
    let _ = std::fs::remove_dir_all(state_dir());
}
