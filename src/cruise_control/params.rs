//! Query parameters per endpoint.
//!
//! Cruise Control answers 400 to any parameter name an endpoint does not accept
//! (reference §1), so each endpoint has its own builder that can only produce the
//! names it accepts; [`accepted`] lists them and a unit test checks every builder
//! against it. `json=true` is added to every request by the client, and mutating
//! builders always carry `reason`.

/// Endpoints kafkaops calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    State,
    Proposals,
    Rebalance,
    AddBroker,
    RemoveBroker,
    TopicConfiguration,
    UserTasks,
    StopProposalExecution,
    KafkaClusterState,
    Load,
    /// `POST /admin`: live changes to the running execution (concurrency) and CC's settings.
    Admin,
    /// `GET /review_board` (two-step verification).
    ReviewBoard,
    /// `POST /review` (two-step verification).
    Review,
    /// `POST /demote_broker`: leadership off brokers.
    DemoteBroker,
    /// `POST /remove_disks`: replicas off JBOD volumes (intra-broker).
    RemoveDisks,
}

impl Endpoint {
    #[must_use]
    pub fn path(self) -> &'static str {
        match self {
            Endpoint::State => "state",
            Endpoint::Proposals => "proposals",
            Endpoint::Rebalance => "rebalance",
            Endpoint::AddBroker => "add_broker",
            Endpoint::RemoveBroker => "remove_broker",
            Endpoint::TopicConfiguration => "topic_configuration",
            Endpoint::UserTasks => "user_tasks",
            Endpoint::StopProposalExecution => "stop_proposal_execution",
            Endpoint::KafkaClusterState => "kafka_cluster_state",
            Endpoint::Load => "load",
            Endpoint::Admin => "admin",
            Endpoint::ReviewBoard => "review_board",
            Endpoint::Review => "review",
            Endpoint::DemoteBroker => "demote_broker",
            Endpoint::RemoveDisks => "remove_disks",
        }
    }

    /// The lowest of Cruise Control's roles allowed to call this endpoint (reference section 7,
    /// `DefaultRoleSecurityProvider`): VIEWER for `kafka_cluster_state`, `user_tasks` and
    /// `review_board`, USER for the other reads, ADMIN for every POST.
    #[must_use]
    pub fn required_role(self) -> &'static str {
        match self {
            Endpoint::KafkaClusterState | Endpoint::UserTasks | Endpoint::ReviewBoard => "VIEWER",
            _ if self.is_post() => "ADMIN",
            _ => "USER",
        }
    }

    #[must_use]
    pub fn is_post(self) -> bool {
        matches!(
            self,
            Endpoint::Rebalance
                | Endpoint::AddBroker
                | Endpoint::RemoveBroker
                | Endpoint::TopicConfiguration
                | Endpoint::StopProposalExecution
                | Endpoint::Admin
                | Endpoint::Review
                | Endpoint::DemoteBroker
                | Endpoint::RemoveDisks
        )
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.path())
    }
}

const COMMON: &[&str] = &["json", "reason"];
const PROPOSAL_COMMON: &[&str] = &[
    "goals",
    "excluded_topics",
    "data_from",
    "use_ready_default_goals",
    "exclude_recently_removed_brokers",
    "exclude_recently_demoted_brokers",
    "allow_capacity_estimation",
    "verbose",
    "fast_mode",
];
const EXECUTION: &[&str] = &[
    "dryrun",
    "concurrent_partition_movements_per_broker",
    "max_partition_movements_in_cluster",
    "concurrent_leader_movements",
    "broker_concurrent_leader_movements",
    "execution_progress_check_interval_ms",
    "skip_hard_goal_check",
    "replica_movement_strategies",
    "replication_throttle",
    "review_id",
    "stop_ongoing_execution",
];

/// The parameter names an endpoint accepts (reference §3), besides `json` and `reason`.
#[must_use]
pub fn accepted(endpoint: Endpoint) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = COMMON.to_vec();
    match endpoint {
        Endpoint::State => v.extend(["substates", "verbose", "super_verbose"]),
        Endpoint::Proposals => {
            v.extend(PROPOSAL_COMMON);
            v.extend([
                "kafka_assigner",
                "rebalance_disk",
                "destination_broker_ids",
                "ignore_proposal_cache",
            ]);
        }
        Endpoint::Rebalance => {
            v.extend(PROPOSAL_COMMON);
            v.extend(EXECUTION);
            v.extend([
                "kafka_assigner",
                "rebalance_disk",
                "destination_broker_ids",
                "ignore_proposal_cache",
                "concurrent_intra_broker_partition_movements",
            ]);
        }
        Endpoint::AddBroker | Endpoint::RemoveBroker => {
            v.extend(PROPOSAL_COMMON);
            v.extend(EXECUTION);
            v.extend(["brokerid", "kafka_assigner"]);
            if endpoint == Endpoint::AddBroker {
                v.push("throttle_added_broker");
            } else {
                v.extend(["throttle_removed_broker", "destination_broker_ids"]);
            }
        }
        Endpoint::TopicConfiguration => {
            v.extend(PROPOSAL_COMMON);
            v.extend(EXECUTION);
            v.extend([
                "topic",
                "replication_factor",
                "skip_rack_awareness_check",
                "concurrent_intra_broker_partition_movements",
            ]);
        }
        Endpoint::UserTasks => v.extend([
            "user_task_ids",
            "client_ids",
            "endpoints",
            "types",
            "entries",
            "fetch_completed_task",
        ]),
        Endpoint::StopProposalExecution => {
            v.extend(["force_stop", "stop_external_agent", "review_id"]);
        }
        Endpoint::KafkaClusterState => v.extend(["topic", "verbose"]),
        Endpoint::Admin => v.extend([
            "concurrent_partition_movements_per_broker",
            "max_partition_movements_in_cluster",
            "concurrent_intra_broker_partition_movements",
            "concurrent_leader_movements",
            "broker_concurrent_leader_movements",
            "execution_progress_check_interval_ms",
            "enable_self_healing_for",
            "disable_self_healing_for",
            "drop_recently_removed_brokers",
            "drop_recently_demoted_brokers",
            "enable_concurrency_adjuster_for",
            "disable_concurrency_adjuster_for",
            "min_isr_based_concurrency_adjustment",
            "review_id",
        ]),
        Endpoint::ReviewBoard => v.push("review_ids"),
        Endpoint::Review => v.extend(["approve", "discard"]),
        // Reference §3.5.
        Endpoint::DemoteBroker => v.extend([
            "brokerid",
            "brokerid_and_logdirs",
            "dryrun",
            "concurrent_leader_movements",
            "broker_concurrent_leader_movements",
            "execution_progress_check_interval_ms",
            "skip_urp_demotion",
            "exclude_follower_demotion",
            "replica_movement_strategies",
            "replication_throttle",
            "review_id",
            "stop_ongoing_execution",
            "allow_capacity_estimation",
            "verbose",
            "exclude_recently_demoted_brokers",
        ]),
        // Reference §3.9.
        Endpoint::RemoveDisks => {
            v.extend(["brokerid_and_logdirs", "dryrun", "stop_ongoing_execution"])
        }
        Endpoint::Load => v.extend([
            "start",
            "end",
            "time",
            "allow_capacity_estimation",
            "populate_disk_info",
            "capacity_only",
        ]),
    }
    v
}

/// A query: ordered name/value pairs.
pub type Query = Vec<(&'static str, String)>;

fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Options shared by every goal-based request (proposals, rebalance, add/remove_broker).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoalOptions {
    pub goals: Vec<String>,
    pub excluded_topics: Option<String>,
    pub skip_hard_goal_check: bool,
    /// `exclude_recently_demoted_brokers=true`: no leadership onto recently demoted brokers.
    pub exclude_recently_demoted_brokers: bool,
    /// `destination_broker_ids` of a full rebalance (remove has its own, in the kind).
    pub destination_broker_ids: Vec<i32>,
    /// `rebalance_disk=true`: balance between the disks of each broker (JBOD) instead.
    pub rebalance_disk: bool,
}

/// Options of an execution (ignored by Cruise Control for dry runs, but validated).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExecutionOptions {
    pub dryrun: bool,
    pub replication_throttle: Option<u64>,
    pub concurrent_partition_movements_per_broker: Option<u32>,
    pub concurrent_leader_movements: Option<u32>,
    pub max_partition_movements_in_cluster: Option<u32>,
    pub concurrent_intra_broker_partition_movements: Option<u32>,
    /// Names from Cruise Control's `replica.movement.strategies`, in order.
    pub replica_movement_strategies: Vec<String>,
}

/// What to optimise: the three kinds of rebalance kafkaops runs.
#[derive(Debug, Clone, PartialEq)]
pub enum RebalanceKind {
    /// `add_broker?brokerid=..`: replicas move only onto these brokers.
    AddBrokers(Vec<i32>),
    /// `remove_broker?brokerid=..[&destination_broker_ids=..]`: replicas move only off these.
    RemoveBrokers {
        brokers: Vec<i32>,
        destinations: Vec<i32>,
    },
    /// `rebalance`: the whole cluster.
    Full,
    /// `demote_broker?brokerid=..`: move leadership off these brokers.
    Demote(Vec<i32>),
    /// `remove_disks?brokerid_and_logdirs=..`: move replicas off these volumes (`id-logdir`).
    RemoveDisks(Vec<String>),
}

impl RebalanceKind {
    /// The brokers the operator named (for remove_disks: the brokers of the volumes).
    #[must_use]
    pub fn named_brokers(&self) -> Vec<i32> {
        match self {
            RebalanceKind::AddBrokers(b) | RebalanceKind::Demote(b) => b.clone(),
            RebalanceKind::RemoveBrokers { brokers, .. } => brokers.clone(),
            RebalanceKind::Full => Vec::new(),
            RebalanceKind::RemoveDisks(d) => {
                let mut out: Vec<i32> = d
                    .iter()
                    .filter_map(|v| v.split_once('-').and_then(|(id, _)| id.trim().parse().ok()))
                    .collect();
                out.sort_unstable();
                out.dedup();
                out
            }
        }
    }

    #[must_use]
    pub fn endpoint(&self) -> Endpoint {
        match self {
            RebalanceKind::AddBrokers(_) => Endpoint::AddBroker,
            RebalanceKind::RemoveBrokers { .. } => Endpoint::RemoveBroker,
            RebalanceKind::Full => Endpoint::Rebalance,
            RebalanceKind::Demote(_) => Endpoint::DemoteBroker,
            RebalanceKind::RemoveDisks(_) => Endpoint::RemoveDisks,
        }
    }
}

/// A rebalance request (dry run or execution).
#[derive(Debug, Clone, PartialEq)]
pub struct RebalanceRequest {
    pub kind: RebalanceKind,
    pub goals: GoalOptions,
    pub execution: ExecutionOptions,
    pub reason: String,
    /// Ask for the per-partition movements and the load before.
    pub verbose: bool,
    /// Run the request Cruise Control's review approved under this id instead (two-step
    /// verification): `review_id` is then the only parameter sent (reference §3.10).
    pub review_id: Option<i64>,
    /// `--cc-param KEY=VALUE`: passed through as given (names checked by the command).
    pub extra: Vec<(&'static str, String)>,
}

impl RebalanceRequest {
    /// The query for this request: only names the endpoint accepts; zero/empty values omitted.
    #[must_use]
    pub fn query(&self) -> Query {
        if let Some(id) = self.review_id {
            return vec![("review_id", id.to_string())];
        }
        let mut q: Query = Vec::new();
        match &self.kind {
            RebalanceKind::AddBrokers(b) => {
                q.push(("brokerid", join(b)));
                // The operator names the brokers to fill. With Cruise Control's default (true) a
                // broker it removed earlier and that is now added back would silently get nothing.
                q.push(("exclude_recently_removed_brokers", "false".into()));
            }
            RebalanceKind::RemoveBrokers {
                brokers,
                destinations,
            } => {
                q.push(("brokerid", join(brokers)));
                if !destinations.is_empty() {
                    q.push(("destination_broker_ids", join(destinations)));
                }
            }
            RebalanceKind::Full => {
                if !self.goals.destination_broker_ids.is_empty() {
                    q.push((
                        "destination_broker_ids",
                        join(&self.goals.destination_broker_ids),
                    ));
                }
                if self.goals.rebalance_disk {
                    q.push(("rebalance_disk", "true".into()));
                }
            }
            RebalanceKind::Demote(b) => q.push(("brokerid", join(b))),
            RebalanceKind::RemoveDisks(d) => q.push(("brokerid_and_logdirs", d.join(","))),
        }
        q.push(("dryrun", self.execution.dryrun.to_string()));
        if self.verbose {
            q.push(("verbose", "true".into()));
        }
        if !self.goals.goals.is_empty() {
            q.push(("goals", self.goals.goals.join(",")));
        }
        if self.goals.skip_hard_goal_check {
            q.push(("skip_hard_goal_check", "true".into()));
        }
        if let Some(t) = self
            .goals
            .excluded_topics
            .as_ref()
            .filter(|t| !t.is_empty())
        {
            q.push(("excluded_topics", t.clone()));
        }
        let e = &self.execution;
        if let Some(t) = e.replication_throttle.filter(|t| *t > 0) {
            q.push(("replication_throttle", t.to_string()));
        }
        if let Some(n) = e
            .concurrent_partition_movements_per_broker
            .filter(|n| *n > 0)
        {
            q.push(("concurrent_partition_movements_per_broker", n.to_string()));
        }
        if let Some(n) = e.concurrent_leader_movements.filter(|n| *n > 0) {
            q.push(("concurrent_leader_movements", n.to_string()));
        }
        if let Some(n) = e.max_partition_movements_in_cluster.filter(|n| *n > 0) {
            q.push(("max_partition_movements_in_cluster", n.to_string()));
        }
        if let Some(n) = e
            .concurrent_intra_broker_partition_movements
            .filter(|n| *n > 0)
        {
            q.push(("concurrent_intra_broker_partition_movements", n.to_string()));
        }
        if !e.replica_movement_strategies.is_empty() {
            q.push((
                "replica_movement_strategies",
                e.replica_movement_strategies.join(","),
            ));
        }
        if self.goals.exclude_recently_demoted_brokers {
            q.push(("exclude_recently_demoted_brokers", "true".into()));
        }
        q.push(("reason", self.reason.clone()));
        // Only what this endpoint accepts (Cruise Control answers 400 to anything else); the
        // command refuses options an endpoint cannot take before anything is sent.
        let ok = accepted(self.kind.endpoint());
        q.retain(|(k, _)| ok.contains(k));
        q.extend(self.extra.iter().cloned());
        q
    }
}

/// `GET /proposals`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProposalsRequest {
    pub goals: GoalOptions,
    pub destination_broker_ids: Vec<i32>,
    pub ignore_proposal_cache: bool,
    pub verbose: bool,
    pub reason: String,
}

impl ProposalsRequest {
    #[must_use]
    pub fn query(&self) -> Query {
        let mut q: Query = Vec::new();
        if !self.goals.goals.is_empty() {
            q.push(("goals", self.goals.goals.join(",")));
        } else if self.ignore_proposal_cache {
            q.push(("ignore_proposal_cache", "true".into()));
        }
        if let Some(t) = self
            .goals
            .excluded_topics
            .as_ref()
            .filter(|t| !t.is_empty())
        {
            q.push(("excluded_topics", t.clone()));
        }
        if !self.destination_broker_ids.is_empty() {
            q.push(("destination_broker_ids", join(&self.destination_broker_ids)));
        }
        if self.verbose {
            q.push(("verbose", "true".into()));
        }
        q.push(("reason", self.reason.clone()));
        q
    }
}

/// `POST /topic_configuration`: the query form (`topic` + `replication_factor`), or, when
/// `by_factor` is not empty, the JSON body form (reference §3.6, §13), which carries several
/// target factors in one request; `topic` and `replication_factor` are then not sent (Cruise
/// Control answers 400 to both forms at once).
#[derive(Debug, Clone, PartialEq)]
pub struct TopicConfigurationRequest {
    /// Full-match regular expression of topic names.
    pub topic: String,
    pub replication_factor: u16,
    /// Target factor -> full-match regex of topic names (body form).
    pub by_factor: std::collections::BTreeMap<u16, String>,
    pub skip_rack_awareness_check: bool,
    pub execution: ExecutionOptions,
    pub goals: GoalOptions,
    pub reason: String,
}

impl TopicConfigurationRequest {
    #[must_use]
    pub fn query(&self) -> Query {
        let mut q: Query = Vec::new();
        if self.by_factor.is_empty() {
            q.push(("topic", self.topic.clone()));
            q.push(("replication_factor", self.replication_factor.to_string()));
        }
        q.push(("dryrun", self.execution.dryrun.to_string()));
        // A dry run asks for the movements: a real Cruise Control's RF change also moves other
        // topics' leaders (reference section 14), and the preview names every topic it touches.
        // The execution is sent without it (its user task is matched by its query).
        if self.execution.dryrun {
            q.push(("verbose", "true".into()));
        }
        if self.skip_rack_awareness_check {
            q.push(("skip_rack_awareness_check", "true".into()));
        }
        if !self.goals.goals.is_empty() {
            q.push(("goals", self.goals.goals.join(",")));
        }
        if self.goals.skip_hard_goal_check {
            q.push(("skip_hard_goal_check", "true".into()));
        }
        let e = &self.execution;
        if let Some(t) = e.replication_throttle.filter(|t| *t > 0) {
            q.push(("replication_throttle", t.to_string()));
        }
        if let Some(n) = e
            .concurrent_partition_movements_per_broker
            .filter(|n| *n > 0)
        {
            q.push(("concurrent_partition_movements_per_broker", n.to_string()));
        }
        if let Some(n) = e.concurrent_leader_movements.filter(|n| *n > 0) {
            q.push(("concurrent_leader_movements", n.to_string()));
        }
        q.push(("reason", self.reason.clone()));
        q
    }

    /// The JSON body of the body form
    /// (`{"replication_factor":{"topic_by_replication_factor":{"2":"a|b","3":"c"}}}`), if used.
    #[must_use]
    pub fn body(&self) -> Option<String> {
        if self.by_factor.is_empty() {
            return None;
        }
        let groups: serde_json::Map<String, serde_json::Value> = self
            .by_factor
            .iter()
            .map(|(rf, re)| (rf.to_string(), serde_json::Value::String(re.clone())))
            .collect();
        Some(
            serde_json::json!({"replication_factor": {"topic_by_replication_factor": groups}})
                .to_string(),
        )
    }
}

/// `GET /state` substates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Substate {
    Executor,
    Analyzer,
    Monitor,
    AnomalyDetector,
}

impl Substate {
    pub const ALL: [Substate; 4] = [
        Substate::Executor,
        Substate::Analyzer,
        Substate::Monitor,
        Substate::AnomalyDetector,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Substate::Executor => "executor",
            Substate::Analyzer => "analyzer",
            Substate::Monitor => "monitor",
            Substate::AnomalyDetector => "anomaly_detector",
        }
    }
}

/// `GET /state`.
#[must_use]
pub fn state_query(substates: &[Substate], verbose: bool) -> Query {
    let mut q: Query = Vec::new();
    if !substates.is_empty() {
        q.push((
            "substates",
            substates
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(","),
        ));
    }
    if verbose {
        q.push(("verbose", "true".into()));
    }
    q
}

/// `GET /user_tasks` for some task ids, with the original responses of finished ones.
#[must_use]
pub fn user_tasks_query(ids: &[String], fetch_completed_task: bool) -> Query {
    let mut q: Query = Vec::new();
    if !ids.is_empty() {
        q.push(("user_task_ids", ids.join(",")));
    }
    q.push(("fetch_completed_task", fetch_completed_task.to_string()));
    q
}

/// `POST /stop_proposal_execution`.
#[must_use]
pub fn stop_query(reason: &str) -> Query {
    vec![("reason", reason.to_string())]
}

/// The endpoints whose request `rebalance pace --throttle` can re-submit: the proposal-and-execute
/// family that takes `replication_throttle` and answers with an optimization result.
/// (`topic_configuration` is left out: its body form is not part of the `RequestURL`.)
const REPLAYABLE: &[Endpoint] = &[
    Endpoint::Rebalance,
    Endpoint::AddBroker,
    Endpoint::RemoveBroker,
    Endpoint::DemoteBroker,
    Endpoint::RemoveDisks,
];

/// Parameters a re-submission sets itself instead of copying them from the original request.
const REPLAY_OWN: &[&str] = &[
    "json",
    "dryrun",
    "replication_throttle",
    "reason",
    "review_id",
    "stop_ongoing_execution",
    "verbose",
];

/// The request of a running execution (its user task's `RequestURL`) sent again with another
/// replication throttle: same endpoint, same parameters, `replication_throttle=throttle`,
/// `dryrun` as given and `verbose=true` (the drift guard compares per-partition movements).
/// `Err` (worded for people) when the URL is not a request kafkaops can re-submit faithfully:
/// another endpoint, or a parameter the endpoint does not accept.
pub fn replay_query(
    request_url: &str,
    throttle: u64,
    dryrun: bool,
    reason: &str,
) -> Result<(Endpoint, Query), String> {
    // Cruise Control writes `METHOD /path?query` (reference §6); accept a full URL too.
    let request_url = match request_url.split_once(' ') {
        Some((method, rest)) if method.chars().all(|c| c.is_ascii_uppercase()) => rest.trim(),
        _ => request_url.trim(),
    };
    if let Some((method, _)) = request_url.split_once(' ') {
        return Err(format!(
            "cannot read the request URL: unexpected {method:?}"
        ));
    }
    let url = url::Url::parse(request_url)
        .or_else(|_| url::Url::parse("http://cruise-control/").and_then(|b| b.join(request_url)))
        .map_err(|e| format!("cannot read the request URL {request_url:?}: {e}"))?;
    let last = url
        .path_segments()
        .and_then(|mut s| s.next_back())
        .unwrap_or_default()
        .to_string();
    let endpoint = REPLAYABLE
        .iter()
        .copied()
        .find(|e| e.path() == last)
        .ok_or_else(|| {
            format!(
                "the running execution was started by {last:?}, which kafkaops cannot re-submit"
            )
        })?;
    let ok = accepted(endpoint);
    let mut q: Query = Vec::new();
    for (k, v) in url.query_pairs() {
        if REPLAY_OWN.contains(&k.as_ref()) {
            continue;
        }
        let key = ok.iter().copied().find(|a| *a == k).ok_or_else(|| {
            format!(
                "the original request has the parameter {k:?}, which {endpoint} does not accept"
            )
        })?;
        q.push((key, v.into_owned()));
    }
    q.push(("dryrun", dryrun.to_string()));
    q.push(("replication_throttle", throttle.to_string()));
    if ok.contains(&"verbose") {
        q.push(("verbose", "true".into()));
    }
    q.push(("reason", reason.to_string()));
    Ok((endpoint, q))
}

/// A live change of the running execution's concurrency (`POST /admin`); `None` keeps a value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConcurrencyChange {
    /// `concurrent_partition_movements_per_broker`.
    pub partition_movements_per_broker: Option<u32>,
    /// `concurrent_leader_movements`.
    pub leader_movements: Option<u32>,
}

impl ConcurrencyChange {
    #[must_use]
    pub fn query(&self, reason: &str) -> Query {
        let mut q: Query = Vec::new();
        if let Some(n) = self.partition_movements_per_broker {
            q.push(("concurrent_partition_movements_per_broker", n.to_string()));
        }
        if let Some(n) = self.leader_movements {
            q.push(("concurrent_leader_movements", n.to_string()));
        }
        q.push(("reason", reason.to_string()));
        q
    }
}

/// `GET /kafka_cluster_state`.
#[must_use]
pub fn kafka_cluster_state_query(topic: Option<&str>, verbose: bool) -> Query {
    let mut q: Query = Vec::new();
    if let Some(t) = topic {
        q.push(("topic", t.to_string()));
    }
    if verbose {
        q.push(("verbose", "true".into()));
    }
    q
}

/// `GET /load` (current load).
#[must_use]
pub fn load_query(allow_capacity_estimation: bool) -> Query {
    vec![(
        "allow_capacity_estimation",
        allow_capacity_estimation.to_string(),
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_keeps_the_parameters_and_sets_the_throttle() {
        let (e, q) = replay_query(
            "http://cc:9090/kafkacruisecontrol/add_broker?brokerid=4&json=true&dryrun=false&replication_throttle=1024&reason=x&concurrent_partition_movements_per_broker=2",
            5_000_000,
            true,
            "again",
        )
        .unwrap();
        assert_eq!(e, Endpoint::AddBroker);
        assert_accepted(e, &q);
        assert!(q.contains(&("brokerid", "4".into())));
        assert!(q.contains(&("concurrent_partition_movements_per_broker", "2".into())));
        assert!(q.contains(&("replication_throttle", "5000000".into())));
        assert!(q.contains(&("dryrun", "true".into())));
        assert_eq!(
            q.iter()
                .filter(|(k, _)| *k == "replication_throttle")
                .count(),
            1
        );
        assert!(!q.iter().any(|(k, _)| *k == "json"));
        // Cruise Control's own form.
        let (e, q) = replay_query(
            "POST /kafkacruisecontrol/remove_broker?brokerid=2,3&dryrun=false&json=true",
            7,
            false,
            "r",
        )
        .unwrap();
        assert_eq!(e, Endpoint::RemoveBroker);
        assert!(q.contains(&("brokerid", "2,3".into())));
        assert!(q.contains(&("dryrun", "false".into())));
        assert!(replay_query("/kafkacruisecontrol/state?verbose=true", 1, true, "r").is_err());
        assert!(replay_query("/kafkacruisecontrol/rebalance?bogus=1", 1, true, "r").is_err());
    }

    fn assert_accepted(endpoint: Endpoint, q: &Query) {
        let ok = accepted(endpoint);
        for (k, _) in q {
            assert!(ok.contains(k), "{endpoint} does not accept {k}");
        }
    }

    fn full_goals() -> GoalOptions {
        GoalOptions {
            goals: vec!["RackAwareGoal".into(), "ReplicaCapacityGoal".into()],
            excluded_topics: Some("__.*".into()),
            skip_hard_goal_check: true,
            exclude_recently_demoted_brokers: true,
            destination_broker_ids: vec![1, 2],
            rebalance_disk: false,
        }
    }

    fn full_exec() -> ExecutionOptions {
        ExecutionOptions {
            dryrun: false,
            replication_throttle: Some(1000),
            concurrent_partition_movements_per_broker: Some(2),
            concurrent_leader_movements: Some(10),
            max_partition_movements_in_cluster: Some(7),
            concurrent_intra_broker_partition_movements: Some(3),
            replica_movement_strategies: vec!["PrioritizeSmallReplicaMovementStrategy".into()],
        }
    }

    #[test]
    fn every_builder_sends_only_accepted_names_and_a_reason_on_mutations() {
        for kind in [
            RebalanceKind::AddBrokers(vec![3, 4]),
            RebalanceKind::RemoveBrokers {
                brokers: vec![3],
                destinations: vec![1, 2],
            },
            RebalanceKind::Full,
            RebalanceKind::Demote(vec![2]),
            RebalanceKind::RemoveDisks(vec!["1-/data/a".into()]),
        ] {
            let r = RebalanceRequest {
                kind: kind.clone(),
                goals: full_goals(),
                execution: full_exec(),
                reason: "why".into(),
                verbose: true,
                review_id: None,
                extra: Vec::new(),
            };
            let q = r.query();
            assert_accepted(kind.endpoint(), &q);
            assert!(q.contains(&("reason", "why".into())));
            assert!(q.contains(&("dryrun", "false".into())));
        }
        let p = ProposalsRequest {
            goals: full_goals(),
            destination_broker_ids: vec![1],
            ignore_proposal_cache: true,
            verbose: true,
            reason: "r".into(),
        };
        let q = p.query();
        assert_accepted(Endpoint::Proposals, &q);
        // goals and ignore_proposal_cache together are a 400.
        assert!(!q.iter().any(|(k, _)| *k == "ignore_proposal_cache"));
        let t = TopicConfigurationRequest {
            topic: "a|b".into(),
            replication_factor: 3,
            by_factor: Default::default(),
            skip_rack_awareness_check: true,
            execution: full_exec(),
            goals: full_goals(),
            reason: "r".into(),
        };
        assert_accepted(Endpoint::TopicConfiguration, &t.query());
        assert_eq!(t.body(), None);
        // Body form: several factors in one request, never with topic/replication_factor.
        let mut b = t.clone();
        b.by_factor = [(2, r"a\.x|b".to_string()), (3, "c".to_string())].into();
        let q = b.query();
        assert_accepted(Endpoint::TopicConfiguration, &q);
        assert!(
            !q.iter()
                .any(|(k, _)| *k == "topic" || *k == "replication_factor")
        );
        let body: serde_json::Value = serde_json::from_str(&b.body().unwrap()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"replication_factor":{"topic_by_replication_factor":{"2":"a\\.x|b","3":"c"}}})
        );
        assert_accepted(Endpoint::State, &state_query(&Substate::ALL, true));
        assert_accepted(
            Endpoint::UserTasks,
            &user_tasks_query(&["a".into(), "b".into()], true),
        );
        assert_accepted(Endpoint::StopProposalExecution, &stop_query("r"));
        assert_accepted(
            Endpoint::KafkaClusterState,
            &kafka_cluster_state_query(Some("t"), true),
        );
        assert_accepted(Endpoint::Load, &load_query(true));
    }

    #[test]
    fn add_broker_never_gets_destinations_and_zero_values_are_omitted() {
        assert!(!accepted(Endpoint::AddBroker).contains(&"destination_broker_ids"));
        assert!(
            !accepted(Endpoint::AddBroker).contains(&"concurrent_intra_broker_partition_movements")
        );
        let r = RebalanceRequest {
            kind: RebalanceKind::AddBrokers(vec![4]),
            goals: GoalOptions::default(),
            execution: ExecutionOptions {
                dryrun: true,
                replication_throttle: Some(0),
                concurrent_partition_movements_per_broker: Some(0),
                concurrent_leader_movements: None,
                ..ExecutionOptions::default()
            },
            reason: "r".into(),
            verbose: false,
            review_id: None,
            extra: Vec::new(),
        };
        let names: Vec<_> = r.query().into_iter().map(|(k, _)| k).collect();
        assert_eq!(
            names,
            vec![
                "brokerid",
                "exclude_recently_removed_brokers",
                "dryrun",
                "reason"
            ]
        );
        assert_accepted(Endpoint::AddBroker, &r.query());
    }
}
