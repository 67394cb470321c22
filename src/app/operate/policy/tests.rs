//! Tests of the operate policy: parsing, validation against the cluster, and reloading from a
//! file (the last good policy kept when the file turns bad).

use std::path::PathBuf;

use super::*;

const GOOD: &str = "\
autoRebalance:
  - mode: add-brokers
    template: { name: add }
  - mode: remove-brokers
    template: { name: remove }
  - mode: imbalance
    template: { name: full }
scaleUpGracePeriod: 2m
drain: [2]
templates:
  add: {}
  remove: { replicationThrottle: 10000000 }
  full: { mode: full, goals: [RackAwareGoal, ReplicaDistributionGoal] }
replicationFactors:
  orders: 3
roll:
  brokerConfig:
    log.retention.ms: \"604800000\"
  maxBatchSize: 1
";

fn facts() -> ClusterFacts {
    ClusterFacts {
        brokers: [0, 1, 2].into_iter().collect(),
        topics: ["orders".to_string(), "payments".to_string()]
            .into_iter()
            .collect(),
    }
}

/// The one problem of a bad policy, as displayed.
fn problem(text: &str) -> String {
    let err = Policy::parse(text).and_then(|p| p.check(&facts()).map(|()| p));
    let err = err.expect_err("the policy should be rejected");
    assert_eq!(err.problems.len(), 1, "{err}");
    err.to_string()
}

#[test]
fn the_documented_policy_is_good() {
    let p = Policy::parse(GOOD).unwrap();
    p.check(&facts()).unwrap();
    assert_eq!(p.scale_up_grace_period, Duration::from_secs(120));
    assert_eq!(p.drain, vec![2]);
    assert_eq!(p.replication_factors["orders"], 3);
    assert_eq!(p.templates["remove"].replication_throttle, Some(10_000_000));
    assert_eq!(p.roll.broker_config["log.retention.ms"], "604800000");
    // `{}` asks for nothing: no mode runs.
    let empty = Policy::parse("{}").unwrap();
    assert!(empty.auto_rebalance.is_empty());
    assert_eq!(empty.roll.max_batch_size, 1);
}

#[test]
fn the_example_configmap_policy_is_good() {
    let cm: serde_yaml::Value =
        serde_yaml::from_str(include_str!("../../../../examples/operate/policy.yaml")).unwrap();
    let text = cm["data"]["policy.yaml"].as_str().unwrap();
    let p = Policy::parse(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.auto_rebalance.len(), 3);
}

#[test]
fn a_wrong_value_is_named_at_its_field() {
    let bad = GOOD.replace("orders: 3", "orders: three");
    let msg = problem(&bad);
    assert!(
        msg.starts_with("replicationFactors.orders: invalid type: string \"three\""),
        "{msg}"
    );
    let bad = GOOD.replace("orders: 3", "orders: 70000");
    let msg = problem(&bad);
    assert!(
        msg.starts_with("replicationFactors.orders: invalid value: integer `70000`"),
        "{msg}"
    );
    let bad = GOOD.replace("scaleUpGracePeriod: 2m", "scaleUpGracePeriod: soon");
    assert!(problem(&bad).starts_with("scaleUpGracePeriod: "));
    let bad = GOOD.replace("mode: remove-brokers", "mode: remove-broker");
    let msg = problem(&bad);
    assert!(
        msg.starts_with("autoRebalance[1].mode: unknown variant"),
        "{msg}"
    );
}

#[test]
fn unknown_keys_are_named() {
    let bad = GOOD.replace("  maxBatchSize: 1", "  maxBatchSise: 1");
    let msg = problem(&bad);
    assert!(
        msg.starts_with("roll.maxBatchSise: unknown field `maxBatchSise`"),
        "{msg}"
    );
    let bad = GOOD.replace("drain: [2]", "drian: [2]");
    let msg = problem(&bad);
    assert!(msg.starts_with("drian: unknown field `drian`"), "{msg}");
    let bad = GOOD.replace("replicationThrottle:", "replicationThrotle:");
    let msg = problem(&bad);
    assert!(
        msg.starts_with("templates.remove.replicationThrotle: unknown field"),
        "{msg}"
    );
    let bad = GOOD.replace(
        "template: { name: add }",
        "template: { name: add, kind: x }",
    );
    let msg = problem(&bad);
    assert!(
        msg.starts_with("autoRebalance[0].template.kind: unknown field"),
        "{msg}"
    );
}

#[test]
fn an_unknown_template_is_named() {
    let bad = GOOD.replace("{ name: remove }", "{ name: remov }");
    assert_eq!(
        problem(&bad),
        "autoRebalance[1].template.name: unknown template \"remov\" (templates: add, full, remove)"
    );
}

#[test]
fn a_template_mode_must_fit_the_auto_rebalance_mode() {
    let bad = GOOD.replace("{ mode: full,", "{ mode: remove-brokers,");
    let msg = problem(&bad);
    assert!(
            msg.starts_with("templates.full.mode: \"remove-brokers\": the template is used by autoRebalance[2] (imbalance), which runs a `full` rebalance"),
            "{msg}"
        );
    let bad = GOOD.replace("remove: {", "remove: { mode: full,");
    let msg = problem(&bad);
    assert!(msg.starts_with("templates.remove.mode: \"full\""), "{msg}");
    let ok = GOOD.replace("remove: {", "remove: { mode: remove-brokers,");
    Policy::parse(&ok).unwrap();
}

#[test]
fn a_mode_listed_twice_is_named() {
    let bad = GOOD.replace(
        "  - mode: imbalance\n",
        "  - mode: add-brokers\n    template: { name: add }\n  - mode: imbalance\n",
    );
    assert_eq!(
        problem(&bad),
        "autoRebalance[2].mode: add-brokers is already listed at autoRebalance[0] (each mode once)"
    );
}

#[test]
fn drained_brokers_must_exist_and_leave_one() {
    let bad = GOOD.replace("drain: [2]", "drain: [2, 9]");
    assert_eq!(
        problem(&bad),
        "drain[1]: broker 9 does not exist (brokers: 0, 1, 2)"
    );
    let bad = GOOD.replace("drain: [2]", "drain: [0, 1, 2]");
    assert!(problem(&bad).starts_with("drain: drains every broker (0, 1, 2)"));
}

#[test]
fn factors_must_be_in_range_and_topics_must_exist() {
    let bad = GOOD.replace("orders: 3", "orders: 4");
    assert_eq!(
        problem(&bad),
        "replicationFactors.orders: 4 is out of range 1..=3 (the cluster has 3 brokers)"
    );
    let bad = GOOD.replace("orders: 3", "orders: 0");
    assert!(problem(&bad).starts_with("replicationFactors.orders: 0 is not a replication factor"));
    let bad = GOOD.replace("orders: 3", "ordres: 3");
    assert_eq!(
        problem(&bad),
        "replicationFactors.ordres: topic \"ordres\" does not exist"
    );
}

#[test]
fn every_problem_is_reported() {
    let bad = GOOD
        .replace("drain: [2]", "drain: [7]")
        .replace("orders: 3", "orders: 5");
    let err = Policy::parse(&bad).unwrap().check(&facts()).unwrap_err();
    let fields: Vec<&str> = err.problems.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(fields, ["drain[0]", "replicationFactors.orders"]);
}

#[test]
fn an_empty_or_broken_file_is_rejected() {
    assert!(Policy::parse("").unwrap_err().to_string().contains("empty"));
    assert!(Policy::parse("  \n").is_err());
    // Cut mid-write inside a flow mapping: not YAML, the error says where.
    let cut = &GOOD[..GOOD.find("remove }").unwrap() + 3];
    let msg = Policy::parse(cut).unwrap_err().to_string();
    assert!(msg.contains("line"), "{msg}");
}

// ---- reload ----

struct File {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl File {
    fn new(text: &str) -> File {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("policy.yaml");
        std::fs::write(&path, text).unwrap();
        File { _dir: dir, path }
    }
    fn write(&self, text: &str) {
        std::fs::write(&self.path, text).unwrap();
    }
}

async fn source(f: &File) -> PolicySource {
    PolicySource::load(&f.path, Duration::ZERO, Some(&facts()))
        .await
        .unwrap()
}

async fn refresh(s: &mut PolicySource) -> Reload {
    s.refresh(async || Ok(facts())).await
}

#[tokio::test]
async fn a_bad_file_at_start_is_fatal_and_names_the_field() {
    let f = File::new(&GOOD.replace("orders: 3", "orders: 9"));
    let err = PolicySource::load(&f.path, Duration::ZERO, Some(&facts()))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("replicationFactors.orders: 9 is out of range"),
        "{err}"
    );
    let missing = f.path.with_file_name("nothing.yaml");
    let err = PolicySource::load(&missing, Duration::ZERO, Some(&facts()))
        .await
        .unwrap_err();
    assert!(matches!(err, LoadError::Unreadable { .. }), "{err}");
}

#[tokio::test]
async fn a_changed_file_is_reloaded_and_an_unchanged_one_is_not() {
    let f = File::new(GOOD);
    let mut s = source(&f).await;
    assert_eq!(refresh(&mut s).await, Reload::Unchanged);
    f.write(&GOOD.replace("orders: 3", "orders: 2"));
    assert_eq!(refresh(&mut s).await, Reload::Reloaded);
    assert_eq!(s.policy().replication_factors["orders"], 2);
    assert_eq!(refresh(&mut s).await, Reload::Unchanged);
}

#[tokio::test]
async fn a_bad_version_keeps_the_last_good_policy_and_is_reported_once() {
    let f = File::new(GOOD);
    let mut s = source(&f).await;
    f.write(&GOOD.replace("{ name: full }", "{ name: fulll }"));
    match refresh(&mut s).await {
        Reload::Rejected(e) => assert!(
            e.to_string()
                .starts_with("autoRebalance[2].template.name: unknown template \"fulll\""),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(*s.policy(), Policy::parse(GOOD).unwrap());
    assert_eq!(refresh(&mut s).await, Reload::Unchanged);
    // Fixed: adopted.
    f.write(&GOOD.replace("drain: [2]", "drain: []"));
    assert_eq!(refresh(&mut s).await, Reload::Reloaded);
    assert!(s.policy().drain.is_empty());
}

#[tokio::test]
async fn a_file_truncated_mid_write_is_never_acted_on() {
    let f = File::new(GOOD);
    let mut s = source(&f).await;
    let next = GOOD.replace("orders: 3", "orders: 1");
    for cut in [0, 40, next.find("remove }").unwrap() + 3] {
        f.write(&next[..cut]);
        assert!(
            matches!(refresh(&mut s).await, Reload::Rejected(_)),
            "cut at {cut}"
        );
        assert_eq!(s.policy().replication_factors["orders"], 3);
    }
    f.write(&next);
    assert_eq!(refresh(&mut s).await, Reload::Reloaded);
    assert_eq!(s.policy().replication_factors["orders"], 1);
}

#[tokio::test]
async fn a_file_being_written_is_not_adopted_until_it_settles() {
    let f = File::new(GOOD);
    let mut s = PolicySource::load(&f.path, Duration::from_millis(300), Some(&facts()))
        .await
        .unwrap();
    // A writer changes the file again while the first read settles.
    let path = f.path.clone();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        std::fs::write(&path, GOOD.replace("orders: 3", "orders: 2")).unwrap();
    });
    f.write(&GOOD.replace("orders: 3", "orders: 1"));
    assert_eq!(refresh(&mut s).await, Reload::Changing);
    writer.join().unwrap();
    assert_eq!(s.policy().replication_factors["orders"], 3);
    assert_eq!(refresh(&mut s).await, Reload::Reloaded);
    assert_eq!(s.policy().replication_factors["orders"], 2);
}

#[tokio::test]
async fn a_configmap_symlink_swap_is_seen_whatever_the_mtimes() {
    // The kubelet's layout: policy.yaml -> ..data/policy.yaml, ..data -> ..<timestamp>.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let old = d.join("..v1");
    std::fs::create_dir(&old).unwrap();
    std::fs::write(old.join("policy.yaml"), GOOD).unwrap();
    std::os::unix::fs::symlink("..v1", d.join("..data")).unwrap();
    std::os::unix::fs::symlink("..data/policy.yaml", d.join("policy.yaml")).unwrap();
    let mut s = PolicySource::load(&d.join("policy.yaml"), Duration::ZERO, Some(&facts()))
        .await
        .unwrap();
    // New version with the same mtime as the old one, swapped in atomically.
    let new = d.join("..v2");
    std::fs::create_dir(&new).unwrap();
    std::fs::write(
        new.join("policy.yaml"),
        GOOD.replace("drain: [2]", "drain: [1]"),
    )
    .unwrap();
    let mtime = std::fs::metadata(old.join("policy.yaml"))
        .unwrap()
        .modified()
        .unwrap();
    std::fs::File::options()
        .write(true)
        .open(new.join("policy.yaml"))
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    std::os::unix::fs::symlink("..v2", d.join("..data_tmp")).unwrap();
    std::fs::rename(d.join("..data_tmp"), d.join("..data")).unwrap();
    assert_eq!(refresh(&mut s).await, Reload::Reloaded);
    assert_eq!(s.policy().drain, vec![1]);
}

#[tokio::test]
async fn a_change_waits_for_the_cluster_facts() {
    let f = File::new(GOOD);
    let mut s = source(&f).await;
    // Unchanged: the cluster is not even asked.
    let asked = s
        .refresh(async || -> Result<ClusterFacts, String> { panic!("asked") })
        .await;
    assert_eq!(asked, Reload::Unchanged);
    f.write(&GOOD.replace("drain: [2]", "drain: [1]"));
    let r = s.refresh(async || Err("Kafka is down".to_string())).await;
    assert_eq!(r, Reload::Deferred("Kafka is down".into()));
    assert_eq!(s.policy().drain, vec![2]);
    assert_eq!(refresh(&mut s).await, Reload::Reloaded);
    assert_eq!(s.policy().drain, vec![1]);
    // At start without facts: only the checks that need no cluster.
    f.write(&GOOD.replace("drain: [2]", "drain: [9]"));
    let s = PolicySource::load(&f.path, Duration::ZERO, None)
        .await
        .unwrap();
    assert_eq!(s.policy().drain, vec![9]);
    f.write(&GOOD.replace("{ name: add }", "{ name: nope }"));
    assert!(
        PolicySource::load(&f.path, Duration::ZERO, None)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn a_policy_is_acted_on_only_once_the_cluster_checks_passed() {
    // Loaded while Kafka did not answer: not checked, nothing may act on it.
    let f = File::new(&GOOD.replace("drain: [2]", "drain: [9]"));
    let mut s = PolicySource::load(&f.path, Duration::ZERO, None)
        .await
        .unwrap();
    assert!(s.unchecked().is_some());
    // Kafka still down, the file unchanged: still unchecked, and says why.
    let r = s.refresh(async || Err("Kafka is down".to_string())).await;
    assert_eq!(r, Reload::Unchanged);
    assert!(s.unchecked().unwrap().contains("Kafka is down"), "{s:?}");
    // Kafka answers; broker 9 does not exist: still unchecked, with the problem.
    assert_eq!(refresh(&mut s).await, Reload::Unchanged);
    assert!(s.unchecked().unwrap().contains("drain[0]"), "{s:?}");
    // Broker 9 registers: checked, without an edit of the file.
    let mut with9 = facts();
    with9.brokers.insert(9);
    let f9 = with9.clone();
    assert_eq!(s.refresh(async || Ok(f9)).await, Reload::Checked);
    assert_eq!(s.unchecked(), None);
    assert_eq!(
        s.refresh(async || -> Result<ClusterFacts, String> { panic!("asked") })
            .await,
        Reload::Unchanged
    );

    // A new version rejected because of a cluster fact (a topic not created yet) ...
    let next = GOOD
        .replace("drain: [2]", "drain: [9]")
        .replace("  orders: 3", "  orders: 3\n  audit: 2");
    f.write(&next);
    let f9 = with9.clone();
    match s.refresh(async || Ok(f9)).await {
        Reload::Rejected(e) => assert!(
            e.to_string().starts_with("replicationFactors.audit: "),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
    // ... is reported once, checked again at each refresh ...
    let f9 = with9.clone();
    assert_eq!(s.refresh(async || Ok(f9)).await, Reload::Unchanged);
    assert!(!s.policy().replication_factors.contains_key("audit"));
    // ... and adopted once the topic exists, without an edit.
    with9.topics.insert("audit".to_string());
    assert_eq!(s.refresh(async || Ok(with9)).await, Reload::Reloaded);
    assert_eq!(s.policy().replication_factors["audit"], 2);
    assert_eq!(s.unchecked(), None);

    // Unchecked at start, then a broken file: the policy in force is still checked.
    let f = File::new(GOOD);
    let mut s = PolicySource::load(&f.path, Duration::ZERO, None)
        .await
        .unwrap();
    f.write("autoRebalance: [");
    assert!(matches!(refresh(&mut s).await, Reload::Rejected(_)));
    assert!(s.unchecked().is_some());
    assert_eq!(refresh(&mut s).await, Reload::Checked);
    assert_eq!(s.unchecked(), None);
}

#[tokio::test]
async fn an_unreadable_file_keeps_the_last_good_policy() {
    let f = File::new(GOOD);
    let mut s = source(&f).await;
    std::fs::remove_file(&f.path).unwrap();
    assert!(matches!(refresh(&mut s).await, Reload::Unreadable(_)));
    assert_eq!(*s.policy(), Policy::parse(GOOD).unwrap());
}
