//! Views and text rendering of `kafkaops rebalance`: the stable JSON shapes (documented in the
//! parent module) and the tables people read. Pure: views in, text out; the parent module acts.

use super::*;

#[derive(Debug, Clone, Serialize)]
pub struct SummaryView {
    pub replica_movements: u64,
    pub leader_movements: u64,
    pub data_to_move_mb: Option<f64>,
    pub intra_broker_replica_movements: u64,
    pub intra_broker_data_to_move_mb: Option<f64>,
    pub balancedness_before: Option<f64>,
    pub balancedness_after: Option<f64>,
    pub monitored_partitions_pct: Option<f64>,
    pub recent_windows: Option<i64>,
    pub excluded_topics: Vec<String>,
    pub provision_status: Option<String>,
    pub provision_recommendation: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct GoalView {
    pub goal: String,
    pub status: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct BrokerLoadView {
    pub broker: i64,
    pub replicas_before: Option<u64>,
    pub replicas_after: Option<u64>,
    pub leaders_before: Option<u64>,
    pub leaders_after: Option<u64>,
    pub disk_mb_before: Option<f64>,
    pub disk_mb_after: Option<f64>,
    /// Cruise Control reports the broker down (`"BrokerState":"DEAD"`).
    pub dead: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct MovementView {
    pub topic: String,
    pub partition: i32,
    pub old_replicas: Vec<i32>,
    pub new_replicas: Vec<i32>,
    pub old_leader: Option<i64>,
    pub new_leader: Option<i32>,
}

/// A proposal as kafkaops shows it.
#[derive(Debug, Clone, Serialize)]
pub struct ProposalView {
    pub operation: &'static str,
    pub brokers: Vec<i32>,
    pub destination_brokers: Vec<i32>,
    pub dry_run: bool,
    pub noop: bool,
    pub summary: SummaryView,
    pub goals: Vec<GoalView>,
    pub broker_load: Vec<BrokerLoadView>,
    /// Brokers Cruise Control reports down (`"BrokerState":"DEAD"`): the proposal drains them.
    pub dead_brokers: Vec<i64>,
    pub movements: Vec<MovementView>,
    /// List internal topics' movements one by one in the table (`--show-internal`); JSON always
    /// lists every movement.
    #[serde(skip)]
    pub show_internal: bool,
}

impl ProposalView {
    #[must_use]
    pub fn new(kind: &RebalanceKind, r: &OptimizationResult, dry_run: bool) -> Self {
        let (brokers, destination_brokers) = match kind {
            RebalanceKind::AddBrokers(b) => (b.clone(), Vec::new()),
            RebalanceKind::RemoveBrokers {
                brokers,
                destinations,
            } => (brokers.clone(), destinations.clone()),
            other => (other.named_brokers(), Vec::new()),
        };
        let s = &r.summary;
        let mut loads: BTreeMap<i64, BrokerLoadView> = BTreeMap::new();
        let blank = |broker| BrokerLoadView {
            broker,
            replicas_before: None,
            replicas_after: None,
            leaders_before: None,
            leaders_after: None,
            disk_mb_before: None,
            disk_mb_after: None,
            dead: false,
        };
        if let Some(before) = &r.load_before_optimization {
            for b in &before.brokers {
                let Some(id) = b.broker else { continue };
                let e = loads.entry(id).or_insert_with(|| blank(id));
                e.replicas_before = Some(b.replicas);
                e.leaders_before = Some(b.leaders);
                e.disk_mb_before = b.disk_mb;
                e.dead |= is_dead(b);
            }
        }
        if let Some(after) = &r.load_after_optimization {
            for b in &after.brokers {
                let Some(id) = b.broker else { continue };
                let e = loads.entry(id).or_insert_with(|| blank(id));
                e.replicas_after = Some(b.replicas);
                e.leaders_after = Some(b.leaders);
                e.disk_mb_after = b.disk_mb;
                e.dead |= is_dead(b);
            }
        }
        let mut movements: Vec<MovementView> = r
            .proposals
            .iter()
            .map(|p| MovementView {
                topic: p.topic_partition.topic.clone(),
                partition: p.topic_partition.partition,
                old_replicas: p.old_replicas.clone(),
                new_replicas: p.new_replicas.clone(),
                old_leader: p.old_leader,
                new_leader: p.new_replicas.first().copied(),
            })
            .collect();
        movements.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
        ProposalView {
            operation: kind.endpoint().path(),
            brokers,
            destination_brokers,
            dry_run,
            noop: r.is_noop(),
            summary: SummaryView {
                replica_movements: s.num_replica_movements,
                leader_movements: s.num_leader_movements,
                data_to_move_mb: s.data_to_move_mb,
                intra_broker_replica_movements: s.num_intra_broker_replica_movements,
                intra_broker_data_to_move_mb: s.intra_broker_data_to_move_mb,
                balancedness_before: s.on_demand_balancedness_score_before,
                balancedness_after: s.on_demand_balancedness_score_after,
                monitored_partitions_pct: s.monitored_partitions_percentage,
                recent_windows: s.recent_windows,
                excluded_topics: s.excluded_topics.clone(),
                provision_status: s.provision_status.clone(),
                provision_recommendation: s
                    .provision_recommendation
                    .clone()
                    .filter(|r| !r.is_empty()),
            },
            goals: r
                .goal_summary
                .iter()
                .map(|g| GoalView {
                    goal: g.goal.clone(),
                    status: g.status.clone(),
                })
                .collect(),
            dead_brokers: loads
                .values()
                .filter(|l| l.dead)
                .map(|l| l.broker)
                .collect(),
            broker_load: loads.into_values().collect(),
            movements,
            show_internal: false,
        }
    }
}

/// Whether Cruise Control reports `b` down (`"BrokerState":"DEAD"`, reference section 14).
fn is_dead(b: &crate::cruise_control::model::BrokerStats) -> bool {
    b.broker_state
        .as_deref()
        .is_some_and(|s| s.eq_ignore_ascii_case("DEAD"))
}

/// The warning for a proposal that drains brokers Cruise Control reports down (pure), shown
/// before anything is asked: a real Cruise Control proposes to move every replica off a dead
/// broker without a word (#25 point 5).
#[must_use]
pub fn dead_brokers_warning(p: &ProposalView) -> Option<String> {
    if p.dead_brokers.is_empty() {
        return None;
    }
    let detail = p
        .broker_load
        .iter()
        .filter(|l| l.dead)
        .map(|l| {
            format!(
                "broker {}: {} -> {} replica(s)",
                l.broker,
                opt(l.replicas_before),
                opt(l.replicas_after)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!(
        "Warning: Cruise Control reports broker(s) {} DEAD (down); this proposal moves replicas off them ({detail}). If the broker is only restarting, bring it back and ask again instead",
        p.dead_brokers
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    ))
}

/// An execution's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct ExecutionOutcome {
    pub status: &'static str,
    pub task_id: Option<String>,
    pub progress: Option<ExecutionProgress>,
    /// What kafkaops saw change in Kafka's metadata between before and after the execution
    /// (only with `--bootstrap-servers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement_in_kafka: Option<crate::app::placement::PlacementChange>,
}

/// `--execute` output: the proposal and what became of it.
#[derive(Debug, Clone, Serialize)]
pub struct ExecutionView {
    /// What Cruise Control executed (its answer to the execution request), or, when the
    /// proposal changed past the tolerance, the re-checked proposal that was refused.
    pub proposal: ProposalView,
    /// The dry run that was shown and approved (`null` when nothing was executed).
    pub approved_proposal: Option<Box<ProposalView>>,
    /// The last comparison of the proposal before the execution with the approved one.
    pub drift: Option<Box<DriftReport>>,
    /// The execution's own proposal compared with the approved one (it already runs).
    pub execution_drift: Option<Box<DriftReport>>,
    pub execution: ExecutionOutcome,
}

/// `rebalance status` output.
#[derive(Debug, Clone, Serialize)]
pub struct StatusView {
    pub executing: bool,
    pub executor_state: String,
    pub task_id: Option<String>,
    pub reason: Option<String>,
    pub progress: Option<ExecutionProgress>,
    pub monitor_state: Option<String>,
    pub ready: bool,
    pub not_ready_reason: Option<String>,
    pub proposal_ready: Option<bool>,
    /// Task kind, elapsed time and ETA, intra-broker and aborting counters, concurrency caps
    /// (while executing).
    pub details: Option<status_extra::ExecutionDetails>,
    /// Replication throttles set on the brokers (`null` without a Kafka connection).
    pub throttles: Option<Vec<status_extra::ThrottleView>>,
}

/// `rebalance stop` output.
#[derive(Debug, Clone, Serialize)]
pub struct StopView {
    /// Whether an execution was running and a stop was requested.
    pub stop_requested: bool,
    pub task_id: Option<String>,
    pub executor_state: String,
    pub message: String,
    /// How far the stopped execution's proposal got, as Kafka shows it (`null` without a Kafka
    /// connection or when Cruise Control did not give the proposal).
    pub placement_in_kafka: Option<crate::app::placement::ProposalDone>,
    /// The executor's last counters before the stop.
    pub progress: Option<ExecutionProgress>,
}

/// The text of `rebalance stop`.
#[must_use]
pub fn render_stop(v: &StopView) -> String {
    let mut out = format!("{}\n", v.message);
    if let Some(d) = &v.placement_in_kafka {
        out.push_str(&render_proposal_done(
            d,
            v.progress.as_ref().map(|p| p.partitions_total),
        ));
    }
    out
}

/// The moved/total line of an execution, read from Kafka's placement, and (once) why Cruise
/// Control's executor counts a different number of partition movements (pure): it counts the
/// partitions whose replicas are only reordered (a leadership change) too (reference section 14).
#[must_use]
pub fn render_proposal_done(
    d: &crate::app::placement::ProposalDone,
    executor_total: Option<u64>,
) -> String {
    let mut out = format!(
        "Kafka shows {}/{} partition movement(s) of the proposal done (replica sets as proposed).\n",
        d.done, d.movements
    );
    if let Some(note) = count_note(d.movements, d.reorders, executor_total) {
        out.push_str(&note);
    }
    out
}

/// Why the executor's partition count differs from the proposal's replica movements, or `None`
/// when they agree (pure).
#[must_use]
pub fn count_note(movements: u64, reorders: u64, executor_total: Option<u64>) -> Option<String> {
    let total = executor_total.filter(|t| *t > 0 && *t != movements)?;
    Some(if reorders > 0 {
        format!(
            "Cruise Control's executor counts {total} partition movement(s) for the proposal's {movements}: it also counts the {reorders} partition(s) whose replicas are only reordered (a leadership change), which the proposal counts as leadership moves.\n"
        )
    } else {
        format!(
            "Cruise Control's executor counts {total} partition movement(s) for the proposal's {movements} replica movement(s) (it counts partitions whose replicas are only reordered too).\n"
        )
    })
}

pub(crate) fn num(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.digits$}"))
}

/// Megabytes for people (`-` when unknown).
fn mb(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), crate::output::human_mb)
}

/// A rate in bytes per second for people (`-` when unknown).
#[allow(clippy::cast_precision_loss)]
fn rate(v: Option<u64>) -> String {
    v.map_or_else(|| "-".into(), |r| crate::output::human_rate(r as f64))
}

pub(crate) fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

pub(crate) fn list(v: &[i32]) -> String {
    format!(
        "[{}]",
        v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
    )
}

/// How many movements a table shows before summarising the rest.
const MAX_MOVEMENT_ROWS: usize = 25;

/// The proposal as text tables; `executing` drops the "re-run with --execute" hint.
#[must_use]
pub fn render_proposal(p: &ProposalView, style: crate::output::Style, executing: bool) -> String {
    use crate::output::new_table;
    let s = &p.summary;
    let mut out = String::new();
    let title = match p.operation {
        "add_broker" => format!("Proposal: add brokers {}", ids(&p.brokers)),
        "remove_broker" if p.destination_brokers.is_empty() => {
            format!("Proposal: remove brokers {}", ids(&p.brokers))
        }
        "remove_broker" => format!(
            "Proposal: remove brokers {} (destinations {})",
            ids(&p.brokers),
            ids(&p.destination_brokers)
        ),
        "demote_broker" => format!("Proposal: demote brokers {}", ids(&p.brokers)),
        "remove_disks" => format!("Proposal: remove disks of brokers {}", ids(&p.brokers)),
        _ => "Proposal: full rebalance".to_string(),
    };
    // With --execute the proposal is shown once, as what is about to run (not as a dry run).
    if executing {
        out.push_str(&title.replacen("Proposal:", "Proposal to execute:", 1));
        out.push('\n');
    } else {
        out.push_str(&title);
        out.push_str(if p.dry_run { " (dry run)\n" } else { "\n" });
    }
    let mut t = new_table(style);
    t.set_header(vec!["", "value"]);
    t.add_row(vec![
        "replica movements".into(),
        s.replica_movements.to_string(),
    ]);
    t.add_row(vec![
        "leadership-only moves".into(),
        s.leader_movements.to_string(),
    ]);
    t.add_row(vec!["data to move".into(), mb(s.data_to_move_mb)]);
    if s.intra_broker_replica_movements > 0 {
        t.add_row(vec![
            "intra-broker movements".into(),
            format!(
                "{} ({})",
                s.intra_broker_replica_movements,
                mb(s.intra_broker_data_to_move_mb)
            ),
        ]);
    }
    t.add_row(vec![
        "balancedness before -> after".into(),
        format!(
            "{} -> {}",
            num(s.balancedness_before, 1),
            num(s.balancedness_after, 1)
        ),
    ]);
    t.add_row(vec![
        "monitored partitions".into(),
        s.monitored_partitions_pct
            .map_or_else(|| "-".into(), |v| format!("{v:.1}%")),
    ]);
    if !s.excluded_topics.is_empty() {
        t.add_row(vec!["excluded topics".into(), s.excluded_topics.join(",")]);
    }
    let provisioning = match (&s.provision_status, &s.provision_recommendation) {
        (Some(st), Some(r)) => format!("{st}: {r}"),
        (Some(st), None) => st.clone(),
        (None, _) => "(not reported by this Cruise Control)".into(),
    };
    t.add_row(vec!["provisioning".into(), provisioning]);
    out.push_str(&crate::output::fit(t, style, &[]));
    out.push('\n');

    if !p.goals.is_empty() {
        out.push_str("\nGoals\n");
        let mut g = crate::output::Grid::new(style, ["goal", "status"]);
        for goal in &p.goals {
            g.row([goal.goal.clone(), goal.status.clone()]);
        }
        out.push_str(&g.render());
        out.push('\n');
    }

    if !p.broker_load.is_empty() {
        out.push_str("\nBrokers (before -> after)\n");
        let mut b = new_table(style);
        b.set_header(vec!["broker", "replicas", "leaders", "disk"]);
        for l in &p.broker_load {
            b.add_row(vec![
                if l.dead {
                    format!("{} (DEAD)", l.broker)
                } else {
                    l.broker.to_string()
                },
                format!("{} -> {}", opt(l.replicas_before), opt(l.replicas_after)),
                format!("{} -> {}", opt(l.leaders_before), opt(l.leaders_after)),
                format!("{} -> {}", mb(l.disk_mb_before), mb(l.disk_mb_after)),
            ]);
        }
        out.push_str(&crate::output::fit(b, style, &[]));
        out.push('\n');
    }

    if !p.movements.is_empty() {
        out.push_str("\nMovements\n");
        let mut m = new_table(style);
        m.set_header(vec!["partition", "replicas", "leader"]);
        // Internal topics (Cruise Control's own sample topics among them) are moved like any
        // other (reference section 13) but rarely what people look for: one line by default.
        let (internal, shown): (Vec<&MovementView>, Vec<&MovementView>) = p
            .movements
            .iter()
            .partition(|mv| !p.show_internal && mv.topic.starts_with("__"));
        for mv in shown.iter().take(MAX_MOVEMENT_ROWS) {
            m.add_row(vec![
                format!("{}-{}", mv.topic, mv.partition),
                format!("{} -> {}", list(&mv.old_replicas), list(&mv.new_replicas)),
                format!("{} -> {}", opt(mv.old_leader), opt(mv.new_leader)),
            ]);
        }
        if !internal.is_empty() {
            let topics: std::collections::BTreeSet<&str> =
                internal.iter().map(|mv| mv.topic.as_str()).collect();
            m.add_row(vec![
                format!(
                    "{} internal partition(s) of {} topic(s) (__*)",
                    internal.len(),
                    topics.len()
                ),
                "--show-internal lists them".into(),
                String::new(),
            ]);
        }
        out.push_str(&crate::output::fit(m, style, &[]));
        out.push('\n');
        if shown.len() > MAX_MOVEMENT_ROWS {
            out.push_str(&format!(
                "... and {} more (use --output json for all)\n",
                shown.len() - MAX_MOVEMENT_ROWS
            ));
        }
    }
    if p.noop {
        out.push_str("\nNothing to move: the cluster already satisfies the goals.\n");
    } else if p.dry_run && !executing {
        out.push_str("\nDry run: nothing was changed. Re-run with --execute to apply it.\n");
    }
    crate::output::wrap_prose(&out, style)
}

/// The summary of a completed execution (pure): the highest counters kafkaops saw; when it saw
/// no partition counters at all (a short execution between two polls, or only the leader phase
/// observed), the executed proposal's replica movements, all of which Cruise Control reported
/// done by completing the task. Never "0/0" after replicas moved.
pub(crate) fn completed_progress(
    seen: Option<ExecutionProgress>,
    executed: &SummaryView,
) -> Option<ExecutionProgress> {
    if executed.replica_movements == 0 && executed.leader_movements == 0 {
        return seen;
    }
    let mut p = seen.unwrap_or_else(|| ExecutionProgress {
        state: "NO_TASK_IN_PROGRESS".into(),
        ..ExecutionProgress::default()
    });
    if p.partitions_total == 0 {
        p.partitions_total = executed.replica_movements;
        p.partitions_finished = executed.replica_movements;
        p.partitions_in_progress = 0;
        p.partitions_pending = 0;
    }
    if p.leaders_total == 0 {
        p.leaders_total = executed.leader_movements;
        p.leaders_finished = executed.leader_movements;
    }
    Some(p)
}

/// The progress bar's message: what is known, an ETA only when the data counters allow one
/// (pure). Cruise Control's counters are coarse (reference section 13): in the leader phase only
/// leadership counts exist, and data figures are 0 when it has no disk load for the partitions.
pub(crate) fn follow_message(
    p: &ExecutionProgress,
    rate_mb_per_s: Option<f64>,
    seconds_left: Option<f64>,
) -> String {
    if p.state == "LEADER_MOVEMENT_TASK_IN_PROGRESS" {
        return format!(
            "partitions; moving leadership {}/{}",
            p.leaders_finished, p.leaders_total
        );
    }
    let counts = if p.partitions_total == 0 && p.partitions_in_progress + p.partitions_pending > 0 {
        format!(
            "{} partition(s) moving, {} pending; ",
            p.partitions_in_progress, p.partitions_pending
        )
    } else {
        String::new()
    };
    if p.data_total_mb <= 0.0 {
        return format!("{counts}partitions (Cruise Control reports no data size for them)");
    }
    let speed = match (rate_mb_per_s, seconds_left) {
        (Some(rate), Some(left)) => format!(
            ", {rate:.1} MB/s, ~{} left",
            humantime::format_duration(Duration::from_secs(left.round() as u64))
        ),
        _ => String::new(),
    };
    format!(
        "{counts}partitions, {:.0}/{:.0} MB{speed}",
        p.data_finished_mb, p.data_total_mb
    )
}

pub(crate) fn render_progress(p: &ExecutionProgress, style: crate::output::Style) -> String {
    let mut t = crate::output::new_table(style);
    t.set_header(vec!["", "value"]);
    t.add_row(vec!["executor state".into(), p.state.clone()]);
    // Only what is known: no "0 in progress" when Cruise Control reported none.
    let mut moved = if p.partitions_total == 0 && p.state == "LEADER_MOVEMENT_TASK_IN_PROGRESS" {
        "replica phase over (Cruise Control reports no partition counters now)".to_string()
    } else {
        format!("{}/{}", p.partitions_finished, p.partitions_total)
    };
    if p.partitions_in_progress + p.partitions_pending > 0 {
        moved.push_str(&format!(
            " ({} in progress, {} pending)",
            p.partitions_in_progress, p.partitions_pending
        ));
    }
    t.add_row(vec!["partitions moved".into(), moved]);
    t.add_row(vec![
        "leadership moves (executor's count)".into(),
        format!("{}/{}", p.leaders_finished, p.leaders_total),
    ]);
    t.add_row(vec![
        "data moved".into(),
        if p.data_total_mb > 0.0 {
            format!(
                "{}/{}",
                crate::output::human_mb(p.data_finished_mb),
                crate::output::human_mb(p.data_total_mb)
            )
        } else {
            "not reported".into()
        },
    ]);
    format!("{}\n", crate::output::fit(t, style, &[]))
}

pub(crate) fn render_execution(v: &ExecutionView, style: crate::output::Style) -> String {
    let mut out = String::new();
    let e = &v.execution;
    let task = e.task_id.as_deref().unwrap_or("-");
    out.push_str(&match e.status {
        "completed" => format!("Execution completed (task {task}).\n"),
        "started" => format!(
            "Execution started (task {task}); follow it with `kafkaops rebalance status --task {task} --follow`.\n"
        ),
        "nothing-to-do" => "Nothing to execute.\n".to_string(),
        "drifted" => {
            "Nothing was executed: the proposal changed since it was approved.\n".to_string()
        }
        "stopped" => format!("Execution stopped by a stop request (task {task}).\n"),
        _ => format!("Execution ended with an error or was stopped (task {task}).\n"),
    });
    if let Some(k) = &e.placement_in_kafka {
        out.push_str(&format!(
            "Kafka shows {} partition(s) with new replicas and {} with a new leader.\n",
            k.partitions_moved, k.leaders_changed
        ));
    }
    if let Some(p) = &e.progress {
        out.push_str(&render_progress(p, style));
        let reorders = v
            .proposal
            .movements
            .iter()
            .filter(|m| {
                let (mut a, mut b) = (m.old_replicas.clone(), m.new_replicas.clone());
                a.sort_unstable();
                b.sort_unstable();
                a == b && m.old_replicas != m.new_replicas
            })
            .count() as u64;
        if let Some(note) = count_note(
            v.proposal.summary.replica_movements,
            reorders,
            Some(p.partitions_total),
        ) {
            out.push_str(&note);
        }
        if e.status == "completed" && p.leaders_total > 0 {
            out.push_str(
                "Leadership moves are the executor's own count: it includes leaders that change together with their replicas, which the proposal counts as replica movements.\n",
            );
        }
    }
    crate::output::wrap_prose(&out, style)
}

pub(crate) fn render_status(s: &StatusView, style: crate::output::Style) -> String {
    let mut out = String::new();
    if s.executing {
        out.push_str(&format!(
            "Cruise Control is executing: {}{}\n",
            s.executor_state,
            s.task_id
                .as_deref()
                .map(|t| format!(" (task {t})"))
                .unwrap_or_default()
        ));
        if let Some(r) = &s.reason {
            out.push_str(&format!("Reason: {r}\n"));
        }
        if let Some(p) = &s.progress {
            out.push_str(&render_progress(p, style));
        }
        if let Some(d) = &s.details {
            let dur = |secs: u64| humantime::format_duration(Duration::from_secs(secs)).to_string();
            out.push_str(&format!(
                "Task: {}; running for {}; {}\n",
                d.task_kind.unwrap_or("unknown kind"),
                d.elapsed_seconds.map_or_else(|| "-".into(), dur),
                d.eta_seconds
                    .map_or_else(|| "no ETA yet".into(), |s| format!("about {} left", dur(s)))
            ));
            if d.intra_broker_movements_total > 0 || d.aborting_partitions > 0 {
                out.push_str(&format!(
                    "Intra-broker movements {}/{}, aborting partitions {}\n",
                    d.intra_broker_movements_finished,
                    d.intra_broker_movements_total,
                    d.aborting_partitions
                ));
            }
            if !d.concurrency.is_empty() {
                out.push_str(&format!(
                    "Concurrency caps: {}\n",
                    d.concurrency
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    } else {
        out.push_str("Cruise Control is not executing anything.\n");
    }
    match &s.throttles {
        Some(t) if t.is_empty() => out.push_str("Replication throttle: none set on the brokers\n"),
        Some(t) => out.push_str(&format!(
            "Replication throttle in force: {}\n",
            t.iter()
                .map(|t| format!(
                    "broker {} leader {} follower {}",
                    t.broker,
                    rate(t.leader_rate),
                    rate(t.follower_rate)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        )),
        None => {}
    }
    let mut t = crate::output::new_table(style);
    t.set_header(vec!["", "value"]);
    t.add_row(vec!["load monitor".into(), opt(s.monitor_state.clone())]);
    t.add_row(vec![
        "ready for proposals".into(),
        match (&s.ready, &s.not_ready_reason) {
            (true, _) => "yes".into(),
            (false, Some(r)) => format!("no: {r}"),
            (false, None) => "no".into(),
        },
    ]);
    t.add_row(vec![
        "cached proposal ready".into(),
        opt(s.proposal_ready.map(|b| if b { "yes" } else { "no" })),
    ]);
    out.push_str(&format!("{}\n", crate::output::fit(t, style, &[])));
    crate::output::wrap_prose(&out, style)
}
