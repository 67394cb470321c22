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
}

fn task(id: &str, url: &str, start: i64) -> UserTask {
    UserTask {
        user_task_id: id.into(),
        request_url: url.into(),
        client_identity: String::new(),
        start_ms: Some(start),
        status: TaskStatus::InExecution,
        original_response: None,
    }
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
    let found = find_our_task(&tasks, "add_broker", &b, Millis(100_000)).unwrap();
    assert_eq!(found.user_task_id, "ours");
    assert!(find_our_task(&tasks, "add_broker", &b, Millis(200_000)).is_none());
}
