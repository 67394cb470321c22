//! A roll's run: the engine's [`Roller`] plus the write-ahead record of the action it decided
//! last, the actions taken and the times, as plain serde data.
//!
//! This is what a roll keeps between two steps and what outlives a process: `kafkaops roll`
//! saves it in its state file, `operate` inside its own state. The driver steps it (observe,
//! decide, act, feed back); the rules it resumes by after a crash are on [`RollRun`], and they
//! depend only on what is saved here, never on the saved decision's age.

use serde::{Deserialize, Serialize};

use super::{ConfigChange, Decision, Roller};
use crate::engine::model::{Millis, NodeId};

/// One thing the loop did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ActionRecord {
    Restart {
        nodes: Vec<NodeId>,
        /// Milliseconds since the roll started.
        at_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        /// The nodes of `nodes` whose restart command failed: not restarted, maybe down.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        failed: Vec<NodeId>,
    },
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        at_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    ElectPreferredLeaders {
        partitions: usize,
        at_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// Write-ahead status of the action the engine decided last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionStatus {
    /// Decided; the command has not been started.
    Decided,
    /// Saved just before the command started: it may or may not have run.
    Issued,
    /// The command's result was fed back to the engine.
    Done,
}

/// The action the engine decided last, with its write-ahead status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAction {
    pub decision: Decision,
    pub status: ActionStatus,
    pub decided_at: Millis,
    /// Set when a restored run found a restart `Issued` but never confirmed:
    /// since when its evidence has been looked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unconfirmed_since: Option<Millis>,
}

/// Everything a roll needs between two steps: the engine plus what the
/// driver keeps. Plain serialisable data: a caller saves it after every
/// step (the driver's step saves it itself before and after running a command)
/// and resumes from the saved copy after a crash.
///
/// Resume rules (applied by the driver's first step after a deserialisation):
/// - an action `Decided` but not `Issued` never ran: it is never issued on the
///   saved decision, whatever its age. The engine forgets it
///   ([`Roller::handle_not_issued`]) and the step observes and decides again
///   with fresh safety checks before anything is done. The saved decision's
///   age is not trusted: the clock of a resumed run may have moved backwards
///   (another host, a clock step), and the cluster may have changed in any
///   time at all (a replica of the node to restart went down meanwhile);
/// - a restart `Issued` but not `Done` may or may not have run: it is never
///   issued again on that basis. Its nodes are observed; evidence that the old
///   process ended (the node seen down or unreachable, a changed persistent
///   incarnation, the restart witness seeing the connection close) counts as
///   the platform's "done" ([`Roller::handle_restart_done`]), and the node
///   then counts as restarted only once seen serving again, as always. Without
///   evidence for the driver's `unconfirmed_restart_grace_ms` (long
///   enough for a command still running to take effect), a batch with no
///   evidence at all is forgotten and decided again (the node is restarted
///   only if a fresh decision, with fresh safety checks, picks it: this is
///   the only way a node can restart twice, and only when nothing shows its
///   first restart happened); nodes of a batch where others showed evidence
///   are counted as issued and left to the engine's post-restart timeout;
/// - a reconfiguration or an election `Issued` is taken as done (the engine
///   checks the effect and retries a reconfiguration that did not apply);
/// - incarnations recorded before the restore are forgotten when the IO says
///   they do not survive it (the driver's IO says whether they survive).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RollRun {
    pub roller: Roller,
    #[serde(default)]
    pub pending: Option<PendingAction>,
    #[serde(default)]
    pub actions: Vec<ActionRecord>,
    /// When the roll started (the IO's clock: wall-clock milliseconds for
    /// `kafkaops roll`).
    pub started: Millis,
    /// Last successful observation.
    #[serde(default)]
    pub last_ok: Option<Millis>,
    /// Steps taken so far.
    #[serde(default)]
    pub steps: u64,
    /// Times this run was restored and resumed.
    #[serde(default)]
    pub resumes: u32,
    /// `false` after deserialisation: the next step applies the resume rules
    /// ([`RollRun::mark_live`]).
    #[serde(skip)]
    live: bool,
    #[serde(skip)]
    stop_seen: bool,
}

impl RollRun {
    /// A new run of `roller`, starting at `now`.
    #[must_use]
    pub fn new(roller: Roller, now: Millis) -> RollRun {
        RollRun {
            roller,
            pending: None,
            actions: Vec::new(),
            started: now,
            last_ok: None,
            steps: 0,
            resumes: 0,
            live: true,
            stop_seen: false,
        }
    }

    /// This run as read back from storage: the driver's next step applies the resume rules to
    /// it (a copy kept in memory is judged exactly as one a new process reads).
    #[must_use]
    pub fn as_restored(&self) -> RollRun {
        RollRun {
            live: false,
            stop_seen: false,
            ..self.clone()
        }
    }

    /// Marks the run live and says whether it was not: `true` once after a deserialisation,
    /// when the driver's next step applies the resume rules.
    pub fn mark_live(&mut self) -> bool {
        !std::mem::replace(&mut self.live, true)
    }

    /// Notes a stop request and says whether it is the first one this process saw.
    pub fn note_stop(&mut self) -> bool {
        !std::mem::replace(&mut self.stop_seen, true)
    }

    /// The latest time the run recorded (its start, the last successful observation, the
    /// pending action's decision and unconfirmed-since times).
    #[must_use]
    pub fn latest_time(&self) -> Millis {
        let mut t = self.started;
        for x in [
            self.last_ok,
            self.pending.as_ref().map(|p| p.decided_at),
            self.pending.as_ref().and_then(|p| p.unconfirmed_since),
        ]
        .into_iter()
        .flatten()
        {
            t = t.max(x);
        }
        t
    }

    /// A restart command that may be running: `Issued` and not yet `Done`.
    #[must_use]
    pub fn restart_in_flight(&self) -> Vec<NodeId> {
        match &self.pending {
            Some(p) if p.status == ActionStatus::Issued => p.decision.restarted_nodes(),
            _ => Vec::new(),
        }
    }
}

impl PartialEq for RollRun {
    /// Equal when everything saved is equal (the process's own flags are not compared).
    fn eq(&self, other: &Self) -> bool {
        self.roller == other.roller
            && self.pending == other.pending
            && self.actions == other.actions
            && self.started == other.started
            && self.last_ok == other.last_ok
            && self.steps == other.steps
            && self.resumes == other.resumes
    }
}
