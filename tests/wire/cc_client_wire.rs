//! Wire-level tests of the Cruise Control client against a double (wiremock) that
//! answers like Cruise Control does (reference §1-§7): every error class, the 202 +
//! `User-Task-ID` protocol, 401, TLS with a CA file, timeouts, and the server's
//! sloppiness (`NaN`, missing fields, `topicPartition` objects); and the one execution-flow
//! driver (`cruise_control::flow`) on top of the client: stop after an interrupt, a declined
//! confirmation, `topic_configuration` plugged in as the operation.

use std::time::{Duration, Instant};

use kafkaops::cruise_control::model::TaskStatus;
use kafkaops::cruise_control::params::{
    ExecutionOptions, GoalOptions, ProposalsRequest, RebalanceKind, RebalanceRequest, Substate,
    TopicConfigurationRequest,
};
use kafkaops::cruise_control::retry::{Backoff, RetryPolicy};
use kafkaops::cruise_control::{
    CcError, ClientConfig, CruiseControlClient, ErrorClass, LogObserver, Permanent, Transient,
};
use kafkaops::error::ExitCode;
use kafkaops::secret::Secret;
use wiremock::matchers::{basic_auth, header, method, path, query_param, query_param_is_missing};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::cc_wire;
use cc_wire::{TASK, accepted_202, cc_request, fixture, json, proposal_200, user_tasks_body};

fn with_task(t: ResponseTemplate) -> ResponseTemplate {
    t.insert_header("User-Task-ID", TASK)
}

fn config(url: &str) -> ClientConfig {
    ClientConfig {
        url: url.parse().unwrap(),
        username: None,
        password: None,
        ca_pem: None,
        timeout: Duration::from_secs(5),
        poll_interval: Duration::from_millis(10),
        backoff: Backoff {
            initial: Duration::from_millis(10),
            max: Duration::from_millis(50),
            task_limit_pause: Duration::from_millis(10),
        },
        connect_to: None,
    }
}

fn client(url: &str) -> CruiseControlClient {
    CruiseControlClient::new(config(url)).unwrap()
}

fn fast_policy(secs: u64) -> RetryPolicy {
    RetryPolicy {
        initial: Duration::from_millis(10),
        max: Duration::from_millis(50),
        task_limit_pause: Duration::from_millis(10),
        ..RetryPolicy::until(Instant::now() + Duration::from_secs(secs))
    }
}

fn add_broker(dryrun: bool) -> RebalanceRequest {
    RebalanceRequest {
        kind: RebalanceKind::AddBrokers(vec![4]),
        goals: GoalOptions::default(),
        execution: ExecutionOptions {
            dryrun,
            ..ExecutionOptions::default()
        },
        reason: "scale up".into(),
        verbose: true,
        review_id: None,
        extra: Vec::new(),
    }
}

fn deadline() -> Instant {
    Instant::now() + Duration::from_secs(10)
}

#[tokio::test]
async fn dry_run_sends_only_accepted_parameters_and_parses_sloppy_json() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .and(query_param("json", "true"))
        .and(query_param("dryrun", "true"))
        .and(query_param("brokerid", "4"))
        .and(query_param("verbose", "true"))
        .and(query_param("reason", "scale up"))
        .and(query_param_is_missing("destination_broker_ids"))
        .and(query_param_is_missing("goals"))
        .and(basic_auth("admin", "s3cret-pw"))
        .respond_with(with_task(proposal_200()))
        .expect(1)
        .mount(&server)
        .await;
    let mut cfg = config(&server.uri());
    cfg.username = Some("admin".into());
    cfg.password = Some(Secret::new("s3cret-pw"));
    let cc = CruiseControlClient::new(cfg).unwrap();
    let r = cc
        .rebalance(&add_broker(true), &fast_policy(5), &LogObserver)
        .await
        .unwrap();
    assert_eq!(r.task_id.as_deref(), Some(TASK));
    let s = &r.value.summary;
    assert_eq!(s.num_replica_movements, 3);
    assert_eq!(s.on_demand_balancedness_score_before, None, "NaN -> None");
    assert_eq!(s.on_demand_balancedness_score_after, Some(91.25));
    assert_eq!(s.provision_status, None, "missing optional field");
    assert_eq!(r.value.proposals[0].topic_partition.topic, "orders");
    assert_eq!(r.value.proposals[0].topic_partition.partition, 2);
    assert_eq!(r.value.goal_summary.len(), 3);
    let after = r.value.load_after_optimization.unwrap();
    assert_eq!(after.brokers[3].replicas, 3);
}

#[tokio::test]
async fn accepted_202_is_followed_through_user_tasks_without_resubmitting() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .respond_with(accepted_202())
        .expect(1)
        .mount(&server)
        .await;
    // First poll: still computing; then completed with the original response.
    cc_request("GET", "user_tasks")
        .and(query_param("user_task_ids", TASK))
        .and(query_param("fetch_completed_task", "true"))
        .and(query_param("json", "true"))
        .respond_with(json(200, &user_tasks_body(true, "Active", None)))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(
            200,
            &user_tasks_body(true, "Completed", Some(&fixture("add_broker_verbose.json"))),
        ))
        .with_priority(2)
        .mount(&server)
        .await;
    let cc = client(&server.uri());
    let r = cc
        .rebalance(&add_broker(true), &fast_policy(5), &LogObserver)
        .await
        .unwrap();
    assert_eq!(r.task_id.as_deref(), Some(TASK));
    assert_eq!(r.value.summary.data_to_move_mb, Some(42.0));
    let polls = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path().ends_with("user_tasks"))
        .count();
    assert_eq!(polls, 3);
}

/// #25 point 15: a quick poll (before the poll interval) that finds every user-task slot taken
/// is not retried at once, nor waited for with a warning: the next poll comes at the interval.
#[tokio::test]
async fn a_quick_poll_without_a_free_slot_falls_back_to_the_poll_interval() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .respond_with(accepted_202())
        .expect(1)
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(
            500,
            r#"{"errorMessage":"There are already 5 active user tasks, which has reached the servlet capacity.","version":1}"#,
        ))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(
            200,
            &user_tasks_body(true, "Completed", Some(&fixture("add_broker_verbose.json"))),
        ))
        .with_priority(2)
        .mount(&server)
        .await;
    let mut cfg = config(&server.uri());
    cfg.poll_interval = Duration::from_millis(700);
    let cc = CruiseControlClient::new(cfg).unwrap();
    let started = Instant::now();
    let r = cc
        .rebalance(&add_broker(true), &fast_policy(5), &LogObserver)
        .await
        .unwrap();
    assert_eq!(r.task_id.as_deref(), Some(TASK));
    let polls = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path().ends_with("user_tasks"))
        .count();
    assert_eq!(polls, 2, "the refused quick poll, then one at the interval");
    // Lower bound only: the second poll waited the interval (200 ms + 700 ms of sleeps).
    assert!(started.elapsed() >= Duration::from_millis(900));
}

#[tokio::test]
async fn execution_202_returns_once_the_task_is_in_execution() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .and(query_param("dryrun", "false"))
        .respond_with(accepted_202())
        .expect(1)
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(
            200,
            &user_tasks_body(
                true,
                "InExecution",
                Some(&fixture("add_broker_verbose.json")),
            ),
        ))
        .mount(&server)
        .await;
    let cc = client(&server.uri());
    let r = cc
        .rebalance(&add_broker(false), &fast_policy(5), &LogObserver)
        .await
        .unwrap();
    assert_eq!(r.task_id.as_deref(), Some(TASK));
    let t = cc.user_task(TASK, deadline(), &LogObserver).await.unwrap();
    assert_eq!(t.status, TaskStatus::InExecution);
    assert_eq!(t.start_ms, Some(1_579_874_383_374));
}

#[tokio::test]
async fn a_forgotten_task_is_reported_as_lost() {
    let server = MockServer::start().await;
    cc_request("POST", "rebalance")
        .respond_with(accepted_202())
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(200, r#"{"userTasks":[],"version":1}"#))
        .mount(&server)
        .await;
    let mut req = add_broker(false);
    req.kind = RebalanceKind::Full;
    let err = client(&server.uri())
        .rebalance(&req, &fast_policy(5), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::TaskLost { .. }), "{err:?}");
    assert!(err.to_string().contains("outcome is unknown"));
}

#[tokio::test]
async fn a_failed_dry_run_task_reveals_its_error_through_the_task_header() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .and(header("User-Task-ID", TASK))
        .respond_with(json(500, &fixture("error_not_enough_windows.json")))
        .expect(1)
        .with_priority(1)
        .mount(&server)
        .await;
    cc_request("POST", "add_broker")
        .respond_with(accepted_202())
        .expect(1)
        .with_priority(2)
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(
            200,
            &user_tasks_body(true, "CompletedWithError", Some("CompletedWithError")),
        ))
        .mount(&server)
        .await;
    let err = client(&server.uri())
        .rebalance(&add_broker(true), &fast_policy(5), &LogObserver)
        .await
        .unwrap_err();
    assert_eq!(
        err.class(),
        ErrorClass::Retryable(Transient::NotEnoughValidWindows)
    );
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::NotReady
    );
}

#[tokio::test]
async fn a_failed_execution_task_is_not_resent() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .respond_with(accepted_202())
        .expect(1)
        .mount(&server)
        .await;
    cc_request("GET", "user_tasks")
        .respond_with(json(
            200,
            &user_tasks_body(true, "CompletedWithError", Some("COMPLETED_WITH_ERROR")),
        ))
        .mount(&server)
        .await;
    let err = client(&server.uri())
        .rebalance(&add_broker(false), &fast_policy(5), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::TaskFailed { .. }), "{err:?}");
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::Failed
    );
}

#[tokio::test]
async fn not_enough_valid_windows_is_retryable_and_waited_for_only_when_asked() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .respond_with(json(500, &fixture("error_not_enough_windows.json")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&server)
        .await;
    cc_request("POST", "add_broker")
        .respond_with(with_task(proposal_200()))
        .with_priority(2)
        .mount(&server)
        .await;
    let cc = client(&server.uri());
    // Not asked to wait: reported at once as "not ready" (exit 4).
    let err = cc
        .rebalance(&add_broker(true), &fast_policy(5), &LogObserver)
        .await
        .unwrap_err();
    assert_eq!(
        err.class(),
        ErrorClass::Retryable(Transient::NotEnoughValidWindows)
    );
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::NotReady
    );
    // Asked to wait: retried with backoff until the model is ready.
    let mut policy = fast_policy(5);
    policy.wait_for_not_ready = true;
    let r = cc
        .rebalance(&add_broker(true), &policy, &LogObserver)
        .await
        .unwrap();
    assert_eq!(r.value.summary.num_replica_movements, 3);
}

#[tokio::test]
async fn the_active_task_limit_is_retried_until_a_slot_frees() {
    let server = MockServer::start().await;
    cc_request("GET", "state")
        .respond_with(json(500, &fixture("error_active_tasks.json")))
        .up_to_n_times(2)
        .with_priority(1)
        .mount(&server)
        .await;
    cc_request("GET", "state")
        .and(query_param("substates", "executor,monitor"))
        .respond_with(json(200, &fixture("state_ready.json")))
        .with_priority(2)
        .mount(&server)
        .await;
    let cc = client(&server.uri());
    cc_request("GET", "proposals")
        .respond_with(json(500, &fixture("error_active_tasks.json")))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    cc_request("GET", "proposals")
        .and(query_param("ignore_proposal_cache", "true"))
        .respond_with(json(200, &fixture("rebalance_noop.json")))
        .with_priority(2)
        .mount(&server)
        .await;
    let p = cc
        .proposals(
            &ProposalsRequest {
                ignore_proposal_cache: true,
                reason: "r".into(),
                ..ProposalsRequest::default()
            },
            &fast_policy(5),
            &LogObserver,
        )
        .await
        .unwrap();
    assert!(p.is_noop());
    assert_eq!(p.summary.provision_status.as_deref(), Some("RIGHT_SIZED"));
    // `state` gets through once the limit clears.
    let s = cc
        .state(
            &[Substate::Executor, Substate::Monitor],
            false,
            deadline(),
            &LogObserver,
        )
        .await
        .unwrap();
    assert!(s.executor.unwrap().is_idle());
}

#[tokio::test]
async fn ongoing_execution_is_busy_and_not_retried_by_default() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .respond_with(json(500, &fixture("error_ongoing_execution.json")))
        .expect(1)
        .mount(&server)
        .await;
    let err = client(&server.uri())
        .rebalance(&add_broker(false), &fast_policy(5), &LogObserver)
        .await
        .unwrap_err();
    assert_eq!(
        err.class(),
        ErrorClass::Retryable(Transient::OngoingExecution)
    );
    assert_eq!(kafkaops::error_codes::cruise_control(&err), ExitCode::Busy);
}

#[tokio::test]
async fn permanent_errors_are_not_retried() {
    for (file, status, class, code) in [
        (
            "error_broker_not_exist.json",
            500,
            Permanent::UnknownBroker,
            ExitCode::Usage,
        ),
        (
            "error_missing_hard_goals.json",
            500,
            Permanent::MissingHardGoals,
            ExitCode::Usage,
        ),
        (
            "error_optimization_failure.json",
            500,
            Permanent::OptimizationFailure,
            ExitCode::GoalsUnsatisfiable,
        ),
        (
            "error_bad_parameter.json",
            400,
            Permanent::BadRequest,
            ExitCode::Usage,
        ),
    ] {
        let server = MockServer::start().await;
        cc_request("POST", "add_broker")
            .respond_with(json(status, &fixture(file)))
            .expect(1)
            .mount(&server)
            .await;
        let mut policy = fast_policy(5);
        policy.wait_for_not_ready = true;
        policy.wait_for_busy = true;
        let err = client(&server.uri())
            .rebalance(&add_broker(true), &policy, &LogObserver)
            .await
            .unwrap_err();
        assert_eq!(err.class(), ErrorClass::Permanent(class), "{file}");
        assert_eq!(kafkaops::error_codes::cruise_control(&err), code, "{file}");
        assert!(!err.is_retryable());
    }
}

#[tokio::test]
async fn already_at_target_replication_factor_is_a_noop() {
    let server = MockServer::start().await;
    cc_request("POST", "topic_configuration")
        .and(query_param("topic", "orders"))
        .and(query_param("replication_factor", "3"))
        .and(query_param("reason", "rf"))
        .respond_with(json(
            500,
            r#"{"errorMessage":"Error processing POST request '/topic_configuration' due to: 'java.lang.IllegalStateException: All topics matching given pattern already have target replication factor.'.","version":1}"#,
        ))
        .mount(&server)
        .await;
    let err = client(&server.uri())
        .topic_configuration(
            &TopicConfigurationRequest {
                topic: "orders".into(),
                replication_factor: 3,
                by_factor: Default::default(),
                skip_rack_awareness_check: false,
                execution: ExecutionOptions::default(),
                goals: GoalOptions::default(),
                reason: "rf".into(),
            },
            &fast_policy(5),
            &LogObserver,
        )
        .await
        .unwrap_err();
    assert_eq!(err.class(), ErrorClass::NoOp);
    assert_eq!(kafkaops::error_codes::cruise_control(&err), ExitCode::Ok);
}

#[tokio::test]
async fn unauthorized_is_an_auth_error_that_never_shows_the_password() {
    let server = MockServer::start().await;
    cc_request("GET", "state")
        .respond_with(
            ResponseTemplate::new(401)
                .insert_header("WWW-Authenticate", "basic realm=\"cc\"")
                .set_body_string("<html><body><h2>HTTP ERROR 401 Unauthorized</h2></body></html>"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let mut cfg = config(&server.uri());
    cfg.username = Some("admin".into());
    cfg.password = Some(Secret::new("wrong-password-xyz"));
    let cc = CruiseControlClient::new(cfg.clone()).unwrap();
    let err = cc
        .state(&[], false, deadline(), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::Auth { status: 401, .. }), "{err:?}");
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::Unreachable
    );
    for text in [
        err.to_string(),
        format!("{err:?}"),
        format!("{cc:?}"),
        format!("{cfg:?}"),
    ] {
        assert!(!text.contains("wrong-password-xyz"), "{text}");
    }
}

#[tokio::test]
async fn timeouts_are_classified_and_a_timed_out_execution_is_never_resent() {
    let server = MockServer::start().await;
    cc_request("POST", "add_broker")
        .respond_with(json(200, "{}").set_delay(Duration::from_secs(5)))
        .mount(&server)
        .await;
    cc_request("GET", "kafka_cluster_state")
        .respond_with(json(200, "{}").set_delay(Duration::from_secs(5)))
        .mount(&server)
        .await;
    let mut cfg = config(&server.uri());
    cfg.timeout = Duration::from_millis(200);
    let cc = CruiseControlClient::new(cfg).unwrap();

    let err = cc
        .rebalance(&add_broker(false), &fast_policy(30), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::Timeout { .. }), "{err:?}");
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::Timeout
    );
    let posts = server.received_requests().await.unwrap().len();
    assert_eq!(
        posts, 1,
        "a non-dry-run POST must not be re-sent after a timeout"
    );

    // A read is retried until the deadline, then reported as a timeout.
    let err = cc
        .kafka_cluster_state(Instant::now() + Duration::from_millis(1500), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::GaveUp { .. }), "{err:?}");
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::Timeout
    );
    assert!(server.received_requests().await.unwrap().len() >= 3);
}

#[tokio::test]
async fn connection_refused_is_unreachable() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let cc = client(&format!("http://127.0.0.1:{port}"));
    let err = cc
        .state(&[], false, Instant::now(), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::Unreachable { .. }), "{err:?}");
    assert_eq!(
        kafkaops::error_codes::cruise_control(&err),
        ExitCode::Unreachable
    );
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")));

    // Regression: "tls" in the URL (here its path) once made a refused connection a TLS failure.
    let cc = client(&format!("http://127.0.0.1:{port}/ssl-tls-proxy"));
    let err = cc
        .state(&[], false, Instant::now(), &LogObserver)
        .await
        .unwrap_err();
    assert!(matches!(err, CcError::Unreachable { .. }), "{err:?}");
}

#[tokio::test]
async fn small_endpoints_parse() {
    let server = MockServer::start().await;
    cc_request("GET", "kafka_cluster_state")
        .respond_with(json(200, &fixture("kafka_cluster_state.json")))
        .mount(&server)
        .await;
    cc_request("POST", "stop_proposal_execution")
        .and(query_param("reason", "enough"))
        .respond_with(json(200, &fixture("stop.json")))
        .expect(1)
        .mount(&server)
        .await;
    cc_request("GET", "load")
        .and(query_param_is_missing("verbose"))
        .respond_with(json(
            200,
            r#"{"hosts":[],"brokers":[{"Broker":1,"Replicas":4,"Leaders":2,"CpuPct":NaN,"DiskMB":1.5}],"version":1}"#,
        ))
        .mount(&server)
        .await;
    cc_request("GET", "state")
        .and(query_param_is_missing("substates"))
        .respond_with(json(200, &fixture("state_executing.json")))
        .mount(&server)
        .await;
    // A base URL that already carries the prefix works too.
    let cc = client(&format!("{}/kafkacruisecontrol/", server.uri()));
    let k = cc
        .kafka_cluster_state(deadline(), &LogObserver)
        .await
        .unwrap();
    assert_eq!(k.broker_ids(), vec![1, 2, 3, 4]);
    assert_eq!(k.replica_count(4), 0);
    let s = cc
        .stop_proposal_execution("enough", deadline(), &LogObserver)
        .await
        .unwrap();
    assert_eq!(s.message, "Proposal execution stopped.");
    let l = cc.load(deadline(), &LogObserver).await.unwrap();
    assert_eq!(l.brokers[0].leaders, 2);
    assert_eq!(l.brokers[0].cpu_pct, None);
    let st = cc
        .state(&[], false, deadline(), &LogObserver)
        .await
        .unwrap();
    let e = st.executor.unwrap();
    assert_eq!(e.running_task(), Some(TASK));
    assert_eq!(e.progress().partitions_finished, 2);
}

/// Regression (#25 point 14): a wrong URL prefix got Jetty's 404 page as the error; it says no
/// Cruise Control API answered and which path was tried. Cruise Control's own 404 (JSON, an
/// unknown endpoint under its prefix) stays its error.
#[tokio::test]
async fn a_404_page_that_is_not_cruise_controls_names_the_path_tried() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/cc/kafkacruisecontrol/state"))
        .respond_with(
            ResponseTemplate::new(404)
                .set_body_string("<html><body><h2>HTTP ERROR 404 Not Found</h2></body></html>"),
        )
        .mount(&server)
        .await;
    cc_request("GET", "state")
        .respond_with(json(
            404,
            r#"{"errorMessage":"Unrecognized endpoint in request '/state'","version":1}"#,
        ))
        .mount(&server)
        .await;
    let err = client(&format!("{}/cc", server.uri()))
        .state(&[], false, deadline(), &LogObserver)
        .await
        .unwrap_err();
    let shown = err.to_string();
    assert!(matches!(err, CcError::NoApi { .. }), "{err:?}");
    assert!(
        shown.contains("no Cruise Control API answered under")
            && shown.contains("GET /cc/kafkacruisecontrol/state"),
        "{shown}"
    );
    assert!(!shown.contains("<html"), "{shown}");
    let err = client(&server.uri())
        .state(&[], false, deadline(), &LogObserver)
        .await
        .unwrap_err();
    assert!(
        matches!(err, CcError::Api { status: 404, .. }),
        "Cruise Control's own 404: {err:?}"
    );
}

mod tls {
    //! A tiny HTTPS server with a certificate generated at test time.

    use super::*;
    use openssl::asn1::Asn1Time;
    use openssl::bn::{BigNum, MsbOption};
    use openssl::ec::{EcGroup, EcKey};
    use openssl::hash::MessageDigest;
    use openssl::nid::Nid;
    use openssl::pkey::PKey;
    use openssl::x509::extension::{BasicConstraints, SubjectAlternativeName};
    use openssl::x509::{X509, X509NameBuilder};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// (certificate PEM, PKCS#8 key PEM) for 127.0.0.1 / localhost, self-signed.
    fn self_signed() -> (Vec<u8>, Vec<u8>) {
        let group = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1).unwrap();
        let key = PKey::from_ec_key(EcKey::generate(&group).unwrap()).unwrap();
        let mut name = X509NameBuilder::new().unwrap();
        name.append_entry_by_text("CN", "kafkaops-test-cc").unwrap();
        let name = name.build();
        let mut b = X509::builder().unwrap();
        b.set_version(2).unwrap();
        let mut serial = BigNum::new().unwrap();
        serial.rand(64, MsbOption::MAYBE_ZERO, false).unwrap();
        b.set_serial_number(&serial.to_asn1_integer().unwrap())
            .unwrap();
        b.set_subject_name(&name).unwrap();
        b.set_issuer_name(&name).unwrap();
        b.set_pubkey(&key).unwrap();
        b.set_not_before(&Asn1Time::days_from_now(0).unwrap())
            .unwrap();
        b.set_not_after(&Asn1Time::days_from_now(2).unwrap())
            .unwrap();
        b.append_extension(BasicConstraints::new().critical().ca().build().unwrap())
            .unwrap();
        let san = SubjectAlternativeName::new()
            .ip("127.0.0.1")
            .dns("localhost")
            .build(&b.x509v3_context(None, None))
            .unwrap();
        b.append_extension(san).unwrap();
        b.sign(&key, MessageDigest::sha256()).unwrap();
        (
            b.build().to_pem().unwrap(),
            key.private_key_to_pem_pkcs8().unwrap(),
        )
    }

    /// Serves `body` as JSON over HTTPS to every connection; returns the port.
    async fn serve(cert: &[u8], key: &[u8], body: String) -> u16 {
        let id = native_tls::Identity::from_pkcs8(cert, key).unwrap();
        let acceptor =
            tokio_native_tls::TlsAcceptor::from(native_tls::TlsAcceptor::new(id).unwrap());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                let body = body.clone();
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let mut buf = vec![0u8; 8192];
                    let mut seen = Vec::new();
                    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                        match tls.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => seen.extend_from_slice(&buf[..n]),
                        }
                    }
                    let resp = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = tls.write_all(resp.as_bytes()).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        port
    }

    #[tokio::test]
    async fn https_with_the_ca_file_works_and_without_it_fails_as_tls() {
        let (cert, key) = self_signed();
        let port = serve(&cert, &key, fixture("state_ready.json")).await;
        let url = format!("https://127.0.0.1:{port}");

        let mut cfg = config(&url);
        cfg.ca_pem = Some(cert.clone());
        let cc = CruiseControlClient::new(cfg).unwrap();
        let s = cc
            .state(&[], false, deadline(), &LogObserver)
            .await
            .unwrap();
        assert!(s.analyzer.unwrap().is_proposal_ready);

        // System roots only: the self-signed certificate is rejected.
        let err = client(&url)
            .state(&[], false, deadline(), &LogObserver)
            .await
            .unwrap_err();
        assert!(matches!(err, CcError::Tls { .. }), "{err:?}");
        assert_eq!(
            kafkaops::error_codes::cruise_control(&err),
            ExitCode::Unreachable
        );

        // A CA file that is not PEM is a configuration error.
        let mut bad = config(&url);
        bad.ca_pem = Some(b"not a certificate".to_vec());
        let err = CruiseControlClient::new(bad).unwrap_err();
        assert_eq!(kafkaops::error_codes::cruise_control(&err), ExitCode::Usage);
    }

    /// Regression (#25 point 12): `http://` against an HTTPS port was retried as "waiting to
    /// accept connections" and ended in "invalid HTTP version parsed"; it is recognised at the
    /// first attempt (an OpenSSL server answers the plain request with a TLS alert, as Jetty does).
    #[tokio::test]
    async fn plain_http_against_an_https_port_suggests_https_at_once() {
        let (cert, key) = self_signed();
        let port = serve(&cert, &key, fixture("state_ready.json")).await;
        let err = client(&format!("http://127.0.0.1:{port}"))
            .state(&[], false, deadline(), &LogObserver)
            .await
            .unwrap_err();
        match &err {
            CcError::HttpsExpected { https_url, .. } => {
                assert_eq!(https_url, &format!("https://127.0.0.1:{port}"));
            }
            other => panic!("not recognised (retried?): {other:?}"),
        }
        assert_eq!(
            kafkaops::error_codes::cruise_control(&err),
            ExitCode::Unreachable
        );
        // A plain HTTP server that drops the connection is not mistaken for HTTPS.
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let plain = l.local_addr().unwrap().port();
        tokio::spawn(async move {
            while let Ok((mut tcp, _)) = l.accept().await {
                let mut buf = [0u8; 1024];
                let _ = tcp.read(&mut buf).await;
                drop(tcp);
            }
        });
        let err = client(&format!("http://127.0.0.1:{plain}"))
            .state(&[], false, deadline(), &LogObserver)
            .await
            .unwrap_err();
        assert!(
            !matches!(err, CcError::HttpsExpected { .. }),
            "a plain server is not HTTPS: {err:?}"
        );
    }

    /// `connect_to` (a port-forward's local end): the connection goes there whatever the URL's
    /// port, while TLS verifies the certificate against the URL's host name, not 127.0.0.1.
    #[tokio::test]
    async fn connect_to_keeps_the_url_host_as_the_tls_name() {
        let (cert, key) = self_signed(); // names 127.0.0.1 and localhost
        let port = serve(&cert, &key, fixture("state_ready.json")).await;
        let local: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        // Port 9 (discard) is not where the server is: only connect_to reaches it.
        let mut cfg = config("https://localhost:9");
        cfg.ca_pem = Some(cert.clone());
        cfg.connect_to = Some(local);
        let cc = CruiseControlClient::new(cfg).unwrap();
        assert_eq!(
            cc.url(),
            "https://localhost:9",
            "messages show the URL as given"
        );
        let s = cc
            .state(&[], false, deadline(), &LogObserver)
            .await
            .unwrap();
        assert!(s.analyzer.unwrap().is_proposal_ready);
        // A host the certificate does not name fails verification although the address
        // connected to (127.0.0.1) is named.
        let mut cfg = config("https://my-cluster-cruise-control.kafka.svc:9090");
        cfg.ca_pem = Some(cert.clone());
        cfg.connect_to = Some(local);
        let err = CruiseControlClient::new(cfg)
            .unwrap()
            .state(&[], false, deadline(), &LogObserver)
            .await
            .unwrap_err();
        assert!(matches!(err, CcError::Tls { .. }), "{err:?}");
    }
}

/// The one Cruise Control flow driver (`kafkaops::cruise_control::flow::run`) against the double.
mod flow_driver {
    use super::*;
    use kafkaops::cruise_control::model::OptimizationResult;
    use kafkaops::cruise_control::{Answer, Observer};
    use kafkaops::driver::cc_flow::{self as flow, FlowHooks};
    use kafkaops::engine::cc_flow::{AfterInterrupt, FlowConfig, InterruptChoice, Outcome};
    use kafkaops::engine::drift::{DriftReport, Plan, Tolerance};
    use kafkaops::engine::view::ExecutorState;
    use kafkaops::error::CliError;
    use std::sync::Mutex;

    /// Records what the flow told the command; answers prompts as configured.
    struct Hooks {
        confirm: bool,
        stop_on_interrupt: bool,
        seen: Mutex<Vec<String>>,
    }

    impl Hooks {
        fn new(confirm: bool, stop_on_interrupt: bool) -> Self {
            Self {
                confirm,
                stop_on_interrupt,
                seen: Mutex::new(Vec::new()),
            }
        }
        fn saw(&self, what: impl Into<String>) {
            self.seen.lock().unwrap().push(what.into());
        }
        fn seen(&self) -> Vec<String> {
            self.seen.lock().unwrap().clone()
        }
    }

    impl FlowHooks for Hooks {
        type Error = CliError;
        async fn check_input(
            &self,
            _cc: &CruiseControlClient,
            _deadline: Instant,
            _obs: &dyn Observer,
        ) -> Result<Result<(), CliError>, CcError> {
            self.saw("check");
            Ok(Ok(()))
        }
        fn waiting_for_ready(&self, reason: &str) {
            self.saw(format!("waiting: {reason}"));
        }
        fn proposal(&self, _dry_run: &Answer<OptimizationResult>) {
            self.saw("proposal");
        }
        fn confirm(&self, _dry_run: &Answer<OptimizationResult>) -> Result<(), CliError> {
            self.saw("confirm?");
            if self.confirm {
                Ok(())
            } else {
                Err(CliError::usage("not confirmed"))
            }
        }
        fn following(&self, task_id: Option<&str>) {
            self.saw(format!("following {}", task_id.unwrap_or("-")));
        }
        fn progress(&self, _executor: &ExecutorState) {
            self.saw("progress");
        }
        fn following_again(&self, task_id: Option<&str>) {
            self.following(task_id);
        }
        fn waiting_for_previous_stop(&self) {
            flow::log_previous_stop();
        }
        fn follow_ended(&self) {}
        fn approved_plan(&self) -> Option<Plan> {
            None
        }
        fn tolerance(&self) -> Tolerance {
            Tolerance::default()
        }
        fn drifted(&self, _report: &DriftReport, _new: &Answer<OptimizationResult>) {}
        fn execution_drifted(&self, _report: &DriftReport, _task_id: Option<&str>) {}
        async fn choose_after_interrupt(&self, task_id: Option<&str>) -> InterruptChoice {
            self.saw(format!("interrupted {}", task_id.unwrap_or("-")));
            if self.stop_on_interrupt {
                InterruptChoice::Stop
            } else {
                InterruptChoice::LeaveRunning
            }
        }
    }

    fn flow_config(assume_yes: bool) -> FlowConfig {
        FlowConfig {
            execute: true,
            assume_yes,
            no_wait: false,
            timeout_ms: 20_000,
            wait_for_ready_ms: 0,
            poll_interval_ms: 20,
            recheck: false,
            follow_timeout_ms: None,
        }
    }

    async fn ready_and_running(server: &MockServer) {
        cc_request("GET", "state")
            .and(query_param("substates", "monitor,executor,analyzer"))
            .respond_with(json(200, &fixture("state_ready.json")))
            .mount(server)
            .await;
        cc_request("GET", "state")
            .and(query_param("substates", "executor"))
            .respond_with(json(200, &fixture("state_executing.json")))
            .mount(server)
            .await;
        cc_request("GET", "user_tasks")
            .respond_with(json(
                200,
                &user_tasks_body(false, "InExecution", Some("{}")),
            ))
            .mount(server)
            .await;
        cc_request("POST", "add_broker")
            .and(query_param("dryrun", "true"))
            .respond_with(json(200, &fixture("add_broker_verbose.json")))
            .mount(server)
            .await;
    }

    async fn posts(server: &MockServer, needle: &str) -> usize {
        server
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|r| r.method.as_str() == "POST" && r.url.as_str().contains(needle))
            .count()
    }

    /// A re-run that resumes a saved flow says it follows the task only once Cruise Control
    /// shows it still knows it: a forgotten task ends as lost without "following" first
    /// (#25 point 7).
    #[tokio::test]
    async fn a_resumed_flow_does_not_say_it_follows_a_forgotten_task() {
        use kafkaops::driver::cc_flow::FlowDriver;
        use kafkaops::engine::cc_flow::CcFlow;
        use kafkaops::engine::model::Millis;
        let resume = |server: &MockServer| {
            let cc = client(&server.uri());
            let flow = CcFlow::attach(flow_config(true), TASK.to_string(), Millis(0));
            (cc, flow)
        };
        // Forgotten: idle executor, no such user task.
        let server = MockServer::start().await;
        cc_request("GET", "state")
            .respond_with(json(200, &fixture("state_ready.json")))
            .mount(&server)
            .await;
        cc_request("GET", "user_tasks")
            .respond_with(json(200, r#"{"userTasks":[],"version":1}"#))
            .mount(&server)
            .await;
        let (cc, flow) = resume(&server);
        let hooks = Hooks::new(true, false);
        let op = add_broker(false);
        let driver = FlowDriver::resume(&cc, &op, flow, &hooks, &LogObserver);
        let report = flow::run_driver(driver, std::future::pending::<()>(), |_| {}).await;
        assert!(
            matches!(report.outcome, Outcome::TaskLost { .. }),
            "{:?}",
            report.outcome
        );
        assert!(
            hooks.seen().iter().all(|s| !s.starts_with("following")),
            "{:?}",
            hooks.seen()
        );
        // Still known (completed meanwhile): followed, and said once.
        let server = MockServer::start().await;
        cc_request("GET", "state")
            .respond_with(json(200, &fixture("state_ready.json")))
            .mount(&server)
            .await;
        cc_request("GET", "user_tasks")
            .respond_with(json(200, &user_tasks_body(false, "Completed", Some("{}"))))
            .mount(&server)
            .await;
        let (cc, flow) = resume(&server);
        let hooks = Hooks::new(true, false);
        let driver = FlowDriver::resume(&cc, &op, flow, &hooks, &LogObserver);
        let report = flow::run_driver(driver, std::future::pending::<()>(), |_| {}).await;
        assert!(
            matches!(report.outcome, Outcome::Completed { .. }),
            "{:?}",
            report.outcome
        );
        let following: Vec<String> = hooks
            .seen()
            .into_iter()
            .filter(|s| s.starts_with("following"))
            .collect();
        assert_eq!(following, vec![format!("following {TASK}")]);
    }

    #[tokio::test]
    async fn an_interrupt_while_following_stops_the_execution_and_names_the_task() {
        let server = MockServer::start().await;
        ready_and_running(&server).await;
        cc_request("POST", "add_broker")
            .and(query_param("dryrun", "false"))
            .respond_with(with_task(proposal_200()))
            .expect(1)
            .mount(&server)
            .await;
        cc_request("POST", "stop_proposal_execution")
            .and(query_param("reason", flow::INTERRUPT_STOP_REASON))
            .respond_with(json(200, &fixture("stop.json")))
            .expect(1)
            .mount(&server)
            .await;
        let hooks = Hooks::new(true, true);
        let report = flow::run(
            &client(&server.uri()),
            &add_broker(true),
            flow_config(false),
            &hooks,
            &LogObserver,
            tokio::time::sleep(Duration::from_millis(300)),
        )
        .await;
        assert_eq!(
            report.outcome,
            Outcome::Interrupted {
                task_id: Some(TASK.into()),
                after: AfterInterrupt::StopRequested
            },
            "{:?}",
            hooks.seen()
        );
        let e = report.error.expect("an interrupted flow reports an error");
        assert_eq!(e.code, ExitCode::Interrupted);
        assert!(
            e.to_string().contains(&format!(
                "asked Cruise Control to stop the execution (task {TASK})"
            )),
            "{e}"
        );
        let seen = hooks.seen();
        assert_eq!(&seen[..3], ["check", "proposal", "confirm?"], "{seen:?}");
        assert!(seen.contains(&format!("following {TASK}")), "{seen:?}");
        assert!(seen.contains(&"progress".to_string()), "{seen:?}");
        assert_eq!(seen.last().unwrap(), &format!("interrupted {TASK}"));
        assert_eq!(posts(&server, "dryrun=false").await, 1);
        assert_eq!(report.flow.task_id(), Some(TASK));
    }

    #[tokio::test]
    async fn a_declined_confirmation_executes_nothing() {
        let server = MockServer::start().await;
        ready_and_running(&server).await;
        let hooks = Hooks::new(false, false);
        let report = flow::run(
            &client(&server.uri()),
            &add_broker(true),
            flow_config(false),
            &hooks,
            &LogObserver,
            std::future::pending(),
        )
        .await;
        assert_eq!(report.outcome, Outcome::Declined);
        assert!(report.proposal.is_some() && report.execution.is_none());
        assert_eq!(
            report.error.unwrap().code,
            ExitCode::Usage,
            "the hook's error"
        );
        assert_eq!(posts(&server, "dryrun=false").await, 0);
    }

    /// `topic set-rf` plugs in its own request: "already at the target" ends as nothing to do.
    #[tokio::test]
    async fn topic_configuration_plugs_in_and_already_at_target_is_nothing_to_do() {
        let server = MockServer::start().await;
        ready_and_running(&server).await;
        cc_request("POST", "topic_configuration")
            .respond_with(json(
                500,
                r#"{"errorMessage":"Error processing POST request '/topic_configuration' due to: 'java.lang.IllegalStateException: All topics matching given pattern already have target replication factor.'.","version":1}"#,
            ))
            .mount(&server)
            .await;
        let hooks = Hooks::new(true, false);
        let request = TopicConfigurationRequest {
            topic: "orders".into(),
            replication_factor: 3,
            by_factor: Default::default(),
            skip_rack_awareness_check: false,
            execution: ExecutionOptions::default(),
            goals: GoalOptions::default(),
            reason: "rf".into(),
        };
        let report = flow::run(
            &client(&server.uri()),
            &request,
            flow_config(true),
            &hooks,
            &LogObserver,
            std::future::pending(),
        )
        .await;
        assert_eq!(report.outcome, Outcome::NothingToDo);
        assert!(report.error.is_none());
        assert_eq!(posts(&server, "dryrun=false").await, 0);
        assert_eq!(posts(&server, "dryrun=true").await, 1);
    }
}

/// `dryrun` values other than `true` are read as false by a real Cruise Control (`dryrun=maybe`
/// executes, reference section 13): every mutating request kafkaops sends carries an explicit
/// `dryrun=true` or `dryrun=false`, exactly once, matching what was asked.
#[tokio::test]
async fn every_mutating_request_sends_dryrun_explicitly() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(with_task(proposal_200()))
        .mount(&server)
        .await;
    let cc = client(&server.uri());
    let kinds = [
        RebalanceKind::Full,
        RebalanceKind::AddBrokers(vec![4]),
        RebalanceKind::RemoveBrokers {
            brokers: vec![4],
            destinations: vec![],
        },
    ];
    for dryrun in [true, false] {
        for kind in &kinds {
            let mut req = add_broker(dryrun);
            req.kind = kind.clone();
            cc.rebalance(&req, &fast_policy(5), &LogObserver)
                .await
                .unwrap();
        }
        cc.topic_configuration(
            &TopicConfigurationRequest {
                topic: "orders".into(),
                replication_factor: 3,
                by_factor: Default::default(),
                skip_rack_awareness_check: false,
                execution: ExecutionOptions {
                    dryrun,
                    ..ExecutionOptions::default()
                },
                goals: GoalOptions::default(),
                reason: "rf".into(),
            },
            &fast_policy(5),
            &LogObserver,
        )
        .await
        .unwrap();
    }
    let requests = server.received_requests().await.unwrap();
    let posts: Vec<_> = requests
        .iter()
        .filter(|r| r.method.as_str() == "POST")
        .collect();
    assert_eq!(
        posts.len(),
        8,
        "3 rebalance kinds + topic_configuration, twice"
    );
    for (i, r) in posts.iter().enumerate() {
        let values: Vec<String> = r
            .url
            .query_pairs()
            .filter(|(k, _)| k == "dryrun")
            .map(|(_, v)| v.into_owned())
            .collect();
        let want = if i < 4 { "true" } else { "false" };
        assert_eq!(values, vec![want.to_string()], "{}", r.url);
    }
}
