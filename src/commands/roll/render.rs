//! Rendering for `kafkaops roll`: the plan as text, the summary, the stderr progress
//! printer and the JSON result document. Split out of `roll.rs` so the command logic and
//! its output formats can be read apart; `roll` re-exports the public items.

use super::*;
use crate::app::roll::ProgressLines;
use crate::engine::roll::{ConfigChange, NodeReason};

/// Notes for people on stderr (`quiet`: none), as the roll's own lines are printed.
pub(super) struct StderrNotes {
    pub(super) quiet: bool,
}

impl crate::app::Reporter for StderrNotes {
    fn note(&self, message: &str) {
        if !self.quiet {
            crate::output::stderr_line(format_args!("{message}"));
        }
    }

    fn warn(&self, message: &str) {
        tracing::warn!("{message}");
    }
}

fn role_of(snapshot: &ClusterSnapshot, id: NodeId) -> String {
    snapshot
        .node(id)
        .map_or_else(|| "?".into(), |n| n.roles.to_string())
}

/// The plan as text: batches in order, the reason for each node, what would block. One line
/// per item, not fitted: the command fits it to the terminal ([`crate::output::fit_prose`]).
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
    for h in &plan.held {
        out.push_str(&format!(
            "  held, not restarted: node {} ({}): {}\n",
            h.node,
            role_of(snapshot, h.node),
            h.reason
        ));
    }
    let leader = snapshot.quorum.as_ref().and_then(|q| q.leader);
    for (i, step) in plan.steps.iter().enumerate() {
        render_step(&mut out, i + 1, step, snapshot, leader);
    }
    if plan.steps.is_empty() {
        out.push_str("  nothing to do: every selected node already runs as desired\n");
    }
    if !plan.untouched.is_empty() {
        out.push_str(&format!("Untouched: {}\n", join(&plan.untouched)));
    }
    if !plan.already_rolled.is_empty() {
        out.push_str(&format!(
            "Already rolled (before the roll stopped): {}\n",
            join(&plan.already_rolled)
        ));
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

/// Step `n` of the plan, with the reason for each node (`leader`: the active controller).
fn render_step(
    out: &mut String,
    n: usize,
    step: &PlanStep,
    snapshot: &ClusterSnapshot,
    leader: Option<NodeId>,
) {
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

/// `--output json|yaml`: the plan and the result in one document (`schemas/roll.json`; a dry
/// run has no `result`).
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Document<'a> {
    pub(super) plan: &'a Plan,
    /// What the plan says about the observation (unhealthy nodes left alone, inferred roles).
    #[serde(default, skip_serializing_if = "<[String]>::is_empty")]
    pub(super) notes: &'a [String],
    pub(super) dry_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) result: Option<&'a ResultDoc>,
}

/// How the roll ended, for people and scripts.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ResultDoc {
    /// done, nothing-to-do, refused, aborted, interrupted, restart-failed, observe-failed,
    /// save-failed.
    #[schemars(extend("enum" = ["done", "nothing-to-do", "refused", "aborted", "interrupted",
        "restart-failed", "observe-failed", "save-failed"]))]
    pub status: String,
    pub exit_code: i32,
    pub restarted: Vec<NodeId>,
    pub reconfigured: Vec<NodeId>,
    pub skipped: Vec<NodeId>,
    /// Nodes whose restart command failed: not restarted, maybe down.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_failed: Vec<NodeId>,
    /// Nodes held (`kafkaops hold`) that the roll would otherwise have acted on: never
    /// restarted, with the hold's reason (issue #29: the plan and the result say so).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<NodeReason>,
    pub elapsed_ms: u64,
    pub actions: Vec<ActionView>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One action the roll took, as its result lists it. The run's state keeps these as
/// [`ActionRecord`]s (`at_ms`, `elect_preferred_leaders`: a saved state's format does not
/// change); the output follows the JSON convention ([`crate::output`]): the time since the roll
/// started is a duration, `after_ms` (an `_at_ms` is an instant), and the kind is kebab-case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum ActionView {
    Restart {
        nodes: Vec<NodeId>,
        /// Milliseconds after the roll started.
        after_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        /// The nodes of `nodes` whose restart command failed: not restarted, maybe down.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        failed: Vec<NodeId>,
    },
    Reconfigure {
        node: NodeId,
        changes: Vec<ConfigChange>,
        /// Milliseconds after the roll started.
        after_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    ElectPreferredLeaders {
        partitions: usize,
        /// Milliseconds after the roll started.
        after_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

impl From<ActionRecord> for ActionView {
    fn from(a: ActionRecord) -> Self {
        match a {
            ActionRecord::Restart {
                nodes,
                at_ms,
                error,
                failed,
            } => ActionView::Restart {
                nodes,
                after_ms: at_ms,
                error,
                failed,
            },
            ActionRecord::Reconfigure {
                node,
                changes,
                at_ms,
                error,
            } => ActionView::Reconfigure {
                node,
                changes,
                after_ms: at_ms,
                error,
            },
            ActionRecord::ElectPreferredLeaders {
                partitions,
                at_ms,
                error,
            } => ActionView::ElectPreferredLeaders {
                partitions,
                after_ms: at_ms,
                error,
            },
        }
    }
}

impl ResultDoc {
    pub(super) fn refused(plan: &Plan, reason: &str) -> ResultDoc {
        ResultDoc {
            status: "refused".into(),
            exit_code: ExitCode::Failed.code(),
            restarted: Vec::new(),
            reconfigured: Vec::new(),
            skipped: planned_nodes(plan),
            restart_failed: Vec::new(),
            held: plan.held.clone(),
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
            restart_failed: Vec::new(),
            held: plan.held.clone(),
            elapsed_ms: 0,
            actions: Vec::new(),
            notes: Vec::new(),
            error: None,
        }
    }
}

/// The nodes a plan's steps act on (restart, reconfigure, or blocked on), each once.
pub(super) fn acted_on(plan: &Plan) -> Vec<NodeId> {
    let mut ids: BTreeSet<NodeId> = BTreeSet::new();
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
        |d| crate::output::fit_prose(&render_summary(d.result.expect("set")), printer.style()),
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
    if !r.restart_failed.is_empty() {
        out.push_str(&format!(
            "  restart failed (not restarted, may be down): {}\n",
            join_or_none(&r.restart_failed)
        ));
    }
    for h in &r.held {
        out.push_str(&format!(
            "  held, not restarted: node {} ({})\n",
            h.node, h.reason
        ));
    }
    for n in &r.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out
}

/// Progress on stderr: one line per action and per change of an acted-on node's state (the
/// lines are [`ProgressLines`]'; `operate` logs the same lines).
#[derive(Default)]
pub(crate) struct StderrProgress {
    pub(super) quiet: bool,
    pub(super) lines: ProgressLines,
    /// Tests: lines are collected here instead of printed.
    pub(super) captured: Option<std::cell::RefCell<Vec<String>>>,
    /// On a terminal: a spinner with the elapsed time under the lines while a node restarts or
    /// settles, so a long wait never looks like a hang (`None`: not a terminal, or `-q`).
    pub(super) spinner: Option<Spinner>,
}

/// The spinner of the action in flight (made when one starts, cleared when it settles).
pub(crate) struct Spinner {
    bar: Option<indicatif::ProgressBar>,
}

impl Spinner {
    fn show(&mut self, what: Option<String>) {
        match (what, &self.bar) {
            (Some(msg), Some(bar)) => bar.set_message(msg),
            (Some(msg), None) => {
                let bar = indicatif::ProgressBar::new_spinner();
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                bar.set_message(msg);
                bar.enable_steady_tick(std::time::Duration::from_millis(200));
                self.bar = Some(bar);
            }
            (None, Some(bar)) => {
                bar.finish_and_clear();
                self.bar = None;
            }
            (None, None) => {}
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.show(None);
    }
}

impl StderrProgress {
    /// Progress lines on stderr (`quiet`: none), with the IO's log-recovery figures, and a
    /// spinner while an action is in flight when stderr is a terminal.
    pub(crate) fn new(quiet: bool, recovery: Arc<Mutex<BTreeMap<i32, i64>>>) -> StderrProgress {
        let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
        StderrProgress {
            quiet,
            lines: ProgressLines::new(recovery),
            captured: None,
            spinner: (terminal && !quiet).then_some(Spinner { bar: None }),
        }
    }

    fn say(&self, msg: &str) {
        if let Some(lines) = &self.captured {
            lines.borrow_mut().push(msg.to_string());
        } else if !self.quiet {
            match self.spinner.as_ref().and_then(|s| s.bar.as_ref()) {
                // The line goes above the spinner, which is drawn again under it.
                Some(bar) => bar.suspend(|| crate::output::stderr_line(format_args!("{msg}"))),
                None => crate::output::stderr_line(format_args!("{msg}")),
            }
        }
    }
}

impl Progress for StderrProgress {
    fn event(&mut self, event: &Event<'_>) {
        for line in self.lines.lines(event) {
            self.say(&line);
        }
        let waiting = self.lines.waiting_on();
        if let Some(spinner) = &mut self.spinner {
            spinner.show(waiting);
        }
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

    /// Issue #26: the plan's prose (reasons, notes, the summary) fits the terminal as tables
    /// do, each item's continuation hanging under its text; without a width, lines are intact.
    #[test]
    fn the_plan_and_the_summary_fit_80_and_40_columns() {
        let reason = |n: i32| crate::engine::roll::NodeReason {
            node: NodeId(n),
            reason: "its configuration differs from the desired one in log.retention.ms and \
                     num.network.threads, which only a restart applies"
                .into(),
        };
        let plan = Plan {
            steps: vec![
                PlanStep::Restart {
                    nodes: vec![reason(1), reason(2)],
                    reason: "brokers 1 and 2 share no partition, so restarting them together \
                             keeps every partition above min.insync.replicas"
                        .into(),
                },
                PlanStep::Blocked {
                    nodes: vec![NodeId(3)],
                    reason: "restarting node 3 now would take partition orders-7 below its \
                             min.insync.replicas of 2 while broker 4 catches up"
                        .into(),
                },
            ],
            untouched: vec![NodeId(4), NodeId(5)],
            ..Plan::default()
        };
        let notes = [
            "the roles of node(s) 5 were inferred from the metadata because the \
                      controller did not answer the describe request in time"
                .to_string(),
        ];
        let text = render_plan(&plan, &ClusterSnapshot::default(), &notes);
        let summary = render_summary(&ResultDoc {
            notes: notes.to_vec(),
            ..ResultDoc::nothing(&plan)
        });
        let style = |w| crate::output::Style {
            width: Some(w),
            ..crate::output::Style::PLAIN
        };
        for (what, text) in [("plan", &text), ("summary", &summary)] {
            assert!(
                text.lines().any(|l| l.len() > 80),
                "unfitted {what}:\n{text}"
            );
            assert_eq!(
                crate::output::fit_prose(text, crate::output::Style::PLAIN),
                *text,
                "not a terminal: as is"
            );
            for w in [80u16, 40] {
                let fitted = crate::output::fit_prose(text, style(w));
                assert!(
                    fitted.lines().all(|l| l.chars().count() <= usize::from(w)),
                    "{what} at {w}:\n{fitted}"
                );
                // The same words, in the same order.
                let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
                assert_eq!(words(&fitted), words(text), "{what} at {w}");
            }
        }
        let fitted = crate::output::fit_prose(&text, style(40));
        let lines: Vec<&str> = fitted.lines().collect();
        // `  1. restart` / `       node 1 (...): ...` continued under the node's text (9).
        let node = lines
            .iter()
            .position(|l| l.starts_with("       node 1"))
            .unwrap();
        assert!(lines[node + 1].starts_with(&" ".repeat(9)), "{fitted}");
        assert!(!lines[node + 1].starts_with(&" ".repeat(10)), "{fitted}");
        // `  2. BLOCKED ...` continued under the text after `2. ` (5).
        let blocked = lines
            .iter()
            .position(|l| l.starts_with("  2. BLOCKED"))
            .unwrap();
        assert!(lines[blocked + 1].starts_with(&" ".repeat(5)), "{fitted}");
        assert!(!lines[blocked + 1].starts_with(&" ".repeat(6)), "{fitted}");
        let note = lines.iter().position(|l| l.starts_with("Note: ")).unwrap();
        assert!(lines[note + 1].starts_with("  ") && !lines[note + 1].starts_with("   "));
    }
}
