//! Which Cruise Control user task is ours, and a flow whose execution request got no answer
//! is attached to it, never sent again.

use super::*;

#[test]
fn request_urls_tell_endpoint_dry_run_and_brokers() {
    let r = request_of("POST /kafkacruisecontrol/add_broker?brokerid=4%2C5&dryrun=false");
    assert_eq!(r.endpoint, "add_broker");
    assert!(!r.dryrun);
    assert_eq!(r.brokers, [4, 5].into_iter().collect());
    assert!(request_of("POST /kafkacruisecontrol/add_broker?brokerid=4").dryrun);
    let r = request_of("POST /kafkacruisecontrol/rebalance?DRYRUN=FALSE");
    assert_eq!((r.endpoint.as_str(), r.dryrun), ("rebalance", false));
    // Cruise Control lists values decoded, spaces and all, in any order.
    let r = request_of(
        "POST /kafkacruisecontrol/remove_broker?reason=kafkaops operate: remove-brokers brokers 4 [9-2]&brokerid=4,5&json=true&dryrun=false",
    );
    assert_eq!(r.endpoint, "remove_broker");
    assert!(!r.dryrun);
    assert_eq!(r.brokers, [4, 5].into_iter().collect());
    assert!(r.params.contains(&(
        "reason".into(),
        "kafkaops operate: remove-brokers brokers 4 [9-2]".into()
    )));
}

#[test]
fn our_task_is_the_execution_of_the_same_request_since_it_was_sent() {
    let b: BTreeSet<i32> = [4].into_iter().collect();
    let tasks = vec![
        task("old", "POST /x/add_broker?brokerid=4&dryrun=false", 1_000),
        task("dry", "POST /x/add_broker?brokerid=4", 100_000),
        task(
            "other",
            "POST /x/add_broker?brokerid=5&dryrun=false",
            100_000,
        ),
        task("ours", "POST /x/add_broker?brokerid=4&dryrun=false", 99_000),
        task(
            "rm",
            "POST /x/remove_broker?brokerid=4&dryrun=false",
            100_500,
        ),
    ];
    // A state saved before the parameters were kept: the old rule (brokers, start time).
    let found = find_our_task(&tasks, "add_broker", None, &b, Millis(100_000)).unwrap();
    assert_eq!(found.user_task_id, "ours");
    assert!(find_our_task(&tasks, "add_broker", None, &b, Millis(200_000)).is_none());
}

#[test]
fn a_failed_execution_request_is_looked_for_in_user_tasks_never_sent_again() {
    use crate::engine::cc_flow::{Failure, FailureClass};
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    drive_to_start(&mut s, obs.now);
    // The request timed out: it may have reached Cruise Control.
    let mut f = s.flow().cloned().unwrap();
    f.handle_error(Failure {
        class: FailureClass::Retryable,
        kind: crate::engine::failure::FailureKind::Unreachable,
        message: "timed out".into(),
    });
    s.set_flow(f);
    let saved = s.clone();
    assert!(
        s.needs_user_tasks(),
        "the task is to be found in user_tasks"
    );
    // Cruise Control lists it (still computing; the executor is idle): attach, follow it.
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    obs.now = Millis(1_002_000);
    let sent = saved.rebalance().and_then(|r| r.request.clone()).unwrap();
    if let Ok(cc) = &mut obs.cc {
        let mut t = task("t1", &listed("add_broker", &sent), 1_000_100);
        t.status = TaskStatus::Active;
        cc.user_tasks = Some(vec![t]);
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(s.flow().and_then(CcFlow::task_id), Some("t1"), "{s:?}");
    assert!(s.flow().unwrap().execution_requested());
    // Not listed while the executor runs something: wait, never a second request.
    let mut s = saved.clone();
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    busy(&mut obs, "someone");
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(Vec::new());
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(d.acts.is_empty(), "{d:?}");
    assert!(s.needs_user_tasks());
    // Not listed, executor idle: it never reached Cruise Control; counted as failed, retried.
    let mut s = saved;
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(Vec::new());
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(
        d.records.iter().any(|r| r.result == RecordResult::Failed
            && r.reason.contains("never reached Cruise Control")),
        "{d:?}"
    );
}

#[test]
fn our_task_is_found_by_its_parameters_whatever_the_clocks_say() {
    let policy = policy_add_remove(&[]);
    let mut s = OperateState::new();
    let obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    drive_to_start(&mut s, obs.now);
    // Saved with the request in flight; the leader restarts (no answer was saved).
    let saved = s.clone();
    let sent = saved.rebalance().and_then(|r| r.request.clone()).unwrap();
    assert!(
        sent.iter()
            .any(|(k, v)| k == "reason" && v.contains(saved.request_tag())),
        "{sent:?}"
    );
    // Cruise Control's clock is 10 minutes behind: its task started "before" the request.
    // Listed next to an older identical-looking request and one of someone else.
    let skew = 600_000;
    let requested = obs.now.0;
    let start = |behind: u64| i64::try_from(requested - behind).unwrap();
    let mut ours = task("ours", &listed("add_broker", &sent), start(skew));
    ours.status = TaskStatus::InExecution;
    let mut older = sent.clone();
    for (k, v) in &mut older {
        if k == "reason" {
            *v = "kafkaops operate: test [1-1]".into();
        }
    }
    let tasks = vec![
        task("older", &listed("add_broker", &older), start(skew + 1)),
        task(
            "theirs",
            "POST /kafkacruisecontrol/add_broker?brokerid=3&dryrun=false&json=true",
            start(skew),
        ),
        ours,
    ];
    // The old rule (5 s of skew) misses it.
    let b: BTreeSet<i32> = [3].into_iter().collect();
    assert!(find_our_task(&tasks, "add_broker", None, &b, Millis(requested)).is_none());
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    obs.now = Millis(requested + 2_000);
    busy(&mut obs, "ours");
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(tasks.clone());
    }
    let mut s = saved.clone();
    assert!(s.needs_user_tasks());
    let d = decide(&mut s, &obs, &policy, &config());
    assert_eq!(d.acts, vec![Act::StepRebalance], "{d:?}");
    assert_eq!(s.flow().and_then(CcFlow::task_id), Some("ours"), "{d:?}");
    // Listed as sent (encoded) by the test double: the same task.
    let encoded = listed("add_broker", &sent)
        .replace("kafkaops operate: test", "kafkaops+operate%3A+test")
        .replace('[', "%5B")
        .replace(']', "%5D");
    let t = task("enc", &encoded, start(skew));
    assert_eq!(
        find_our_task(&[t], "add_broker", Some(&sent), &b, Millis(requested))
            .map(|t| t.user_task_id.as_str()),
        Some("enc")
    );
    // Only someone else's request is listed, the executor idle: never reached Cruise Control
    // (counted as failed, retried later), not "attached" to theirs.
    let mut s = saved;
    let mut obs = observation(&[(1, 6), (2, 6), (3, 0)], &[]);
    if let Ok(cc) = &mut obs.cc {
        cc.user_tasks = Some(vec![tasks[0].clone(), tasks[1].clone()]);
    }
    let d = decide(&mut s, &obs, &policy, &config());
    assert!(
        d.records
            .iter()
            .any(|r| r.result == RecordResult::Failed && r.reason.contains("never reached")),
        "{d:?}"
    );
}

#[test]
fn a_full_rebalance_is_matched_on_its_whole_parameter_set() {
    let sent: RequestParams = vec![
        ("dryrun".into(), "false".into()),
        (
            "goals".into(),
            "RackAwareGoal,ReplicaDistributionGoal".into(),
        ),
        ("excluded_topics".into(), "__.+".into()),
        ("destination_broker_ids".into(), "1,2,3".into()),
        (
            "reason".into(),
            "kafkaops operate: imbalance cluster [5-1]".into(),
        ),
    ];
    let b = BTreeSet::new();
    let url = |q: &RequestParams| listed("rebalance", q);
    let mut other_goals = sent.clone();
    other_goals[1].1 = "RackAwareGoal".into();
    let mut fewer = sent.clone();
    fewer.remove(3);
    let mut more = sent.clone();
    more.push(("replication_throttle".into(), "1000".into()));
    let tasks = vec![
        task(
            "any-after",
            "POST /kafkacruisecontrol/rebalance?dryrun=false&json=true",
            9_000_000,
        ),
        task("goals", &url(&other_goals), 9_000_000),
        task("fewer", &url(&fewer), 9_000_000),
        task("more", &url(&more), 9_000_000),
    ];
    assert!(find_our_task(&tasks, "rebalance", Some(&sent), &b, Millis(1_000)).is_none());
    let mut with_ours = tasks.clone();
    with_ours.push(task("ours", &url(&sent), 1));
    assert_eq!(
        find_our_task(&with_ours, "rebalance", Some(&sent), &b, Millis(1_000))
            .map(|t| t.user_task_id.as_str()),
        Some("ours")
    );
    // A dry run of the same parameters is not it.
    let mut dry = sent.clone();
    dry[0].1 = "true".into();
    let t = task("dry", &url(&dry), 1);
    assert!(find_our_task(&[t], "rebalance", Some(&sent), &b, Millis(0)).is_none());
}
