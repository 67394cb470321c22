//! Is the plan about to run the plan that was approved? (pure)
//!
//! Cruise Control has no "execute this proposal" call: an execution is a second request that
//! recomputes the proposal from the cluster as it is then (reference §3.3). Between the dry run
//! the operator read and the execution, partitions may have moved, topics may have been created,
//! the load model may have changed, so the execution can move other replicas, other leaders, more
//! data, or touch brokers the approved plan never touched.
//!
//! kafkaops therefore never sends the execution blind. After the approval it asks for the proposal
//! once more as a **dry run** (nothing moves), compares it with the approved one here, and only
//! when the difference is within the tolerance sends the execution request. Past the tolerance
//! nothing has moved: an operator at a terminal is shown the new proposal and asked again, `--yes`
//! with a plan approved beforehand (`--approved-plan`) refuses. (`--yes` alone has no approved
//! plan: its dry run was computed a moment earlier and seen by nobody, so it is not re-checked;
//! the execution's own answer is still compared and reported.) (Checking the execution's own answer instead would come too late: a 200 to
//! `dryrun=false` means the replicas are already moving.) The window left between the re-check
//! and the execution request is one round trip instead of the minutes a person reads a proposal.
//!
//! What is compared, from each proposal ([`Plan`]):
//! - the replica movements: a partition counts as changed when it moves in one plan only, or
//!   moves to another replica list. With per-partition movements (`verbose=true`, which kafkaops
//!   always asks for) the share of changed partitions is the drift; without them, the relative
//!   difference of the movement counts;
//! - the leader movements (relative difference of the counts);
//! - the data to move (relative difference, and the absolute difference against `max_data_mb`);
//! - the brokers involved: a broker that gains or loses replicas in the new plan but not in the
//!   approved one is always drift, whatever the percentages (an operator who approved "move onto
//!   broker 4" did not approve touching broker 2).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// One partition's replica movement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    pub topic: String,
    pub partition: i32,
    pub old_replicas: Vec<i32>,
    pub new_replicas: Vec<i32>,
}

/// What a proposal would do, as far as the comparison cares (inter- and intra-broker together).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub replica_movements: u64,
    pub leader_movements: u64,
    pub data_to_move_mb: f64,
    /// Per-partition movements (empty when Cruise Control sent none).
    pub movements: Vec<Movement>,
}

impl Plan {
    /// Brokers that gain or lose a replica, or whose replica order changes.
    #[must_use]
    pub fn brokers_involved(&self) -> BTreeSet<i32> {
        let mut out = BTreeSet::new();
        for m in &self.movements {
            let old: BTreeSet<i32> = m.old_replicas.iter().copied().collect();
            let new: BTreeSet<i32> = m.new_replicas.iter().copied().collect();
            out.extend(old.symmetric_difference(&new).copied());
            // A leadership change involves the old and the new leader.
            if m.old_replicas.first() != m.new_replicas.first() {
                out.extend(m.old_replicas.first().copied());
                out.extend(m.new_replicas.first().copied());
            }
        }
        out
    }

    fn by_partition(&self) -> BTreeMap<(&str, i32), &Movement> {
        self.movements
            .iter()
            .map(|m| ((m.topic.as_str(), m.partition), m))
            .collect()
    }
}

/// What a stopped execution still had to do: the movements of `original` whose partition is not
/// yet on its target replicas in `current` (partition -> replicas as Kafka reports them now),
/// each starting from where the partition is now. `None` when `original` has no per-partition
/// movements (nothing to tell done from not done: the caller compares with `original` itself).
///
/// A partition counts as done when it holds exactly the target replicas, order aside; its
/// leadership (the first replica) is Cruise Control's last step and is not looked at. A
/// partition missing from `current` (topic deleted since) is dropped. The data to move and the
/// leader movements shrink in proportion to the replica movements left (Cruise Control reports
/// neither per partition).
#[must_use]
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::implicit_hasher
)]
pub fn remaining(original: &Plan, current: &BTreeMap<(String, i32), Vec<i32>>) -> Option<Plan> {
    if original.movements.is_empty() {
        return None;
    }
    let movements: Vec<Movement> = original
        .movements
        .iter()
        .filter_map(|m| {
            let now = current.get(&(m.topic.clone(), m.partition))?;
            let now_set: BTreeSet<i32> = now.iter().copied().collect();
            let target: BTreeSet<i32> = m.new_replicas.iter().copied().collect();
            (now_set != target).then(|| Movement {
                topic: m.topic.clone(),
                partition: m.partition,
                old_replicas: now.clone(),
                new_replicas: m.new_replicas.clone(),
            })
        })
        .collect();
    let share = movements.len() as f64 / original.movements.len() as f64;
    Some(Plan {
        replica_movements: (original.replica_movements as f64 * share).round() as u64,
        leader_movements: original.leader_movements,
        data_to_move_mb: original.data_to_move_mb * share,
        movements,
    })
}

/// How far an execution may differ from the approved plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Largest drift, in percent (of changed movements, of leader movements, of data).
    pub max_drift_pct: u32,
    /// Largest absolute difference of the data to move, in MB (`None`: no absolute cap).
    pub max_data_mb: Option<u64>,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            max_drift_pct: 10,
            max_data_mb: None,
        }
    }
}

/// The comparison of the approved plan with the one about to run.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DriftReport {
    /// Whether the new plan may run in place of the approved one.
    pub within_tolerance: bool,
    /// Partitions moving in one plan only or to another replica list.
    pub changed_movements: u64,
    /// Share of changed replica movements, in percent.
    pub replica_drift_pct: f64,
    /// Relative difference of the leader movements, in percent.
    pub leader_drift_pct: f64,
    /// Relative difference of the data to move, in percent.
    pub data_drift_pct: f64,
    /// Data to move: new minus approved, in MB.
    pub data_delta_mb: f64,
    /// Brokers the new plan touches and the approved one did not.
    pub added_brokers: Vec<i32>,
    /// Brokers the approved plan touched and the new one does not.
    pub dropped_brokers: Vec<i32>,
    /// Why it is past the tolerance, worded for people (empty when within).
    pub reasons: Vec<String>,
}

/// Relative difference of two counts in percent (0 when both are 0; 100 when one is 0).
fn rel_pct(a: f64, b: f64) -> f64 {
    let base = a.abs().max(b.abs());
    if base == 0.0 {
        0.0
    } else {
        (a - b).abs() / base * 100.0
    }
}

/// Compares the approved plan with the new one.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn compare(approved: &Plan, new: &Plan, tol: &Tolerance) -> DriftReport {
    let (changed, replica_drift_pct) = replica_drift(approved, new);
    let leader_drift_pct = rel_pct(
        approved.leader_movements as f64,
        new.leader_movements as f64,
    );
    let data_drift_pct = rel_pct(approved.data_to_move_mb, new.data_to_move_mb);
    let data_delta_mb = new.data_to_move_mb - approved.data_to_move_mb;
    let (ba, bb) = (approved.brokers_involved(), new.brokers_involved());
    let added_brokers: Vec<i32> = bb.difference(&ba).copied().collect();
    let dropped_brokers: Vec<i32> = ba.difference(&bb).copied().collect();

    let max = f64::from(tol.max_drift_pct);
    let mut reasons = Vec::new();
    if replica_drift_pct > max {
        reasons.push(format!(
            "{replica_drift_pct:.0}% of the replica movements changed ({changed} partition(s); {} -> {} movements; tolerance {}%)",
            approved.replica_movements, new.replica_movements, tol.max_drift_pct
        ));
    }
    if leader_drift_pct > max {
        reasons.push(format!(
            "leader movements changed by {leader_drift_pct:.0}% ({} -> {}; tolerance {}%)",
            approved.leader_movements, new.leader_movements, tol.max_drift_pct
        ));
    }
    if data_drift_pct > max {
        reasons.push(format!(
            "data to move changed by {data_drift_pct:.0}% ({:.0} -> {:.0} MB; tolerance {}%)",
            approved.data_to_move_mb, new.data_to_move_mb, tol.max_drift_pct
        ));
    }
    if let Some(cap) = tol.max_data_mb
        && data_delta_mb.abs() > cap as f64
    {
        reasons.push(format!(
            "data to move differs by {:.0} MB (cap {cap} MB)",
            data_delta_mb.abs()
        ));
    }
    if !added_brokers.is_empty() {
        reasons.push(format!(
            "it involves broker(s) {} that the approved plan did not touch",
            added_brokers
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    DriftReport {
        within_tolerance: reasons.is_empty(),
        changed_movements: changed,
        replica_drift_pct,
        leader_drift_pct,
        data_drift_pct,
        data_delta_mb,
        added_brokers,
        dropped_brokers,
        reasons,
    }
}

/// How many partitions' movements differ between the plans (a partition in one plan only
/// counts), and that as a share of the partitions either plan moves; with no per-partition
/// movements, the relative change of the movement counts.
fn replica_drift(approved: &Plan, new: &Plan) -> (u64, f64) {
    let (a, b) = (approved.by_partition(), new.by_partition());
    let keys: BTreeSet<(&str, i32)> = a.keys().chain(b.keys()).copied().collect();
    let changed = keys
        .iter()
        .filter(|k| match (a.get(*k), b.get(*k)) {
            (Some(x), Some(y)) => {
                x.new_replicas != y.new_replicas || x.old_replicas != y.old_replicas
            }
            _ => true,
        })
        .count() as u64;
    let pct = if keys.is_empty() {
        // No per-partition movements: compare the counts.
        rel_pct(
            approved.replica_movements as f64,
            new.replica_movements as f64,
        )
    } else {
        changed as f64 / keys.len() as f64 * 100.0
    };
    (changed, pct)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(topic: &str, p: i32, old: &[i32], new: &[i32]) -> Movement {
        Movement {
            topic: topic.into(),
            partition: p,
            old_replicas: old.to_vec(),
            new_replicas: new.to_vec(),
        }
    }

    fn plan(movements: Vec<Movement>, leaders: u64, data: f64) -> Plan {
        Plan {
            replica_movements: movements.len() as u64,
            leader_movements: leaders,
            data_to_move_mb: data,
            movements,
        }
    }

    #[test]
    fn what_remains_of_a_stopped_plan_starts_where_the_partitions_are_now() {
        let a = plan(
            vec![mv("a", 0, &[1, 2], &[4, 2]), mv("a", 1, &[1, 2], &[4, 1])],
            1,
            100.0,
        );
        let mut now = BTreeMap::new();
        now.insert(("a".to_string(), 0), vec![2, 4]); // done (order aside)
        now.insert(("a".to_string(), 1), vec![2, 1]); // not yet
        let r = remaining(&a, &now).unwrap();
        assert_eq!(r.movements, vec![mv("a", 1, &[2, 1], &[4, 1])]);
        assert_eq!(r.replica_movements, 1);
        assert!((r.data_to_move_mb - 50.0).abs() < 1e-9);
        assert!(remaining(&plan(vec![], 0, 1.0), &now).is_none());
    }

    #[test]
    fn the_same_plan_is_within_any_tolerance() {
        let p = plan(vec![mv("a", 0, &[1, 2], &[4, 2])], 1, 10.0);
        let tol = Tolerance {
            max_drift_pct: 0,
            max_data_mb: Some(0),
        };
        let r = compare(&p, &p, &tol);
        assert!(r.within_tolerance, "{r:?}");
        assert_eq!(r.changed_movements, 0);
    }

    #[test]
    fn another_destination_is_a_changed_movement_and_a_new_broker() {
        let a = plan(vec![mv("a", 0, &[1, 2], &[4, 2])], 0, 10.0);
        let b = plan(vec![mv("a", 0, &[1, 2], &[3, 2])], 0, 10.0);
        let r = compare(&a, &b, &Tolerance::default());
        assert!(!r.within_tolerance);
        assert_eq!(r.changed_movements, 1);
        assert_eq!(r.added_brokers, vec![3]);
        assert_eq!(r.dropped_brokers, vec![4]);
    }

    #[test]
    fn fewer_movements_past_the_tolerance_are_drift() {
        let moves: Vec<Movement> = (0..10).map(|p| mv("a", p, &[1, 2], &[4, 2])).collect();
        let a = plan(moves.clone(), 0, 100.0);
        let b = plan(moves[..5].to_vec(), 0, 50.0);
        let r = compare(&a, &b, &Tolerance::default());
        assert!(!r.within_tolerance);
        assert!((r.replica_drift_pct - 50.0).abs() < 1e-9);
        // One partition less in ten is 10%: within the default tolerance.
        let b = plan(moves[..9].to_vec(), 0, 90.0);
        assert!(compare(&a, &b, &Tolerance::default()).within_tolerance);
    }

    #[test]
    fn the_absolute_data_cap_applies_on_its_own() {
        let a = plan(vec![], 0, 1000.0);
        let b = plan(vec![], 0, 1050.0);
        assert!(compare(&a, &b, &Tolerance::default()).within_tolerance);
        let tol = Tolerance {
            max_drift_pct: 10,
            max_data_mb: Some(20),
        };
        let r = compare(&a, &b, &tol);
        assert!(!r.within_tolerance);
        assert!(r.reasons[0].contains("50 MB"), "{:?}", r.reasons);
    }
}
