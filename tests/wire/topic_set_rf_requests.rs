//! How many Cruise Control requests a replication-factor change of 1,000 topics needs
//! (recorded in `benches/README.md`): `kafkaops topic set-rf`'s round, i.e. the engine's groups
//! ([`ReplicasState::to_send`]) sent as one `topic_configuration` body through the shared flow,
//! against a wiremock Cruise Control that counts every request by endpoint.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use kafkaops::cruise_control::model::OptimizationResult;
use kafkaops::cruise_control::params::{ExecutionOptions, GoalOptions, TopicConfigurationRequest};
use kafkaops::cruise_control::retry::Backoff;
use kafkaops::cruise_control::{Answer, CcError, ClientConfig, CruiseControlClient, Observer};
use kafkaops::driver::cc_flow::{self as flow, FlowHooks};
use kafkaops::engine::cc_flow::{FlowConfig, InterruptChoice, Outcome};
use kafkaops::engine::drift::{DriftReport, Plan, Tolerance};
use kafkaops::engine::replicas::{
    ClusterFacts, ReplicasState, TopicFacts, merge_requests, whole_names_regex,
};
use kafkaops::engine::view::ExecutorState;
use kafkaops::error::CliError;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use crate::cc_wire;
use cc_wire::{TASK, fixture, json};

struct Quiet;

impl Observer for Quiet {
    fn retrying(&self, _: &str, _: u32, _: Duration, _: &CcError) {}
    fn computing(&self, _: &str, _: Option<&kafkaops::cruise_control::model::ProgressStep>) {}
}

struct Hooks;

impl FlowHooks for Hooks {
    type Error = CliError;
    async fn check_input(
        &self,
        _cc: &CruiseControlClient,
        _deadline: Instant,
        _obs: &dyn Observer,
    ) -> Result<Result<(), CliError>, CcError> {
        Ok(Ok(()))
    }
    fn waiting_for_ready(&self, _reason: &str) {}
    fn proposal(&self, _dry_run: &Answer<OptimizationResult>) {}
    fn confirm(&self, _dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
        Ok(())
    }
    fn following(&self, _task_id: Option<&str>) {}
    fn following_again(&self, _task_id: Option<&str>) {}
    fn waiting_for_previous_stop(&self) {
        flow::log_previous_stop();
    }
    fn progress(&self, _executor: &ExecutorState) {}
    fn follow_ended(&self) {}
    fn approved_plan(&self) -> Option<Plan> {
        None
    }
    fn tolerance(&self) -> Tolerance {
        Tolerance::default()
    }
    fn drifted(&self, _report: &DriftReport, _new: &Answer<OptimizationResult>) {}
    fn execution_drifted(&self, _report: &DriftReport, _task_id: Option<&str>) {}
    async fn choose_after_interrupt(&self, _task_id: Option<&str>) -> InterruptChoice {
        InterruptChoice::LeaveRunning
    }
}

#[tokio::test]
async fn a_thousand_topics_take_one_execution_request() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/state"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/kafkacruisecontrol/topic_configuration"))
        .respond_with(
            json(200, &fixture("add_broker_verbose.json")).insert_header("User-Task-ID", TASK),
        )
        .mount(&server)
        .await;
    let tasks = serde_json::json!({"userTasks":[{"UserTaskId":TASK,
        "RequestURL":"POST /kafkacruisecontrol/topic_configuration?dryrun=false&json=true",
        "ClientIdentity":"127.0.0.1","StartMs":"1","Status":"Completed"}],"version":1});
    Mock::given(method("GET"))
        .and(path("/kafkacruisecontrol/user_tasks"))
        .respond_with(json(200, &tasks.to_string()))
        .mount(&server)
        .await;

    // 1,000 topics: 600 going 3 -> 2, 400 going 2 -> 3.
    let mut facts = ClusterFacts {
        brokers: 4,
        ..ClusterFacts::default()
    };
    let mut pairs = Vec::new();
    for i in 0..1000 {
        let (now, target) = if i < 600 { (3, 2) } else { (2, 3) };
        let name = format!("team-{}.events.v{i}", i % 7);
        facts.topics.insert(
            name.clone(),
            TopicFacts {
                partitions: 12,
                min_rf: now,
                max_rf: now,
                min_isr: Some(1),
            },
        );
        pairs.push((name, target));
    }
    let wanted = merge_requests(pairs).unwrap();
    let mut state = ReplicasState::plan(None, &wanted, &facts);
    let by_factor: BTreeMap<u16, String> = state
        .to_send()
        .into_iter()
        .map(|(rf, t)| (rf, whole_names_regex(&t)))
        .collect();
    assert_eq!(by_factor.len(), 2);
    let request = TopicConfigurationRequest {
        topic: String::new(),
        replication_factor: 0,
        by_factor,
        skip_rack_awareness_check: true,
        execution: ExecutionOptions::default(),
        goals: GoalOptions::default(),
        reason: "count".into(),
    };
    let cc = CruiseControlClient::new(ClientConfig {
        url: server.uri().parse().unwrap(),
        username: None,
        password: None,
        ca_pem: None,
        timeout: Duration::from_secs(5),
        poll_interval: Duration::from_millis(10),
        backoff: Backoff::default(),
        connect_to: None,
    })
    .unwrap();
    let config = FlowConfig {
        execute: true,
        assume_yes: true,
        no_wait: false,
        timeout_ms: 20_000,
        wait_for_ready_ms: 0,
        poll_interval_ms: 10,
        recheck: false,
        follow_timeout_ms: None,
    };
    let report = flow::run(
        &cc,
        &request,
        config,
        &Hooks,
        &Quiet,
        std::future::pending(),
    )
    .await;
    assert!(
        matches!(report.outcome, Outcome::Completed { .. }),
        "{:?}",
        report.outcome
    );
    state.handle_sent(report.outcome.task_id().map(str::to_string));
    assert_eq!(state.ongoing_tasks().len(), 1);

    let received = server.received_requests().await.unwrap();
    let mut by_endpoint: BTreeMap<String, usize> = BTreeMap::new();
    for r in &received {
        *by_endpoint
            .entry(
                r.url
                    .path()
                    .trim_start_matches("/kafkacruisecontrol/")
                    .to_string(),
            )
            .or_default() += 1;
    }
    eprintln!("requests for 1,000 topics: {by_endpoint:?}");
    let bodies: Vec<&wiremock::Request> = received
        .iter()
        .filter(|r| r.url.path().ends_with("topic_configuration"))
        .collect();
    assert_eq!(bodies.len(), 2, "one dry run and one execution");
    for b in &bodies {
        let v: serde_json::Value = serde_json::from_slice(&b.body).unwrap();
        let groups = &v["replication_factor"]["topic_by_replication_factor"];
        assert_eq!(groups["2"].as_str().unwrap().split('|').count(), 600);
        assert_eq!(groups["3"].as_str().unwrap().split('|').count(), 400);
        assert!(!b.url.query().unwrap_or("").contains("topic="));
    }
    // One readiness look, the dry run, the execution, then one (state + user_tasks) look per
    // poll until the task is Completed (here the first).
    assert_eq!(by_endpoint.get("topic_configuration"), Some(&2));
    assert_eq!(by_endpoint.get("state"), Some(&2));
    assert_eq!(by_endpoint.get("user_tasks"), Some(&1));
    assert_eq!(received.len(), 5);
}
