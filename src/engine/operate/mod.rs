//! The `operate` controller's decisions, pure: one observation of the cluster, the policy and
//! the saved state in; what to do (and what waits, and why) out.
//!
//! `operate` runs the other subcommands' logic unattended, so the hard part is not any single
//! action but the coordination between them (issue #13, design `OPERATE_DESIGN.md`):
//!
//! - **Never two movers.** At most one thing moves data at a time: our Cruise Control execution,
//!   anyone's execution (the executor is not idle), reassignments someone else started. While one
//!   runs, every other wish waits and says what it waits for.
//! - **Order.** Scale-down before scale-up before imbalance: the requests are fed to the seed's
//!   state machine ([`AutoRebalancer`](crate::engine::rebalance::AutoRebalancer)) in precedence order each loop, and it keeps the queue.
//!   A scale-down requested while a scale-up runs stops the scale-up (the seed's preemption).
//! - **Scale-up with grace.** A registered broker outside the drain set that holds no replica
//!   for the policy's grace period is a scale-up. A drained broker (0 replicas, in the drain
//!   set) is never a scale-up.
//! - **Modes absent from the policy never start.**
//! - **Restart and failover.** The state is saved by the shell before the execution request is
//!   sent (`requested_at`, no task id yet) and again once Cruise Control answered. A state read
//!   back with the request in flight ([`Phase::Starting`](crate::engine::cc_flow::Phase::Starting)) is resolved from Cruise Control's
//!   `user_tasks`: the non-dry-run task of the same endpoint listed with exactly the parameters
//!   saved with the request (its `reason` carries a tag of its own; clocks are not compared) is
//!   attached to ([`CcFlow::attach`](crate::engine::cc_flow::CcFlow::attach)), so a new leader never sends a second execution request.
//! - **Safe to stop.** A drained broker is said safe to stop ([`Decision::safe_to_stop`]) only
//!   when nothing may put a replica on it: no reassignment in flight involves it, and nothing
//!   that runs may target it (requests sent while brokers are on the drain list name the other
//!   brokers as their only destinations; a replication-factor round cannot, so none may run;
//!   nor anyone else's execution). A drain set that would leave too few brokers is refused.
//!
//! Requests are re-derived from the observation every loop (a broker that still holds
//! replicas is still to be drained), so a rebalance that failed or was refused is retried on a
//! later loop, and the state stays small: the machine, the running mover, and when each broker
//! was first seen empty. Nothing here does IO or reads a clock; `now` is part of the
//! [`Observation`] (epoch ms).

mod decide;
mod decision;
mod machine;
mod observation;
mod plan;
mod running;
mod safety;
mod start;
mod state;
mod tasks;
#[cfg(test)]
mod tests;
mod unsent;

pub use decide::decide;
pub use decision::{
    Act, Decision, Record, RecordResult, describe_outcome, endpoint_of, kind_of, status_name,
    target_of,
};
pub use observation::{CcView, KafkaView, Observation, OperatePolicy, RollWish};
pub use plan::plan_ahead;
pub use state::{
    Mover, OperateState, RunningRebalance, RunningReplicationFactors, RunningRoll, STATE_VERSION,
};
pub use tasks::{CLOCK_SKEW_MS, RequestParams, RequestView, find_our_task, request_of};
