//! The goal-based requests (proposals, rebalance, add/remove/demote broker, remove disks): their
//! options and the one builder per endpoint that turns them into a query Cruise Control accepts.
//! They share goal and execution options, so they share a module; the simple queries stay in the
//! parent.

use super::{Endpoint, Query, accepted, join};

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
        let mut q = self.target_params();
        q.push(("dryrun", self.execution.dryrun.to_string()));
        if self.verbose {
            q.push(("verbose", "true".into()));
        }
        self.goals.push_params(&mut q);
        self.execution.push_params(&mut q);
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

    /// What the request is about: the brokers (or disks) it names, or for a full rebalance its
    /// destinations and whether it balances disks.
    fn target_params(&self) -> Query {
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
        q
    }
}

impl GoalOptions {
    /// The goals, the hard-goal check and the excluded topics, when set.
    fn push_params(&self, q: &mut Query) {
        if !self.goals.is_empty() {
            q.push(("goals", self.goals.join(",")));
        }
        if self.skip_hard_goal_check {
            q.push(("skip_hard_goal_check", "true".into()));
        }
        if let Some(t) = self.excluded_topics.as_ref().filter(|t| !t.is_empty()) {
            q.push(("excluded_topics", t.clone()));
        }
    }
}

impl ExecutionOptions {
    /// The throttle, concurrency limits and movement strategies, when set (zero means unset).
    fn push_params(&self, q: &mut Query) {
        let positive = [
            ("replication_throttle", self.replication_throttle),
            (
                "concurrent_partition_movements_per_broker",
                self.concurrent_partition_movements_per_broker
                    .map(u64::from),
            ),
            (
                "concurrent_leader_movements",
                self.concurrent_leader_movements.map(u64::from),
            ),
            (
                "max_partition_movements_in_cluster",
                self.max_partition_movements_in_cluster.map(u64::from),
            ),
            (
                "concurrent_intra_broker_partition_movements",
                self.concurrent_intra_broker_partition_movements
                    .map(u64::from),
            ),
        ];
        for (name, value) in positive {
            if let Some(v) = value.filter(|v| *v > 0) {
                q.push((name, v.to_string()));
            }
        }
        if !self.replica_movement_strategies.is_empty() {
            q.push((
                "replica_movement_strategies",
                self.replica_movement_strategies.join(","),
            ));
        }
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
