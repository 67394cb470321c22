//! Rendering for `kafkaops roll`: the plan as text, the summary, the stderr progress
//! printer and the JSON result document. Split out of `roll.rs` so the command logic and
//! its output formats can be read apart; `roll` re-exports the public items.

use super::*;

fn role_of(snapshot: &ClusterSnapshot, id: NodeId) -> String {
    snapshot
        .node(id)
        .map_or_else(|| "?".into(), |n| n.roles.to_string())
}

/// The plan as text: batches in order, the reason for each node, what would block.
#[must_use]
pub fn render_plan(plan: &Plan, snapshot: &ClusterSnapshot, notes: &[String]) -> String {
    let mut out = String::new();
    let reconfigs = plan
        .steps
        .iter()
        .filter(|s| matches!(s, PlanStep::Reconfigure { .. }))
        .count();
    out.push_str(&format!(
        "Plan: {} restart batch(es), {} reconfiguration(s), {} node(s) untouched\n",
        plan.restart_batches(),
        reconfigs,
        plan.untouched.len()
    ));
    let leader = snapshot.quorum.as_ref().and_then(|q| q.leader);
    for (i, step) in plan.steps.iter().enumerate() {
        let n = i + 1;
        match step {
            PlanStep::Restart { nodes, reason } => {
                out.push_str(&format!("{n:>3}. restart\n"));
                for r in nodes {
                    let active = if Some(r.node) == leader {
                        ", active controller"
                    } else {
                        ""
                    };
                    out.push_str(&format!(
                        "       node {} ({}{active}): {}\n",
                        r.node,
                        role_of(snapshot, r.node),
                        r.reason
                    ));
                }
                out.push_str(&format!("       why now: {reason}\n"));
            }
            PlanStep::Reconfigure {
                node,
                changes,
                reason,
            } => {
                out.push_str(&format!("{n:>3}. reconfigure node {node} (no restart)\n"));
                for c in changes {
                    out.push_str(&format!(
                        "       {}: {} -> {}\n",
                        c.key,
                        c.from.as_deref().unwrap_or("(unset)"),
                        c.to
                    ));
                }
                out.push_str(&format!("       why: {reason}\n"));
            }
            PlanStep::Blocked { nodes, reason } => {
                out.push_str(&format!(
                    "{n:>3}. BLOCKED{}: {reason}\n",
                    if nodes.is_empty() {
                        String::new()
                    } else {
                        format!(" (node(s) {})", join(nodes))
                    }
                ));
            }
        }
    }
    if plan.steps.is_empty() {
        out.push_str("  nothing to do: every selected node already runs as desired\n");
    }
    if !plan.untouched.is_empty() {
        out.push_str(&format!("Untouched: {}\n", join(&plan.untouched)));
    }
    if !plan.sensitive_settings.is_empty() {
        out.push_str(&format!(
            "Not compared (sensitive, Kafka returns no value): {}; only a restart applies them\n",
            crate::engine::roll::describe_settings(&plan.sensitive_settings)
        ));
    }
    for n in notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}

/// `--output json|yaml`: the plan and the result in one document.
#[derive(Serialize)]
pub(super) struct Document<'a> {
    pub(super) plan: &'a Plan,
    /// What the plan says about the observation (unhealthy nodes left alone, inferred roles).
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub(super) notes: &'a [String],
    pub(super) dry_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) result: Option<&'a ResultDoc>,
}

/// How the roll ended, for people and scripts.
#[derive(Debug, Serialize)]
pub struct ResultDoc {
    /// done, nothing-to-do, refused, aborted, interrupted, restart-failed, observe-failed.
    pub status: String,
    pub exit_code: i32,
    pub restarted: Vec<NodeId>,
    pub reconfigured: Vec<NodeId>,
    pub skipped: Vec<NodeId>,
    pub elapsed_ms: u64,
    pub actions: Vec<ActionRecord>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ResultDoc {
    pub(super) fn refused(plan: &Plan, reason: &str) -> ResultDoc {
        ResultDoc {
            status: "refused".into(),
            exit_code: ExitCode::Failed.code(),
            restarted: Vec::new(),
            reconfigured: Vec::new(),
            skipped: planned_nodes(plan),
            elapsed_ms: 0,
            actions: Vec::new(),
            notes: Vec::new(),
            error: Some(reason.to_string()),
        }
    }

    pub(super) fn nothing(plan: &Plan) -> ResultDoc {
        ResultDoc {
            status: "nothing-to-do".into(),
            exit_code: 0,
            restarted: Vec::new(),
            reconfigured: Vec::new(),
            skipped: plan.untouched.clone(),
            elapsed_ms: 0,
            actions: Vec::new(),
            notes: Vec::new(),
            error: None,
        }
    }
}

fn planned_nodes(plan: &Plan) -> Vec<NodeId> {
    let mut ids: BTreeSet<NodeId> = plan.untouched.iter().copied().collect();
    for s in &plan.steps {
        match s {
            PlanStep::Restart { nodes, .. } => ids.extend(nodes.iter().map(|n| n.node)),
            PlanStep::Reconfigure { node, .. } => {
                ids.insert(*node);
            }
            PlanStep::Blocked { nodes, .. } => ids.extend(nodes.iter().copied()),
        }
    }
    ids.into_iter().collect()
}

pub(super) fn emit_result(
    printer: &Printer,
    plan: &Plan,
    notes: &[String],
    result: &ResultDoc,
) -> anyhow::Result<()> {
    printer.emit(
        &Document {
            plan,
            notes,
            dry_run: false,
            result: Some(result),
        },
        |d| render_summary(d.result.expect("set")),
    )
}

pub(super) fn render_summary(r: &ResultDoc) -> String {
    let secs = r.elapsed_ms / 1000;
    let mut out = format!(
        "Summary: {}\n  restarted:    {}\n  reconfigured: {}\n  skipped:      {}\n  time taken:   \
         {}m {:02}s\n",
        r.status,
        join_or_none(&r.restarted),
        join_or_none(&r.reconfigured),
        join_or_none(&r.skipped),
        secs / 60,
        secs % 60
    );
    for n in &r.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out
}

/// Progress on stderr: one line per action and per change of an acted-on node's state.
#[derive(Default)]
pub(crate) struct StderrProgress {
    pub(super) quiet: bool,
    pub(super) recovery: Arc<Mutex<BTreeMap<i32, i64>>>,
    /// Nodes of the current action.
    pub(super) current: Vec<NodeId>,
    pub(super) last_status: BTreeMap<NodeId, String>,
    pub(super) last_wait: Option<String>,
    pub(super) started: Option<Millis>,
    /// Tests: lines are collected here instead of printed.
    pub(super) captured: Option<std::cell::RefCell<Vec<String>>>,
    /// Lines go through `tracing` (info) instead of raw stderr: `operate`, whose stderr is its
    /// log (JSON lines with `--log-format json`).
    pub(super) logged: bool,
}

impl StderrProgress {
    /// Progress lines on stderr (`quiet`: none), with the IO's log-recovery figures.
    pub(crate) fn new(quiet: bool, recovery: Arc<Mutex<BTreeMap<i32, i64>>>) -> StderrProgress {
        StderrProgress {
            quiet,
            recovery,
            ..StderrProgress::default()
        }
    }

    /// Progress lines as log lines (`tracing`, info), for a service whose stderr is its log.
    pub(crate) fn logged(recovery: Arc<Mutex<BTreeMap<i32, i64>>>) -> StderrProgress {
        StderrProgress {
            logged: true,
            ..StderrProgress::new(false, recovery)
        }
    }

    fn say(&self, msg: &str) {
        if let Some(lines) = &self.captured {
            lines.borrow_mut().push(msg.to_string());
        } else if self.logged {
            tracing::info!("roll: {}", msg.trim_start());
        } else if !self.quiet {
            crate::output::stderr_line(format_args!("{msg}"));
        }
    }

    fn stamp(&self, at: Millis) -> String {
        let s = self.started.map_or(0, |t| at.since(t)) / 1000;
        format!("[{:>2}:{:02}]", s / 60, s % 60)
    }

    fn status(&self, snapshot: &ClusterSnapshot, roller: &Roller, id: NodeId) -> String {
        let Some(ctx) = roller.contexts().get(&id) else {
            return "unknown".into();
        };
        match ctx.state {
            NodeState::Restarted | NodeState::NotRunning | NodeState::Unknown => {
                "restarting".into()
            }
            NodeState::NotReady => "starting".into(),
            NodeState::Recovering => {
                let logs = self
                    .recovery
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&id.0)
                    .copied();
                match logs {
                    Some(n) => format!("recovering {n} logs"),
                    None => "recovering logs".into(),
                }
            }
            NodeState::Reconfigured => "reconfigured, waiting to serve".into(),
            NodeState::Serving => {
                let behind = snapshot
                    .partitions
                    .iter()
                    .filter(|p| p.replicas.contains(&id) && !p.isr.contains(&id))
                    .count();
                if behind > 0 {
                    format!("catching up ISR ({behind} partition(s) behind)")
                } else {
                    "in sync, waiting to lead its preferred partitions".into()
                }
            }
            NodeState::LeadingAllPreferred => {
                if ctx.roles.broker {
                    "serving, leading preferred".into()
                } else {
                    "serving".into()
                }
            }
        }
    }
}

impl Progress for StderrProgress {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::Observed {
                snapshot,
                roller,
                at,
            } => {
                self.started.get_or_insert(*at);
                for id in self.current.clone() {
                    let status = self.status(snapshot, roller, id);
                    if self.last_status.get(&id) != Some(&status) {
                        self.say(&format!("{}   node {id}: {status}", self.stamp(*at)));
                        self.last_status.insert(id, status);
                    }
                }
            }
            Event::Decided(d) => match d {
                Decision::Restart { nodes, reason } => {
                    self.current = nodes.iter().map(|n| n.node).collect();
                    self.last_status.clear();
                    self.last_wait = None;
                    self.say(&format!(
                        "==> restarting node(s) {}: {reason}",
                        join(&self.current)
                    ));
                }
                Decision::Reconfigure {
                    node,
                    changes,
                    reason,
                } => {
                    self.current = vec![*node];
                    self.last_status.clear();
                    self.last_wait = None;
                    let keys: Vec<String> = changes
                        .iter()
                        .map(|c| format!("{}={}", c.key, c.to))
                        .collect();
                    self.say(&format!(
                        "==> reconfiguring node {node} ({}): {reason}",
                        keys.join(", ")
                    ));
                }
                Decision::ElectPreferredLeaders {
                    nodes, partitions, ..
                } => {
                    self.say(&format!(
                        "    electing preferred leaders for {} partition(s) of node(s) {}",
                        partitions.len(),
                        join(nodes)
                    ));
                }
                Decision::Wait { for_what, .. } if for_what.is_blocked() => {
                    let text = for_what.to_string();
                    if self.last_wait.as_deref() != Some(text.as_str()) {
                        self.say(&format!("    waiting: {text}"));
                        self.last_wait = Some(text);
                    }
                }
                Decision::Wait { .. } => {}
                Decision::Done { .. } | Decision::Abort { .. } => {}
            },
            Event::ObserveRetry { error, retry_until } => {
                tracing::debug!("observation failed (retrying until {retry_until}): {error:#}");
                self.say(&format!("    observation failed, retrying: {error:#}"));
            }
            Event::ActionFailed { what, error } => {
                self.say(&format!("    {what} failed: {error:#}"));
            }
            Event::StopRequested => {
                self.say("    stop requested: finishing the current batch");
            }
            Event::Resumed {
                pending,
                not_issued,
                clock_behind_ms,
            } => {
                if *clock_behind_ms > 0 {
                    self.say(&format!(
                        "    the clock is {} behind the saved roll (moved back, or another host's): \
                         no saved time is trusted for a decision",
                        humantime::format_duration(std::time::Duration::from_millis(
                            *clock_behind_ms
                        ))
                    ));
                }
                if let Some(d) = not_issued {
                    let nodes = match d {
                        Decision::Restart { .. } => d.restarted_nodes(),
                        Decision::Reconfigure { node, .. } => vec![*node],
                        Decision::ElectPreferredLeaders { nodes, .. } => nodes.clone(),
                        _ => Vec::new(),
                    };
                    self.say(&format!(
                        "    the saved {} of node(s) {} was never issued: observing and deciding \
                         again before anything is done",
                        decision_word(d),
                        join(&nodes)
                    ));
                }
                if let Some(p) = pending {
                    self.say(&format!(
                        "    resumed with a pending {} ({:?})",
                        decision_word(&p.decision),
                        p.status
                    ));
                }
            }
            Event::UnconfirmedRestartJudged { nodes, happened } => {
                let ids: Vec<NodeId> = nodes.to_vec();
                if *happened {
                    self.say(&format!(
                        "    node(s) {}: the restart issued before the resume happened (evidence seen); \
                         waiting for them to serve",
                        join(&ids)
                    ));
                } else {
                    self.say(&format!(
                        "    node(s) {}: no evidence that the restart issued before the resume happened; \
                         deciding again",
                        join(&ids)
                    ));
                }
            }
            Event::SaveFailed { error } => {
                self.say(&format!(
                    "    warning: the roll state was not saved: {error:#}"
                ));
            }
        }
    }
}

fn decision_word(d: &Decision) -> &'static str {
    match d {
        Decision::Restart { .. } => "restart",
        Decision::Reconfigure { .. } => "reconfiguration",
        Decision::ElectPreferredLeaders { .. } => "leader election",
        Decision::Wait { .. } => "wait",
        Decision::Done { .. } => "end",
        Decision::Abort { .. } => "abort",
    }
}

#[cfg(test)]
mod plan_tests {
    use super::*;
    use crate::engine::roll::NodeSettings;

    /// Issue 23, point 6: a desired sensitive setting cannot be compared; the plan says so
    /// (by key, never by value).
    #[test]
    fn the_plan_names_sensitive_settings_it_cannot_compare() {
        let plan = Plan {
            untouched: vec![NodeId(1)],
            sensitive_settings: vec![NodeSettings {
                node: NodeId(1),
                keys: vec!["ssl.keystore.password".into()],
            }],
            ..Plan::default()
        };
        let text = render_plan(&plan, &ClusterSnapshot::default(), &[]);
        assert!(
            text.contains(
                "Not compared (sensitive, Kafka returns no value): node 1: ssl.keystore.password"
            ),
            "{text}"
        );
        let json = serde_json::to_value(&plan).unwrap();
        assert_eq!(
            json["sensitive_settings"],
            serde_json::json!([{"node": 1, "keys": ["ssl.keystore.password"]}])
        );
    }
}

#[cfg(test)]
mod logged_tests {
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
        let progress = StderrProgress::logged(Arc::default());
        tracing::subscriber::with_default(subscriber, || {
            progress.say("==> restarting node(s) 2: the broker configuration differs");
            progress.say("[ 0:03]   node 2: restarting");
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
