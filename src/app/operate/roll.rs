//! Rolls for `operate`: which nodes need one, and a roll session driven one step per loop.
//!
//! Built from the same pieces as `kafkaops roll` (the observation, the platform, the restart
//! witness, the roll engine's requests and plan, the [`crate::driver`] step function and its
//! progress lines), so a node is restarted or reconfigured by `operate` exactly as by the
//! command. What differs: the roll is one mover among others (the engine starts it only when
//! nothing else moves, `crate::engine::operate`), it is stepped once per loop, and its
//! [`RollRun`] is saved inside the operate state (before every restart command, through
//! [`StateRunStore`]), so a restarted `operate` resumes it under the driver's resume rules
//! (a restart found issued is judged from evidence, never repeated blindly).
//!
//! A desired setting that a restart does not apply (a read-only key the broker's config file or
//! the pod spec sets otherwise) would make every loop roll every broker again. So the operate
//! state remembers, per node, the hash of the desired configuration a roll already went over it
//! for ([`OperateState::rolled_config`]); the same desired configuration never rolls that node
//! again, and the loop says once which keys the restart did not apply. A new policy value (a
//! different hash) may roll again; a roll that failed is forgotten (tried again).
//!
//! Plain host: the nodes restart with `--restart-command` (or `--stop-command` and
//! `--start-command`); without one, a needed roll waits and says so. Kubernetes plugs its
//! platform in [`RollSettings::platform`].
//!
//! Never two rollers (issue #13): in Kubernetes `kafkaops roll` holds a per-cluster Lease
//! ([`crate::platform::kube::KubePlatform::take_lease`], named by the pod selector). `operate` reads that Lease every
//! loop ([`crate::platform::kube::KubePlatform::roll_lease_holder`]): held by another, nothing of ours starts (the
//! engine's `other_roll` blocker); and our own roll takes the same Lease before it restarts a
//! node, renews it while it runs, and clears its holder when it ends or `operate` exits or is
//! deposed, so a manual `kafkaops roll` meanwhile exits 5 naming us. On plain hosts
//! `kafkaops roll` takes no lock, so there is nothing to read or take there: hosts are left as
//! they are (one operator at a time is the user's business).

use std::collections::{BTreeMap, BTreeSet};

use super::held;
pub use super::ports::WishSeen;
pub use crate::app::roll::RollSettings;
use crate::app::roll::{
    ProgressLines, observe_nodes, pod_reasons, requests, with_known_brokers, with_platform_reasons,
};
use crate::driver::kafka_io::KafkaRollIo;
use crate::driver::{DriverOptions, Event, Progress, RollRun};
use crate::engine::model::{ClusterSnapshot, NodeId};
use crate::engine::operate::{OperateState, RollWish};
use crate::engine::roll::{Decision, NodeRequest, PlanStep, Roller};
use crate::kafka::KafkaClient;
use crate::kafka::client::ClusterObserver;
use crate::kafka::convert::to_snapshot;
use crate::platform::AnyPlatform;
use crate::platform::witness::RestartWitness;
use crate::state::{Store, StoreError};

/// The hash of a desired broker configuration, as [`OperateState::rolled_config`] keeps it
/// (FNV-1a over the sorted pairs: stable across builds, unlike `std`'s hasher).
#[must_use]
pub fn config_hash(desired: &BTreeMap<String, String>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (k, v) in desired {
        for b in k.bytes().chain([0]).chain(v.bytes()).chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Clears the desired configuration of the nodes a roll already went over for this very
/// configuration (`rolled`: node -> [`config_hash`]). Returns those of them whose configuration
/// still differs, with the keys that differ.
fn drop_rolled(
    requests: &mut BTreeMap<NodeId, NodeRequest>,
    snapshot: &ClusterSnapshot,
    desired: &BTreeMap<String, String>,
    rolled: &BTreeMap<i32, String>,
) -> BTreeMap<i32, Vec<String>> {
    let hash = config_hash(desired);
    let mut unapplied = BTreeMap::new();
    for (id, r) in requests.iter_mut() {
        if r.desired_config.is_empty() || rolled.get(&id.0) != Some(&hash) {
            continue;
        }
        let keys: Vec<String> = snapshot.node(*id).map_or_else(Vec::new, |n| {
            r.desired_config
                .iter()
                .filter(|(k, v)| n.config.get(*k).and_then(|e| e.value.as_ref()) != Some(*v))
                .map(|(k, _)| k.clone())
                .collect()
        });
        if !keys.is_empty() {
            unapplied.insert(id.0, keys);
        }
        r.desired_config.clear();
    }
    unapplied
}

/// The one line about settings a roll did not apply (logged once while it stays true).
fn unapplied_note(unapplied: &BTreeMap<i32, Vec<String>>) -> Option<String> {
    let keys: BTreeSet<&String> = unapplied.values().flatten().collect();
    if keys.is_empty() {
        return None;
    }
    Some(format!(
        "restart did not apply {} on nodes {}, change the broker's config file / pod spec \
         (no new roll for the same roll.brokerConfig)",
        keys.into_iter().cloned().collect::<Vec<_>>().join(", "),
        unapplied
            .keys()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    ))
}

/// The roll requests: the desired broker configuration on every broker (except where a roll
/// already went for it, `rolled`), plus the pods' own restart reasons in Kubernetes (as
/// `kafkaops roll --strimzi` takes them). Also returns the nodes whose desired settings a roll
/// did not apply, with the keys.
async fn roll_requests(
    s: &RollSettings,
    snapshot: &ClusterSnapshot,
    rolled: &BTreeMap<i32, String>,
) -> Result<(BTreeMap<NodeId, NodeRequest>, BTreeMap<i32, Vec<String>>), String> {
    let mut base = if s.desired.is_empty() {
        BTreeMap::new()
    } else {
        requests(snapshot, None, &s.desired).unwrap_or_default()
    };
    let unapplied = drop_rolled(&mut base, snapshot, &s.desired, rolled);
    let reasons = match &s.kube {
        Some(k) => pod_reasons(k).await.map_err(|e| e.to_string())?,
        None => BTreeMap::new(),
    };
    Ok((with_platform_reasons(base, snapshot, &reasons), unapplied))
}

/// The nodes a plan restarts, reconfigures or is blocked on.
pub(super) fn planned_nodes(plan: &crate::engine::roll::Plan) -> BTreeSet<i32> {
    let mut nodes = BTreeSet::new();
    for step in &plan.steps {
        match step {
            PlanStep::Restart { nodes: n, .. } => nodes.extend(n.iter().map(|r| r.node.0)),
            PlanStep::Reconfigure { node, .. } => {
                nodes.insert(node.0);
            }
            PlanStep::Blocked { nodes: n, .. } => nodes.extend(n.iter().map(|id| id.0)),
        }
    }
    nodes
}

/// The nodes that need a roll: their broker configuration differs from the policy's (as the
/// roll engine plans it: reconfigured where Kafka allows, else restarted), or Kubernetes gives
/// a reason. No wish: nothing to do. Nodes a roll already went over for the same desired
/// configuration (`rolled`) are not rolled for it again; the note says which keys the restart
/// did not apply. Held nodes (`kafkaops hold`) make no wish: the roll waits for them, and
/// [`WishSeen::held`] says which with each hold.
pub async fn wish(
    client: &KafkaClient,
    s: &RollSettings,
    rolled: &BTreeMap<i32, String>,
) -> Result<WishSeen, String> {
    if s.desired.is_empty() && s.kube.is_none() {
        return Ok(WishSeen::default());
    }
    let observation = client.observe().await.map_err(|e| format!("{e:#}"))?;
    let snapshot = to_snapshot(&observation);
    let (requests, unapplied) = roll_requests(s, &snapshot, rolled).await?;
    let holds = held_now(s, client).await?;
    let (wish, held) = wish_of(s, &snapshot, requests, &holds);
    Ok(WishSeen {
        wish,
        note: unapplied_note(&unapplied),
        held,
    })
}

/// The holds that count now, each described with its reason and expiry.
async fn held_now(
    s: &RollSettings,
    client: &KafkaClient,
) -> Result<BTreeMap<NodeId, String>, String> {
    let holds = crate::app::hold::read(&s.holds, client)
        .await
        .map_err(|e| format!("{e:#}"))?;
    Ok(held::describe(&holds, crate::app::hold::now()))
}

/// The wish the requests make on `snapshot`, and the held nodes it waits for (pure).
fn wish_of(
    s: &RollSettings,
    snapshot: &ClusterSnapshot,
    requests: BTreeMap<NodeId, NodeRequest>,
    holds: &BTreeMap<NodeId, String>,
) -> (Option<RollWish>, BTreeMap<i32, String>) {
    if requests
        .values()
        .all(|r| r.restart_reasons.is_empty() && r.desired_config.is_empty())
    {
        return (None, BTreeMap::new());
    }
    let waiting = held::waiting(&s.config, snapshot, &requests, holds);
    let mut roller = Roller::new(s.config.clone(), requests.clone());
    roller.handle_holds(holds.clone());
    let plan = roller.plan(snapshot);
    let nodes = planned_nodes(&plan);
    if nodes.is_empty() {
        return (None, waiting);
    }
    // Why, from the requests of the nodes the roll goes over (a held node's are said apart).
    let wished = || {
        requests
            .iter()
            .filter(|(id, _)| nodes.contains(&id.0))
            .map(|(_, r)| r)
    };
    let mut why: Vec<String> = wished()
        .flat_map(|r| r.restart_reasons.iter().cloned())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !s.desired.is_empty() && wished().any(|r| !r.desired_config.is_empty()) {
        why.push(format!(
            "the policy's roll.brokerConfig ({})",
            s.desired.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    let held_left: Vec<(NodeId, String)> = waiting
        .keys()
        .filter_map(|n| holds.get(&NodeId(*n)).map(|h| (NodeId(*n), h.clone())))
        .collect();
    why.extend(held::reason_tail(&held_left));
    (
        Some(RollWish {
            nodes,
            reason: why.join("; "),
        }),
        waiting,
    )
}

/// A roll in progress in this process.
pub struct RollSession {
    pub(crate) io: KafkaRollIo<AnyPlatform>,
    pub(crate) witness: RestartWitness,
    pub(crate) run: RollRun,
    pub(crate) progress: RecordingProgress,
    pub(crate) options: DriverOptions,
    /// A new run: the nodes it goes over with a desired configuration (to remember in
    /// [`OperateState::rolled_config`]); empty for a resumed run.
    pub config_nodes: BTreeSet<i32>,
}

/// The roll's progress lines (as `kafkaops roll` prints them, but as log lines: `tracing`, so
/// `--log-format json` stays JSON), plus each restart and
/// reconfiguration as an action to record (an Event in Kubernetes, metrics).
pub struct RecordingProgress {
    lines: ProgressLines,
    /// Actions decided since the last [`RecordingProgress::take`]: (kind, target, reason).
    decided: Vec<(String, String, String)>,
}

/// One progress line as a log line (info, `roll: ` and the line without its indentation).
fn say(line: &str) {
    tracing::info!("roll: {}", line.trim_start());
}

impl RecordingProgress {
    /// The actions decided since the last call.
    pub fn take(&mut self) -> Vec<(String, String, String)> {
        std::mem::take(&mut self.decided)
    }
}

impl Progress for RecordingProgress {
    fn event(&mut self, event: &Event<'_>) {
        if let Event::Decided(d) = event {
            match d {
                Decision::Restart { nodes, reason } => {
                    for n in nodes {
                        self.decided.push((
                            "restart".into(),
                            format!("node {}", n.node),
                            format!("{reason}: {}", n.reason),
                        ));
                    }
                }
                Decision::Reconfigure { node, reason, .. } => {
                    self.decided.push((
                        "reconfigure".into(),
                        format!("node {node}"),
                        reason.clone(),
                    ));
                }
                _ => {}
            }
        }
        for line in self.lines.lines(event) {
            say(&line);
        }
    }
}

/// Starts a roll session: a new run, or the saved one (`saved`, resumed by the driver's rules).
pub async fn start(
    client: &KafkaClient,
    s: &RollSettings,
    saved: Option<&RollRun>,
    rolled: &BTreeMap<i32, String>,
) -> Result<RollSession, String> {
    let mut observation = client.observe().await.map_err(|e| format!("{e:#}"))?;
    let client = with_known_brokers(client, &observation);
    let platform = s.platform(&observation).ok_or_else(|| {
        "no --restart-command (or --stop-command and --start-command) to restart nodes with"
            .to_string()
    })?;
    let (snapshot, witness) = observe_nodes(&platform, &mut observation)
        .await
        .map_err(|e| e.to_string())?;
    // Held nodes are left alone by operate's roll as by `kafkaops roll` (described with their
    // expiry, so the roll's summary says until when); holds that cannot be read start no roll.
    let holds = held_now(s, &client).await?;
    let io = KafkaRollIo::new(client, platform, witness.clone())
        .await
        .map_err(|e| e.to_string())?;
    let mut config_nodes = BTreeSet::new();
    let run = match saved {
        // Resumed by the driver's rules, as a run read back after a crash is.
        Some(run) => run.as_restored(),
        None => {
            // As the wish: the desired configuration and the pods' own reasons (with no desired
            // configuration, `requests` alone would select every node).
            let (requests, _) = roll_requests(s, &snapshot, rolled).await?;
            let mut roller = Roller::new(s.config.clone(), requests.clone());
            roller.handle_holds(holds);
            config_nodes = planned_nodes(&roller.plan(&snapshot))
                .into_iter()
                .filter(|n| {
                    requests
                        .get(&NodeId(*n))
                        .is_some_and(|r| !r.desired_config.is_empty())
                })
                .collect();
            RollRun::new(roller, crate::driver::RollIo::now(&io))
        }
    };
    let progress = RecordingProgress {
        lines: ProgressLines::new(io.recovery()),
        decided: Vec::new(),
    };
    Ok(RollSession {
        io,
        witness,
        run,
        progress,
        config_nodes,
        options: s.driver_options(),
    })
}

/// Saves the operate state, with the roll's run in it, before and after every roll command
/// (the driver calls it; a failed save means the command is not issued).
pub struct StateRunStore<'a, S: Store<str>> {
    pub store: &'a S,
    pub state: std::sync::Mutex<&'a mut OperateState>,
    /// The operate loop's last saved document (kept in step).
    pub saved: &'a std::sync::Mutex<Option<String>>,
}

impl<S: Store<str>> Store<RollRun> for StateRunStore<'_, S> {
    async fn load(&self) -> Result<Option<RollRun>, StoreError> {
        let state = self
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Ok(state.roll().and_then(|r| r.run.clone()))
    }

    async fn save(&self, run: &RollRun) -> Result<(), StoreError> {
        let doc = {
            let mut state = self
                .state
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(r) = state.roll_mut() {
                r.run = Some(run.clone());
            }
            serde_json::to_string(&**state)?
        };
        // The roll reports the failure in one line (its message, as the loop logs it).
        self.store.save(&doc).await.map_err(|e| match e {
            StoreError::Backend(_) => StoreError::Io(e.to_string()),
            e => e,
        })?;
        *self
            .saved
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(doc);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::roll::sim::{ClusterSpec, Placement, SimCluster};

    fn snapshot() -> ClusterSnapshot {
        let spec = ClusterSpec {
            brokers: 3,
            combined: 0,
            controllers: 3,
            topics: 2,
            partitions_per_topic: 2,
            replication_factor: 3,
            min_isr_choices: vec![2],
            racks: 3,
            placement: Placement::RackAware,
        };
        SimCluster::generate(&spec, 5).snapshot()
    }

    fn settings(dirs: &str) -> RollSettings {
        RollSettings::new(
            BTreeMap::from([("log.dirs".to_string(), dirs.to_string())]),
            None,
            1,
            Duration::from_secs(60),
        )
    }

    /// The wish and the note, as the loop gets them from one observation.
    fn wish_and_note(
        s: &RollSettings,
        snapshot: &ClusterSnapshot,
        rolled: &BTreeMap<i32, String>,
    ) -> (Option<RollWish>, Option<String>) {
        let mut requests = requests(snapshot, None, &s.desired).unwrap();
        let unapplied = drop_rolled(&mut requests, snapshot, &s.desired, rolled);
        (
            wish_of(s, snapshot, requests, &BTreeMap::new()).0,
            unapplied_note(&unapplied),
        )
    }

    #[test]
    fn a_setting_a_restart_does_not_apply_rolls_once_per_desired_value() {
        // `log.dirs` is read-only: only a restart can apply it, and here the restart does not
        // (the brokers come back with the same configuration: the same snapshot).
        let snapshot = snapshot();
        let brokers: BTreeSet<i32> = snapshot
            .nodes
            .iter()
            .filter(|n| n.roles.broker)
            .map(|n| n.id.0)
            .collect();
        assert_eq!(brokers.len(), 3);
        let s = settings("/data");
        let (w, note) = wish_and_note(&s, &snapshot, &BTreeMap::new());
        assert_eq!(w.expect("a first roll").nodes, brokers);
        assert_eq!(note, None);
        // A roll went over every broker for this configuration: no roll again, one note.
        let rolled: BTreeMap<i32, String> = brokers
            .iter()
            .map(|n| (*n, config_hash(&s.desired)))
            .collect();
        let (w, note) = wish_and_note(&s, &snapshot, &rolled);
        assert_eq!(w, None);
        let ids = brokers
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let note = note.expect("a note");
        assert!(
            note.starts_with(&format!(
                "restart did not apply log.dirs on nodes {ids}, change the broker's config file / pod spec"
            )),
            "{note}"
        );
        // A new desired value may roll again.
        let (w, _) = wish_and_note(&settings("/data2"), &snapshot, &rolled);
        assert_eq!(w.expect("a roll for the new value").nodes, brokers);
        // The hash is stable (it is persisted) and tells values apart.
        assert_eq!(
            config_hash(&s.desired),
            config_hash(&settings("/data").desired)
        );
        assert_ne!(
            config_hash(&s.desired),
            config_hash(&settings("/data2").desired)
        );
    }

    #[test]
    fn a_held_node_makes_no_wish_and_the_roll_says_it_waits_for_it() {
        let snapshot = snapshot();
        let s = settings("/data");
        let requests = requests(&snapshot, None, &s.desired).unwrap();
        let all = wish_of(&s, &snapshot, requests.clone(), &BTreeMap::new());
        let nodes = all.0.expect("a roll").nodes;
        assert!(all.1.is_empty());
        let held = *nodes.first().unwrap();
        let holds = BTreeMap::from([(NodeId(held), "disk swap, until T".to_string())]);
        let (wish, waiting) = wish_of(&s, &snapshot, requests.clone(), &holds);
        let wish = wish.expect("the others still roll");
        assert!(!wish.nodes.contains(&held), "{wish:?}");
        assert_eq!(wish.nodes.len(), nodes.len() - 1);
        assert!(
            wish.reason.ends_with(&format!(
                "held node(s) left alone, the roll waits for them: node {held} (disk swap, until T)"
            )),
            "{}",
            wish.reason
        );
        assert_eq!(
            waiting[&held],
            format!(
                "roll: node {held} is held (disk swap, until T): the roll waits for it \
                 (it needs a roll: roll.brokerConfig: log.dirs)"
            )
        );
        // Every node held: no wish, each still said to be waited for.
        let holds: BTreeMap<NodeId, String> = nodes
            .iter()
            .map(|n| (NodeId(*n), "x".to_string()))
            .collect();
        let (wish, waiting) = wish_of(&s, &snapshot, requests, &holds);
        assert_eq!(wish, None);
        assert_eq!(waiting.keys().copied().collect::<BTreeSet<_>>(), nodes);
    }
}

#[cfg(test)]
mod logged_tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A `tracing` writer into a shared buffer.
    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// `operate`'s roll lines are log events: with a JSON subscriber every line is a JSON object
    /// carrying the progress text (nothing goes around the subscriber to raw stderr).
    #[test]
    fn logged_progress_lines_are_tracing_events() {
        let buf = Buf::default();
        let writer = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .with_writer(move || writer.clone())
            .with_max_level(tracing::Level::INFO)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            say("==> restarting node(s) 2: the broker configuration differs");
            say("[ 0:03]   node 2: restarting");
        });
        let out = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON log line"))
            .collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(
            lines[0]["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("restarting node(s) 2")),
            "{out}"
        );
        assert!(
            lines[1]["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("node 2: restarting"))
        );
    }
}
