//! Query parameters per endpoint.
//!
//! Cruise Control answers 400 to any parameter name an endpoint does not accept
//! (reference §1), so each endpoint has its own builder that can only produce the
//! names it accepts; [`accepted`] lists them and a unit test checks every builder
//! against it. `json=true` is added to every request by the client, and mutating
//! builders always carry `reason`.

mod accepted;
mod rebalance;

pub use accepted::accepted;
pub use rebalance::{
    ExecutionOptions, GoalOptions, ProposalsRequest, RebalanceKind, RebalanceRequest,
};

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

/// A query: ordered name/value pairs.
pub type Query = Vec<(&'static str, String)>;

fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
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
mod tests;
