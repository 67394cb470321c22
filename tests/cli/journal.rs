//! `operate`'s journals, one per action (`crate::output::journal`), in a binary of their own
//! kind: no test here runs `operate` in-process, so the process-wide journal is this test's.

use kafkaops::output::journal::{
    Entry, Event, JournalLayer, Opening, action_ended, action_started, begin, dir_in, finish,
    is_open, journal_filter, keep_action_journals,
};
use std::path::PathBuf;
use std::sync::Mutex;

/// The journal is process-wide: the tests here take turns.
static TURN: Mutex<()> = Mutex::new(());

fn entries_in(state_dir: &std::path::Path) -> Vec<Vec<Entry>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir_in(state_dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        })
        .collect()
}

/// What the adapters and use cases log becomes journal events whatever the verbosity: a
/// `request` field makes a request event (Kafka, Cruise Control), the Kubernetes client's
/// `HTTP` span one with its status, any other event of the crate at debug and above a log
/// event; trace lines and other crates' events stay out, and so does everything once the
/// journal is closed.
#[test]
fn the_journal_layer_records_requests_spans_and_decisions() {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    let _turn = TURN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let subscriber =
        tracing_subscriber::registry().with(JournalLayer.with_filter(journal_filter()));
    tracing::subscriber::with_default(subscriber, || {
        tracing::debug!(target: "kafkaops::before", "not journaled: no journal is open");
        begin(&Opening {
            state_dir: dir.path(),
            command: "roll",
            args: &["kafkaops".into(), "roll".into()],
            yes: false,
            known_secrets: vec!["kube-token-1".into()],
        })
        .unwrap();
        tracing::debug!(
            target: "kafkaops::kafka::wire",
            system = "kafka",
            request = "DescribeQuorum v1 to c1:9093",
            answer = "ok",
            ms = 3_u64,
            "Kafka answered"
        );
        {
            let span = tracing::debug_span!(
                target: "kube_client::client::builder",
                "HTTP",
                http.method = "DELETE",
                http.url = "/api/v1/namespaces/kafka/pods/kafka-2",
                http.status_code = tracing::field::Empty,
            );
            span.record("http.status_code", 200_u16);
        }
        tracing::info!(target: "kafkaops::driver", node = 2, "waiting for node 2: log recovery (kube-token-1)");
        tracing::trace!(target: "kafkaops::driver", "not journaled: trace");
        tracing::warn!(target: "hyper::client", "not journaled: another crate");
        finish(0, "ok", None).unwrap();
        tracing::debug!(target: "kafkaops::after", "not journaled: closed");
    });
    let journals = entries_in(dir.path());
    assert_eq!(journals.len(), 1);
    let events: Vec<&Event> = journals[0].iter().map(|e| &e.event).collect();
    let text = format!("{events:#?}");
    assert!(!text.contains("not journaled"), "{text}");
    assert!(!text.contains("kube-token-1"), "{text}");
    assert!(matches!(events[0], Event::Start { command, .. } if command == "roll"));
    assert!(
        events.contains(&&Event::Request {
            system: "kafka".into(),
            request: "DescribeQuorum v1 to c1:9093".into(),
            answer: "ok".into(),
            ms: Some(3),
        }),
        "{text}"
    );
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Request { system, request, answer, .. }
        if system == "kubernetes"
            && request == "DELETE /api/v1/namespaces/kafka/pods/kafka-2"
            && answer == "HTTP 200")
        ),
        "{text}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Log { level, message, .. }
        if level == "INFO" && message == "waiting for node 2: log recovery (********) node=2")),
        "{text}"
    );
    assert!(
        matches!(events.last(), Some(Event::End { exit_code: 0, .. })),
        "{text}"
    );
}

#[test]
fn operate_keeps_one_journal_per_action() {
    let _turn = TURN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = tempfile::tempdir().unwrap();
    let args = vec!["kafkaops".to_string(), "operate".into()];
    keep_action_journals(dir.path(), &args, vec!["op-secret".into()]);
    action_started("scale-up", "brokers 4", "broker 4 is empty (op-secret)");
    // A stop of the running rebalance is a step of its journal, not a journal of its own.
    action_started("stop-rebalance", "task-1", "a scale-down preempts it");
    action_ended("stop-rebalance", "task-1", true, "stopped");
    action_ended("scale-up", "brokers 4", false, "stopped by a scale-down");
    action_started("roll", "node 2", "config changed");
    action_ended("roll", "node 2", true, "done");
    let dir_j = dir_in(dir.path());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir_j)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 2, "{files:?}");
    let first = std::fs::read_to_string(&files[0]).unwrap();
    assert!(!first.contains("op-secret"), "{first}");
    let events: Vec<Entry> = first
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        matches!(&events[0].event, Event::Start { command, .. } if command == "operate: scale-up")
    );
    assert!(first.contains("stop-rebalance task-1 succeeded"), "{first}");
    assert!(matches!(
        &events.last().unwrap().event,
        Event::End { exit_code: 1, outcome, .. } if outcome == "failed"
    ));
    let second = std::fs::read_to_string(&files[1]).unwrap();
    assert!(second.contains("\"operate: roll\""), "{second}");
    assert!(second.contains("\"outcome\":\"ok\""), "{second}");
    assert!(!is_open());
}

/// The journal's retention variables are in the documented environment table
/// (`cli::ENV_VARS`, which `config view` and the docs follow) and in the README: every name
/// `Retention::from_env` asks for is listed, so a variable added there cannot go unlisted.
#[test]
fn journal_retention_variables_are_in_the_environment_table_and_the_readme() {
    use kafkaops::output::journal_rotation::Retention;
    let asked = std::cell::RefCell::new(Vec::new());
    let env = |k: &str| {
        asked.borrow_mut().push(k.to_string());
        None
    };
    Retention::from_env(&env).unwrap();
    let asked = asked.into_inner();
    assert!(asked.len() >= 2, "{asked:?}");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for name in &asked {
        assert!(
            kafkaops::cli::ENV_VARS.iter().any(|(e, _)| e == name),
            "{name} is read but not in cli::ENV_VARS"
        );
        assert!(
            readme.contains(&format!("`{name}`")),
            "{name} is not in the README"
        );
    }
}
