//! Views of `kafkaops rebalance`: the stable JSON shapes (documented in the parent module),
//! built from Cruise Control's answers, and the small text helpers their tables share (the
//! tables themselves are in [`super::text`]). Pure: views in, text out; the parent module acts.

use super::*;

#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
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

#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct GoalView {
    pub goal: String,
    pub status: String,
}

#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
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

#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct MovementView {
    pub topic: String,
    pub partition: i32,
    pub old_replicas: Vec<i32>,
    pub new_replicas: Vec<i32>,
    pub old_leader: Option<i64>,
    pub new_leader: Option<i32>,
}

/// A proposal as kafkaops shows it.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
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
        let loads = broker_loads(r);
        ProposalView {
            operation: kind.endpoint().path(),
            brokers,
            destination_brokers,
            dry_run,
            noop: r.is_noop(),
            summary: SummaryView::of(&r.summary),
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
            movements: movements(r),
            show_internal: false,
        }
    }
}

impl SummaryView {
    /// The summary of a proposal as kafkaops shows it (an empty recommendation is none).
    fn of(s: &crate::cruise_control::model::Summary) -> Self {
        SummaryView {
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
            provision_recommendation: s.provision_recommendation.clone().filter(|r| !r.is_empty()),
        }
    }
}

/// Every broker's load before and after the proposal, by broker id (a broker missing from one
/// side has `None` there).
fn broker_loads(r: &OptimizationResult) -> BTreeMap<i64, BrokerLoadView> {
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
    loads
}

/// The proposal's partition movements, sorted by topic and partition.
fn movements(r: &OptimizationResult) -> Vec<MovementView> {
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
    movements
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
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct ExecutionOutcome {
    /// started (`--no-wait`), completed, failed, stopped (by a stop request), nothing-to-do,
    /// drifted (nothing executed), running (following ended while it runs: `follow.ended`),
    /// stopping (a stop was asked after Ctrl-C).
    #[schemars(extend("enum" = ["started", "completed", "failed", "stopped", "nothing-to-do",
        "drifted", "running", "stopping"]))]
    pub status: &'static str,
    pub progress: Option<ExecutionProgress>,
    /// What kafkaops saw change in Kafka's metadata between before and after the execution
    /// (only with `--bootstrap-servers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement_in_kafka: Option<crate::app::placement::PlacementChange>,
}

/// `--execute` output: the proposal and what became of it.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
pub struct ExecutionView {
    /// The Cruise Control task of the execution (`null` when none was started); the same path
    /// (`task_id`) as in `rebalance status`, `status --task`, `pace` and `stop`.
    pub task_id: Option<String>,
    /// What Cruise Control executed (its answer to the execution request), or, when the
    /// proposal changed past the tolerance, the re-checked proposal that was refused.
    pub proposal: ProposalView,
    /// The dry run that was shown and approved (`null` when nothing was executed).
    pub approved_proposal: Option<Box<ProposalView>>,
    /// The last comparison of the proposal before the execution with the approved one.
    pub drift: Option<Box<DriftReport>>,
    /// The execution's own proposal compared with the approved one (it already runs).
    pub execution_drift: Option<Box<DriftReport>>,
    /// Why following the execution ended (`null` when it was not followed: a dry run,
    /// `--no-wait`, nothing executed).
    pub follow: Option<super::FollowView>,
    pub execution: ExecutionOutcome,
}

/// `rebalance status` output.
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
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
#[derive(schemars::JsonSchema, Debug, Clone, Serialize)]
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
pub(crate) fn mb(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), crate::output::human_mb)
}

/// A rate in bytes per second for people (`-` when unknown).
#[allow(clippy::cast_precision_loss)]
pub(crate) fn rate(v: Option<u64>) -> String {
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
