//! The loop over fake ports: a deposed leader (its save answered `Conflict`) waits to lead
//! again and goes on from the state the other leader left, instead of exiting.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::ports::LogRecorder;
use super::{Ended, LiveRoll, OperateSpec, Operator};
use crate::app::operate::policy;
use crate::app::operate::roll;
use crate::cruise_control::{ClientConfig, CruiseControlClient};
use crate::engine::operate::OperateState;
use crate::kafka::{ConnectionConfig, KafkaClient};
use crate::state::{Leadership, Store, StoreError};

/// A store another leader writes to: the first save conflicts; later loads read the other
/// leader's document.
struct OtherLeaderStore {
    loads: AtomicUsize,
    conflict: AtomicBool,
    /// (loads so far, document) of every save.
    saves: Mutex<Vec<(usize, String)>>,
    others: String,
    reloaded: tokio::sync::Notify,
}

impl Store<str> for Arc<OtherLeaderStore> {
    async fn load(&self) -> Result<Option<String>, StoreError> {
        let n = self.loads.fetch_add(1, Ordering::SeqCst) + 1;
        if n == 1 {
            return Ok(None);
        }
        self.reloaded.notify_one();
        Ok(Some(self.others.clone()))
    }

    async fn save(&self, doc: &str) -> Result<(), StoreError> {
        if self.conflict.swap(false, Ordering::SeqCst) {
            return Err(StoreError::Conflict(
                "the state was written by another instance".into(),
            ));
        }
        self.saves
            .lock()
            .unwrap()
            .push((self.loads.load(Ordering::SeqCst), doc.to_string()));
        Ok(())
    }
}

#[derive(Default)]
struct CountingLeadership {
    acquires: AtomicUsize,
    releases: AtomicUsize,
    leading: AtomicBool,
}

impl Leadership for Arc<CountingLeadership> {
    async fn acquire(&self) -> Result<(), StoreError> {
        self.acquires.fetch_add(1, Ordering::SeqCst);
        self.leading.store(true, Ordering::SeqCst);
        Ok(())
    }
    fn is_leader(&self) -> bool {
        self.leading.load(Ordering::SeqCst)
    }
    async fn release(&self) {
        self.releases.fetch_add(1, Ordering::SeqCst);
        self.leading.store(false, Ordering::SeqCst);
    }
}

/// Clients of a Kafka and a Cruise Control that never answer. Kafka: a port that accepted the
/// connect probe and is closed since (reads fail fast).
async fn unreachable_clients() -> (KafkaClient, CruiseControlClient) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let mut kcfg = ConnectionConfig::new(addr.to_string());
    kcfg.request_timeout = Duration::from_secs(2);
    let kafka = KafkaClient::connect(kcfg).await.unwrap();
    drop(listener);
    let cc = CruiseControlClient::new(ClientConfig {
        url: url::Url::parse("http://127.0.0.1:1/kafkacruisecontrol/").unwrap(),
        username: None,
        password: None,
        ca_pem: None,
        timeout: Duration::from_secs(2),
        poll_interval: Duration::from_millis(200),
        backoff: crate::cruise_control::retry::Backoff::default(),
        connect_to: None,
    })
    .unwrap();
    (kafka, cc)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deposed_leader_waits_to_lead_again_and_reloads_the_state() {
    let dir = tempfile::tempdir().unwrap();
    let policy_path = dir.path().join("policy.yaml");
    std::fs::write(&policy_path, "autoRebalance: []\n").unwrap();
    let args = OperateSpec {
        policy: policy_path.clone(),
        resync: Duration::from_millis(100),
        dry_run: false,
        once: false,
        listen: "127.0.0.1:0".parse().unwrap(),
        action_timeout: Duration::from_secs(2),
    };
    let (kafka, cc) = unreachable_clients().await;
    let mut others = OperateState::new();
    others
        .rf_failed
        .insert("written-by-the-other-leader".into(), 3);
    let store = Arc::new(OtherLeaderStore {
        loads: AtomicUsize::new(0),
        conflict: AtomicBool::new(true),
        saves: Mutex::default(),
        others: serde_json::to_string(&others).unwrap(),
        reloaded: tokio::sync::Notify::new(),
    });
    let leadership = Arc::new(CountingLeadership::default());
    let settings = roll::RollSettings::new(Default::default(), None, 1, args.action_timeout);
    let roll = LiveRoll::new(kafka.clone(), settings);
    let kafka = super::observe::LiveKafka {
        client: kafka,
        holds: crate::app::hold::Holds::Topic,
    };
    let op = Operator::new(
        cc,
        kafka,
        (store.clone(), leadership.clone(), LogRecorder),
        // Checked against a cluster at start (nothing acts on an unchecked policy, and this
        // Kafka never answers).
        policy::PolicySource::load(
            &policy_path,
            policy::SETTLE,
            Some(&policy::ClusterFacts::default()),
        )
        .await
        .unwrap(),
        args,
        roll,
    );
    // Stops once the state was read again (after leading again), and not before.
    let code = tokio::time::timeout(
        Duration::from_secs(120),
        op.run(async { store.reloaded.notified().await }),
    )
    .await
    .expect("the loop ends on the stop signal")
    .expect("the loop does not fail");
    assert_eq!(code, Ended::Stopped, "a deposed leader is no failure");
    assert_eq!(leadership.acquires.load(Ordering::SeqCst), 2);
    assert!(leadership.releases.load(Ordering::SeqCst) >= 2);
    assert_eq!(
        store.loads.load(Ordering::SeqCst),
        2,
        "the state is read again"
    );
    for (loads, doc) in store.saves.lock().unwrap().iter() {
        assert!(
            *loads < 2 || doc.contains("written-by-the-other-leader"),
            "after leading again, the other leader's state is the base: {doc}"
        );
    }
}
