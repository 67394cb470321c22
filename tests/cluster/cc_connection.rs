//! Reaching Cruise Control as Strimzi deploys it (HTTPS, Basic auth, roles), issue #25 points
//! 10-15: kafkaops' command line against the Cruise Control double serving HTTPS with Strimzi's
//! two users (the ADMIN `rebalance-operator` and the USER `healthcheck`) and a VIEWER, over a real
//! one-node KRaft cluster. Each mistake a user makes in the connection settings ends at once
//! (no retries) with one sentence saying what to change, and no password shows at any verbosity.
//!
//! Run with `cargo test --test cluster cc_connection:: -- --nocapture` to see the steps.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::bin::{Out, kafkaops_bin, run};
use support::cc_double::{CcApiUser, CcDouble, CcDoubleOptions, CcRole, strimzi_api_users};
use support::kafka::{ClusterSpec, KafkaCluster};
use support::tls::TestCa;

const ADMIN_PW: &str = "admin-pw-Zq81";
const HEALTH_PW: &str = "health-pw-Kx27";
const VIEWER_PW: &str = "viewer-pw-Mw55";
const WRONG_PW: &str = "wrong-pw-Tt40";

/// How one kafkaops run connects.
#[derive(Clone, Copy)]
struct Conn<'a> {
    url: &'a str,
    ca: Option<&'a Path>,
    user: Option<&'a str>,
    password: Option<&'a str>,
}

fn kafkaops(c: Conn<'_>, bootstrap: &str, args: &[&str]) -> Out {
    let mut cmd = support::bin::kafkaops();
    cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", c.url)
        .env("KAFKAOPS_BOOTSTRAP_SERVERS", bootstrap);
    if let Some(ca) = c.ca {
        cmd.arg("--cruise-control-ca-file").arg(ca);
    }
    if let Some(u) = c.user {
        cmd.args(["--cruise-control-user", u]);
    }
    if let Some(p) = c.password {
        cmd.env("KAFKAOPS_CRUISE_CONTROL_PASSWORD", p);
    }
    run(cmd.args(args))
}

/// The double's `user_tasks` (as the ADMIN user): every request it served, polls included.
fn user_tasks(cc: &CcDouble) -> Vec<Value> {
    let ca = std::fs::read(cc.ca_pem_path().unwrap()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let url = format!("{}/user_tasks?json=true", cc.url());
    let v: Value = rt.block_on(async {
        let http = reqwest::Client::builder()
            .add_root_certificate(reqwest::Certificate::from_pem(&ca).unwrap())
            .build()
            .unwrap();
        let text = http
            .get(&url)
            .basic_auth("rebalance-operator", Some(ADMIN_PW))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: {e}: {text}"))
    });
    v["userTasks"].as_array().cloned().unwrap_or_default()
}

/// Exit 6 at once: one error line, no retry ("attempt"), no OpenSSL text, no request URL.
fn refused_at_once(r: &Out, needles: &[&str]) {
    assert_eq!(r.code, 6, "{}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "missing {n:?} in: {}", r.stderr);
    }
    for bad in [
        "attempt",
        "SSL routines",
        ".c:",
        "kafkacruisecontrol/state?",
        "<html",
        "error sending request",
    ] {
        assert!(!r.stderr.contains(bad), "{bad:?} shown: {}", r.stderr);
    }
    assert_eq!(
        r.stderr.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{}",
        r.stderr
    );
}

#[test]
fn connection_mistakes_are_named_at_once_against_https_with_roles() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(1)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let mut users = strimzi_api_users(ADMIN_PW, HEALTH_PW);
    users.push(CcApiUser::new("viewer", VIEWER_PW, CcRole::Viewer));
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            tls: true,
            users,
            max_active_tasks: Some(50),
            task_scan_millis: Some(200),
            // Every proposal takes at least 0.6 s and anything slower than 50 ms answers 202.
            min_compute_millis: Some(600),
            max_block_millis: Some(50),
            ..Default::default()
        },
    )
    .expect("cc-double");
    let url = cc.url();
    let ca_path = cc.ca_pem_path().unwrap();
    let ca = Some(ca_path.as_path());
    let conn = |user: Option<&'static str>, password: Option<&'static str>| Conn {
        url: &url,
        ca,
        user,
        password,
    };
    let admin = conn(Some("rebalance-operator"), Some(ADMIN_PW));
    let health = conn(Some("healthcheck"), Some(HEALTH_PW));
    let mut outputs: Vec<Out> = Vec::new();

    eprintln!("step: the right settings work (ADMIN dry run, USER read)");
    let r = kafkaops(admin, &bootstrap, &["rebalance", "full"]);
    assert_eq!(r.code, 0, "{}\n{}", r.stderr, cc.log());
    outputs.push(r);
    let r = kafkaops(health, &bootstrap, &["rebalance", "status"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    outputs.push(r);

    eprintln!("step (point 10): a role too low says which role the request needs");
    for args in [
        &["rebalance", "full"][..],
        &["rebalance", "full", "--execute", "--yes"],
    ] {
        let r = kafkaops(health, &bootstrap, args);
        refused_at_once(
            &r,
            &[
                "accepted the credentials",
                "user \"healthcheck\" lacks the ADMIN role that POST rebalance needs",
            ],
        );
        assert!(
            !r.stderr.contains("refused the credentials"),
            "{}",
            r.stderr
        );
        outputs.push(r);
    }
    let viewer = conn(Some("viewer"), Some(VIEWER_PW));
    let r = kafkaops(viewer, &bootstrap, &["rebalance", "status"]);
    refused_at_once(
        &r,
        &["user \"viewer\" lacks the USER role that GET state needs"],
    );
    outputs.push(r);
    // `anomalies watch` ends on refused credentials and on a role too low instead of waiting.
    let r = kafkaops(
        conn(Some("healthcheck"), Some(WRONG_PW)),
        &bootstrap,
        &["anomalies", "watch", "--interval", "100ms"],
    );
    refused_at_once(
        &r,
        &["refused the credentials of user \"healthcheck\" (HTTP 401)"],
    );
    outputs.push(r);
    let r = kafkaops(
        viewer,
        &bootstrap,
        &["anomalies", "watch", "--interval", "100ms"],
    );
    refused_at_once(&r, &["lacks the USER role that GET state needs"]);
    outputs.push(r);

    eprintln!("step (point 11): no credentials, and a user without a password");
    let r = kafkaops(conn(None, None), &bootstrap, &["rebalance", "status"]);
    refused_at_once(&r, &["asks for credentials (HTTP 401) and none were given"]);
    outputs.push(r);
    let r = kafkaops(
        conn(Some("rebalance-operator"), None),
        &bootstrap,
        &["rebalance", "status"],
    );
    refused_at_once(
        &r,
        &[
            "refused user \"rebalance-operator\" (HTTP 401): no password was given",
            "KAFKAOPS_CRUISE_CONTROL_PASSWORD",
        ],
    );
    outputs.push(r);

    eprintln!("step (point 12): http:// or a bare host:port against the HTTPS port");
    let https = format!("https://127.0.0.1:{}", cc.port());
    for plain in [
        format!("http://127.0.0.1:{}", cc.port()),
        format!("127.0.0.1:{}", cc.port()),
    ] {
        let r = kafkaops(
            Conn {
                url: &plain,
                ..admin
            },
            &bootstrap,
            &["rebalance", "status"],
        );
        refused_at_once(&r, &["speaks HTTPS", &format!("use {https}")]);
        assert!(!r.stderr.contains("waiting"), "{}", r.stderr);
        outputs.push(r);
    }

    eprintln!("step (point 13): no CA file, and a CA file that does not sign the certificate");
    let r = kafkaops(
        Conn { ca: None, ..admin },
        &bootstrap,
        &["rebalance", "status"],
    );
    refused_at_once(
        &r,
        &[
            "no CA file was given",
            "not among the system's trusted roots",
        ],
    );
    outputs.push(r);
    let other = tempfile::tempdir().unwrap();
    let other_ca = other.path().join("other-ca.pem");
    TestCa::generate("not-the-cruise-control-ca")
        .unwrap()
        .write_cert(&other_ca)
        .unwrap();
    let wrong_ca = Conn {
        ca: Some(other_ca.as_path()),
        ..admin
    };
    let r = kafkaops(wrong_ca, &bootstrap, &["rebalance", "status"]);
    refused_at_once(
        &r,
        &["the CA file given (--cruise-control-ca-file) does not sign the certificate"],
    );
    outputs.push(r);
    let r = kafkaops(wrong_ca, &bootstrap, &["-v", "rebalance", "status"]);
    assert_eq!(r.code, 6, "{}", r.stderr);
    assert!(
        r.stderr.contains("certificate verify failed"),
        "OpenSSL's details at -v: {}",
        r.stderr
    );
    outputs.push(r);

    eprintln!("step (point 14): a URL prefix no Cruise Control API answers under");
    let wrong_prefix = format!("https://127.0.0.1:{}/cruise", cc.port());
    let r = kafkaops(
        Conn {
            url: &wrong_prefix,
            ..admin
        },
        &bootstrap,
        &["rebalance", "status"],
    );
    refused_at_once(
        &r,
        &[
            &format!("no Cruise Control API answered under {wrong_prefix}"),
            "GET /cruise/kafkacruisecontrol/state answered HTTP 404",
        ],
    );
    outputs.push(r);

    eprintln!("step (point 15): a computing proposal is polled quickly at first, then less often");
    let r = kafkaops(admin, &bootstrap, &["-vv", "rebalance", "full"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The pauses the poller chose, per task: "task ID: polling user_tasks in 200ms".
    let mut chosen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for line in r.stderr.lines() {
        if let Some(rest) = line.split("task ").nth(1)
            && let Some((id, pause)) = rest.split_once(": polling user_tasks in ")
        {
            chosen
                .entry(id.to_string())
                .or_default()
                .push(pause.trim().to_string());
        }
    }
    let tasks = user_tasks(&cc);
    let proposal = tasks
        .iter()
        .find(|t| {
            let u = t["RequestURL"].as_str().unwrap_or("");
            u.contains("/rebalance?") && chosen.contains_key(t["UserTaskId"].as_str().unwrap())
        })
        .unwrap_or_else(|| panic!("no polled rebalance task: {chosen:?}\n{}", r.stderr));
    let id = proposal["UserTaskId"].as_str().unwrap();
    let pauses = &chosen[id];
    let doubling = ["200ms", "400ms", "800ms", "1s 600ms", "3s 200ms", "5s"];
    for (i, p) in pauses.iter().enumerate() {
        assert_eq!(p, doubling[i.min(5)], "pauses {pauses:?}");
    }
    // Each pause was followed by exactly one poll that reached Cruise Control.
    let polls: Vec<&Value> = tasks
        .iter()
        .filter(|t| {
            t["RequestURL"]
                .as_str()
                .is_some_and(|u| u.contains("/user_tasks?") && u.contains(id))
        })
        .collect();
    assert_eq!(polls.len(), pauses.len(), "{pauses:?} {polls:?}");
    let start = |t: &Value| t["StartMs"].as_str().unwrap().parse::<u64>().unwrap();
    eprintln!(
        "proposal task {id}: {} poll(s) after pauses {pauses:?}; first poll {} ms after the request",
        polls.len(),
        polls.iter().map(|p| start(p)).min().unwrap() - start(proposal)
    );
    outputs.push(r);

    eprintln!("step: no password in any output, at any verbosity");
    let r = kafkaops(admin, &bootstrap, &["-vvv", "rebalance", "full"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    outputs.push(r);
    let r = kafkaops(health, &bootstrap, &["-vvv", "rebalance", "full"]);
    assert_eq!(r.code, 6, "{}", r.stderr);
    outputs.push(r);
    let mut secrets: Vec<String> = [ADMIN_PW, HEALTH_PW, VIEWER_PW, WRONG_PW]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    // The Authorization header's value too.
    for (u, p) in [("rebalance-operator", ADMIN_PW), ("healthcheck", HEALTH_PW)] {
        secrets.push(openssl::base64::encode_block(format!("{u}:{p}").as_bytes()));
    }
    for o in &outputs {
        for secret in &secrets {
            assert!(
                !o.stdout.contains(secret) && !o.stderr.contains(secret),
                "a password shown:\n{}\n{}",
                o.stdout,
                o.stderr
            );
        }
    }
    drop(cc);
}
