//! Restart-progress tracking: what the roller knows about each restart it
//! asked for, and the wait after an action until the nodes count as back.
//! Split out of the roller core (`mod.rs`) to keep both readable; no
//! behaviour of its own beyond what the core calls.

use super::*;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Awaiting {
    pub(super) kind: ActionKind,
    pub(super) nodes: Vec<NodeId>,
    pub(super) started: Millis,
    pub(super) serving_since: BTreeMap<NodeId, Millis>,
    pub(super) elected: BTreeSet<NodeId>,
    /// Per restarted node: what is known about its restart.
    #[serde(default)]
    pub(super) restarts: BTreeMap<NodeId, RestartProgress>,
}

/// What the roller knows about one node's restart, from the decision on.
///
/// A restart counts only once (1) the executor fed back that the command
/// finished, (2) there is evidence that the process running at decision time
/// has ended, (3) a later observation shows the node SERVING and reachable,
/// and (4) for a controller in the quorum, its `LastCaughtUpTimestamp` has
/// advanced since the evidence (a stopped controller keeps looking caught up
/// for `controller.quorum.fetch.timeout.ms`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct RestartProgress {
    pub(super) requested_at: Millis,
    /// The node's incarnation when the restart was decided.
    #[serde(default)]
    pub(super) incarnation_before: Option<String>,
    /// SERVING and reachable when the restart was decided.
    pub(super) serving_before: bool,
    /// A member of the quorum (voter or observer) when the restart was
    /// decided, and a controller: it must fetch again before it counts.
    pub(super) must_fetch: bool,
    /// When the restart command reported success.
    #[serde(default)]
    pub(super) done_at: Option<Millis>,
    /// When evidence that the old process ended arrived, and which.
    #[serde(default)]
    pub(super) ended: Option<(Millis, String)>,
    /// A decision has seen the evidence: observations fed to later decisions
    /// were made after it.
    #[serde(default)]
    pub(super) evidence_seen: bool,
    /// `LastCaughtUpTimestamp` at the first observation, after the evidence,
    /// that shows the node SERVING and reachable again. Only then is the old
    /// process certainly gone (a combined node shutting down after an
    /// early-returning command still fetches while it reports state 6/7), so
    /// only a later, greater value proves a fetch by the new process.
    #[serde(default)]
    pub(super) caught_up_baseline: Option<i64>,
    /// `caught_up_baseline` has been taken.
    #[serde(default)]
    pub(super) baseline_taken: bool,
    /// When it counted as back.
    #[serde(default)]
    pub(super) back_at: Option<Millis>,
    /// A roll onto new software: the node serves again but its software could not be read yet
    /// (why), so it does not count as back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) software_unread: Option<String>,
}

impl RestartProgress {
    pub(super) fn new(
        now: Millis,
        ctx: &NodeContext,
        snapshot: &ClusterSnapshot,
        node: Option<&NodeSnapshot>,
    ) -> Self {
        let state = node.map_or(ObservedState::NotRunning, |n| n.state);
        let mut p = RestartProgress {
            requested_at: now,
            incarnation_before: node.and_then(|n| n.incarnation.clone()),
            serving_before: state == ObservedState::Serving && node.is_some_and(|n| n.reachable),
            must_fetch: ctx.roles.controller && quorum_member(snapshot, ctx.id).is_some(),
            done_at: None,
            ended: None,
            evidence_seen: false,
            caught_up_baseline: None,
            baseline_taken: false,
            back_at: None,
            software_unread: None,
        };
        if state == ObservedState::NotRunning {
            p.ended = Some((
                now,
                "it was not running when the restart was decided".into(),
            ));
            p.evidence_seen = true;
        }
        p
    }

    /// Why the node does not count as back yet (for waits and aborts).
    /// The progress of a restart saved by a version without feed-back: the decision then
    /// implied the command's completion.
    fn saved_without_feed_back(started: Millis) -> Self {
        RestartProgress {
            requested_at: started,
            incarnation_before: None,
            serving_before: true,
            must_fetch: false,
            done_at: Some(started),
            ended: None,
            evidence_seen: false,
            caught_up_baseline: None,
            baseline_taken: false,
            back_at: None,
            software_unread: None,
        }
    }

    /// Records the first evidence that the old process ended: the node vanished, was seen
    /// not running, changed incarnation, or stopped serving after the restart was requested.
    fn note_end_evidence(&mut self, observed: Option<&NodeSnapshot>, now: Millis) {
        if self.ended.is_some() {
            return;
        }
        let evidence = match observed {
            None => Some("it vanished from the observation".to_string()),
            Some(n) if n.state == ObservedState::NotRunning => {
                Some("it was observed NOT_RUNNING after the restart was requested".into())
            }
            Some(n)
                if n.incarnation.is_some()
                    && self.incarnation_before.is_some()
                    && n.incarnation != self.incarnation_before =>
            {
                Some("its incarnation changed".into())
            }
            Some(n)
                if self.serving_before && (n.state != ObservedState::Serving || !n.reachable) =>
            {
                Some(format!(
                    "it was observed {:?}{} after the restart was requested",
                    n.state,
                    if n.reachable { "" } else { " and unreachable" }
                ))
            }
            Some(_) => None,
        };
        if let Some(e) = evidence {
            self.ended = Some((now, e));
        }
    }

    /// Whether the new process is seen serving and reachable: the old one ended, an
    /// observation made after that shows the node (the first one after the evidence may
    /// predate it, so it only counts as seen), and the restart command completed.
    fn new_process_serving(&mut self, observed: Option<&NodeSnapshot>) -> bool {
        if self.ended.is_none() {
            return false;
        }
        if !self.evidence_seen {
            // The observation of this decision may predate the
            // evidence: only later ones show the new process.
            self.evidence_seen = true;
            return false;
        }
        if self.done_at.is_none() {
            return false;
        }
        observed.is_some_and(|n| n.state == ObservedState::Serving && n.reachable)
    }

    /// Whether a restarted quorum member has fetched from the leader since it came back: its
    /// last caught-up time moved past the one first seen after the restart.
    fn fetched_since_restart(&mut self, snapshot: &ClusterSnapshot, id: NodeId) -> bool {
        // Without a quorum leader nothing can fetch: requiring it would
        // keep a leaderless quorum from ever being restarted back into
        // shape, and every restart that could weaken the quorum is
        // refused anyway until a leader is known (`check_quorum`).
        let leaderless = snapshot.quorum.as_ref().is_some_and(|q| q.leader.is_none());
        if !self.must_fetch || leaderless {
            true
        } else if !self.baseline_taken {
            self.baseline_taken = true;
            self.caught_up_baseline = caught_up_ts(snapshot, id);
            false
        } else {
            caught_up_ts(snapshot, id)
                .is_some_and(|t| self.caught_up_baseline.is_none_or(|b| t > b))
        }
    }

    /// A roll onto new software: the node is back only on the target software. `Ok(false)`
    /// while its software could not be read; an error when it came back on another.
    fn on_expected_software(
        &mut self,
        id: NodeId,
        expected: Option<i16>,
        report: Option<&SoftwareReport>,
    ) -> Result<bool, RollError> {
        let Some(expected) = expected else {
            return Ok(true);
        };
        match report {
            Some(Ok(level)) if *level == Some(expected) => {
                self.software_unread = None;
                Ok(true)
            }
            Some(Ok(level)) => Err(RollError::WrongSoftware {
                node: id,
                reported: *level,
                expected,
            }),
            Some(Err(why)) => {
                self.software_unread = Some(why.clone());
                Ok(false)
            }
            None => {
                self.software_unread = Some("no report of it was given".into());
                Ok(false)
            }
        }
    }

    pub(super) fn pending(&self) -> String {
        if let Some(why) = &self.software_unread {
            return format!(
                "serving again, but its software (supported metadata.version) could not be read \
                 yet: {why}"
            );
        }
        if self.done_at.is_none() {
            "the restart command has not reported completion".into()
        } else if self.ended.is_none() {
            "there is no evidence yet that the node restarted (never seen going down, same \
             incarnation, no process end reported): its old process may still be running"
                .into()
        } else if !self.evidence_seen {
            "waiting for an observation made after the old process ended".into()
        } else {
            "not yet SERVING and reachable again (a controller must also have fetched from the \
             quorum leader since its restart)"
                .into()
        }
    }
}

/// The quorum entry (voter or observer) of `id`.
pub(super) fn quorum_member(
    snapshot: &ClusterSnapshot,
    id: NodeId,
) -> Option<&crate::engine::model::VoterState> {
    snapshot.quorum.as_ref().and_then(|q| q.member(id))
}

/// `LastCaughtUpTimestamp` of `id` (`None`: unknown, -1 or not a member).
pub(super) fn caught_up_ts(snapshot: &ClusterSnapshot, id: NodeId) -> Option<i64> {
    quorum_member(snapshot, id)
        .and_then(|v| v.last_caught_up_ms)
        .filter(|t| *t >= 0)
}

impl Roller {
    /// Folds one observation into the restart progress of every node of the
    /// batch and marks the nodes that count as back.
    pub(super) fn track_restarts(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Result<(), RollError> {
        let Some(aw) = self.awaiting.as_mut() else {
            return Ok(());
        };
        for &id in &aw.nodes {
            let progress = aw
                .restarts
                .entry(id)
                .or_insert_with(|| RestartProgress::saved_without_feed_back(aw.started));
            if progress.back_at.is_some() {
                continue;
            }
            let observed = cache.node(snapshot, id);
            progress.note_end_evidence(observed, now);
            if !progress.new_process_serving(observed) {
                continue;
            }
            if !progress.fetched_since_restart(snapshot, id) {
                continue;
            }
            let expected = self.nodes.get(&id).and_then(|c| c.expected_software);
            if !progress.on_expected_software(id, expected, self.software.get(&id))? {
                continue;
            }
            progress.back_at = Some(now);
            let index = cache.index(snapshot);
            let state = if observed.is_some_and(|n| n.roles.broker)
                && !leads_all_preferred(snapshot, index, id)
            {
                NodeState::Serving
            } else {
                NodeState::LeadingAllPreferred
            };
            let ctx = self
                .nodes
                .get_mut(&id)
                .ok_or_else(|| RollError::StateInconsistent {
                    detail: format!("restarting node {id} has no context"),
                })?;
            ctx.state = state;
            ctx.last_transition = now;
        }
        Ok(())
    }

    /// The wait after an action; `None` when the nodes are done and the next
    /// action may be selected.
    pub(super) fn await_step(
        &mut self,
        snapshot: &ClusterSnapshot,
        now: Millis,
        cache: &mut Cache,
    ) -> Result<Option<Decision>, RollError> {
        let kind = match &self.awaiting {
            Some(aw) => aw.kind,
            None => return Ok(None),
        };
        if kind == ActionKind::Restart {
            self.track_restarts(snapshot, now, cache)?;
        }
        let Some(aw) = self.awaiting.as_mut() else {
            return Ok(None);
        };
        let timeout = match aw.kind {
            ActionKind::Restart => self.config.post_restart_timeout_ms,
            ActionKind::Reconfigure => self.config.post_reconfigure_timeout_ms,
        };
        let verb = match aw.kind {
            ActionKind::Restart => "restart",
            ActionKind::Reconfigure => "reconfiguration",
        };
        let missing = |id: &NodeId| RollError::StateInconsistent {
            detail: format!("node {id} of the current action has no context"),
        };
        match aw.kind {
            ActionKind::Restart => {
                for (id, p) in &aw.restarts {
                    if let Some(t) = p.back_at {
                        aw.serving_since.entry(*id).or_insert(t);
                    }
                }
            }
            ActionKind::Reconfigure => {
                for n in &aw.nodes {
                    let ctx = self.nodes.get(n).ok_or_else(|| missing(n))?;
                    if ctx.is_serving() && ctx.reachable {
                        aw.serving_since.entry(*n).or_insert(now);
                    }
                }
            }
        }
        if let Some(d) = not_serving_wait(aw, &self.nodes, &self.config, timeout, now)? {
            return Ok(Some(match d {
                d @ Decision::Abort { .. } => self.finish(d),
                d => d,
            }));
        }
        // All serving: wait for preferred leadership.
        let leadership = LeadershipWait {
            config: &self.config,
            snapshot,
            now,
            timeout,
            verb,
        };
        if let Some(d) = leadership.step(aw, &self.nodes, cache, &mut self.notes)? {
            return Ok(Some(d));
        }
        for n in &aw.nodes {
            let ctx = self.nodes.get_mut(n).ok_or_else(|| missing(n))?;
            ctx.was_healthy = ctx.is_serving() && ctx.reachable;
        }
        self.awaiting = None;
        Ok(None)
    }
}

/// A node of the current action with no context (a bug: the roll aborts rather than panics).
fn missing_context(id: NodeId) -> RollError {
    RollError::StateInconsistent {
        detail: format!("node {id} of the current action has no context"),
    }
}

/// While some nodes of the action are not serving yet: the wait for them (until the first
/// node's deadline, counted from its command's completion, or from the decision when it never
/// reported), or the abort of the first that ran out of time. `None` when all serve.
fn not_serving_wait(
    aw: &Awaiting,
    nodes: &BTreeMap<NodeId, NodeContext>,
    config: &RollConfig,
    timeout: u64,
    now: Millis,
) -> Result<Option<Decision>, RollError> {
    let not_serving: Vec<NodeId> = aw
        .nodes
        .iter()
        .filter(|n| !aw.serving_since.contains_key(n))
        .copied()
        .collect();
    if not_serving.is_empty() {
        return Ok(None);
    }
    // Per node: deadline counted from the command's completion (or
    // the decision when it never reported).
    let since = |n: &NodeId| {
        aw.restarts
            .get(n)
            .map_or(aw.started, |p| p.done_at.unwrap_or(p.requested_at))
    };
    let mut deadline: Option<Millis> = None;
    let mut states: Vec<WaitingNode> = Vec::new();
    for n in &not_serving {
        let ctx = nodes.get(n).ok_or_else(|| missing_context(*n))?;
        let d = since(n).plus(timeout);
        if now >= d {
            let detail = aw
                .restarts
                .get(n)
                .map(|p| p.pending().to_string())
                .unwrap_or_default();
            let reason = RollError::NotServingInTime {
                node: *n,
                state: ctx.observed,
                waited_ms: now.since(since(n)),
                detail,
            };
            return Ok(Some(Decision::Abort { reason }));
        }
        deadline = Some(deadline.map_or(d, |x| x.min(d)));
        states.push(WaitingNode {
            node: *n,
            detail: match aw.restarts.get(n) {
                Some(p) => format!(
                    "seen {:?}{}; {}",
                    ctx.observed,
                    if ctx.reachable { "" } else { ", unreachable" },
                    p.pending()
                ),
                None => ctx.describe_state(),
            },
        });
    }
    let deadline = deadline.unwrap_or(now);
    Ok(Some(Decision::Wait {
        until: now.plus(config.poll_interval_ms).min(deadline),
        for_what: WaitReason::NotServing {
            action: aw.kind,
            nodes: states,
            deadline,
        },
    }))
}

/// The wait for preferred leadership once every node of the action serves.
struct LeadershipWait<'a> {
    config: &'a RollConfig,
    snapshot: &'a ClusterSnapshot,
    now: Millis,
    timeout: u64,
    verb: &'static str,
}

impl LeadershipWait<'_> {
    /// Elects the preferred leaders of nodes back in every ISR, waits for the others until the
    /// deadline, then notes those still not leading and lets the roll go on (`None`).
    fn step(
        &self,
        aw: &mut Awaiting,
        nodes: &BTreeMap<NodeId, NodeContext>,
        cache: &mut Cache,
        notes: &mut Vec<String>,
    ) -> Result<Option<Decision>, RollError> {
        let mut not_leading: Vec<NodeId> = Vec::new();
        for n in &aw.nodes {
            let ctx = nodes.get(n).ok_or_else(|| missing_context(*n))?;
            if self.config.restore_preferred_leaders && ctx.state != NodeState::LeadingAllPreferred
            {
                not_leading.push(*n);
            }
        }
        if not_leading.is_empty() {
            return Ok(None);
        }
        if let Some(election) = self.election(aw, &not_leading, cache) {
            return Ok(Some(election));
        }
        let last_serving = aw.serving_since.values().max().copied().unwrap_or(self.now);
        let deadline = last_serving.plus(self.timeout);
        if self.now < deadline {
            return Ok(Some(Decision::Wait {
                until: self.now.plus(self.config.poll_interval_ms).min(deadline),
                for_what: WaitReason::Leadership {
                    nodes: not_leading,
                    deadline,
                },
            }));
        }
        notes.push(self.gave_up_note(&not_leading, cache));
        Ok(None)
    }

    /// A preferred leader election for the nodes of `not_leading` that are back in every ISR
    /// they belong to and were not elected for yet (each node once per action), over the
    /// partitions they should lead and do not.
    fn election(
        &self,
        aw: &mut Awaiting,
        not_leading: &[NodeId],
        cache: &mut Cache,
    ) -> Option<Decision> {
        let index = cache.index(self.snapshot);
        let to_elect: Vec<NodeId> = not_leading
            .iter()
            .filter(|n| !aw.elected.contains(n) && back_in_all_isrs(self.snapshot, index, **n))
            .copied()
            .collect();
        if to_elect.is_empty() {
            return None;
        }
        let mut partitions: Vec<TopicPartition> = Vec::new();
        for n in &to_elect {
            aw.elected.insert(*n);
            for &pi in index.of(*n) {
                let Some(p) = self.snapshot.partitions.get(pi as usize) else {
                    continue;
                };
                if p.replicas.first() == Some(n) && p.leader != Some(*n) {
                    partitions.push(p.tp.clone());
                }
            }
        }
        partitions.sort();
        partitions.dedup();
        Some(Decision::ElectPreferredLeaders {
            reason: format!(
                "node(s) {} are back in every ISR they belong to but lead only part of \
                 their preferred partitions",
                join_ids(&to_elect)
            ),
            nodes: to_elect,
            partitions,
        })
    }

    /// What the roll notes when it stops waiting for leadership: the nodes still not leading,
    /// and those not back in every ISR yet.
    fn gave_up_note(&self, not_leading: &[NodeId], cache: &mut Cache) -> String {
        let timeout = self.timeout;
        let verb = self.verb;
        // Not a hole: every next restart is judged on the live ISR, where a node that is
        // still catching up counts as out of sync.
        let index = cache.index(self.snapshot);
        let catching_up: Vec<NodeId> = not_leading
            .iter()
            .filter(|n| !back_in_all_isrs(self.snapshot, index, **n))
            .copied()
            .collect();
        let isr_note = if catching_up.is_empty() {
            String::new()
        } else {
            format!(
                "; node(s) {} not back in every ISR yet (the next restarts count them out of \
                 sync)",
                join_ids(&catching_up)
            )
        };
        format!(
            "node(s) {} did not lead all their preferred partitions within {timeout} ms after \
             {verb}{isr_note}; continuing (leadership is restored by the next election)",
            join_ids(not_leading)
        )
    }
}
