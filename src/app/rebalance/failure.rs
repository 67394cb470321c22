//! What a failed execution is said to be (#25 points 1 and 16). A real Cruise Control ends the
//! whole execution when Kafka refuses one move or a new replica is down ("dead tasks") and
//! reports the cause only in its log; the task just ends `CompletedWithError`. So what kafkaops
//! can still see is said instead of "some replicas may have moved": what Cruise Control's task
//! and executor showed, brokers that refuse moves (cordoned) or are down, how far the proposal
//! got in Kafka, the reassignments still in flight, the throttles left behind, and what to do.

use crate::app::placement::{PlacementChange, ProposalDone};
use crate::engine::throttles::Throttle;
use crate::engine::view::Reassignment;

/// What kafkaops could see of a failed execution (each `None`: could not be read).
#[derive(Debug, Clone, Default)]
pub struct FailedExecution<'a> {
    pub task_id: Option<&'a str>,
    /// Cruise Control's executor was seen in `STOPPING_EXECUTION` though nobody asked it to stop:
    /// it stopped the execution itself.
    pub stopped_by_cruise_control: bool,
    /// The brokers Kafka shows cordoned now.
    pub cordoned: &'a [i32],
    /// The proposal's destination brokers that Kafka does not show alive now.
    pub down_destinations: &'a [i32],
    /// What Kafka's placement shows changed during the execution.
    pub moved: Option<&'a PlacementChange>,
    /// How far the executed proposal got, as Kafka shows it.
    pub done: Option<ProposalDone>,
    /// Reassignments still in flight in Kafka.
    pub in_flight: Option<&'a [Reassignment]>,
    /// Replication throttles set on the cluster now.
    pub throttles: Option<&'a [Throttle]>,
}

fn ids(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// How many partitions a message lists by name before counting the rest.
const LISTED: usize = 5;

/// The message of an execution that ended with an error, or `None` when kafkaops knows nothing
/// more than the flow's own message (pure).
#[must_use]
pub fn failed_execution_message(f: &FailedExecution<'_>) -> Option<String> {
    if f.cordoned.is_empty()
        && f.moved.is_none()
        && f.done.is_none()
        && f.in_flight.is_none()
        && f.throttles.is_none()
        && !f.stopped_by_cruise_control
    {
        return None;
    }
    let task = f.task_id.unwrap_or("-");
    let mut out = format!("the execution (task {task}) ended with an error");
    // What Cruise Control said: the task ended CompletedWithError; its executor stopped.
    out.push_str(if f.stopped_by_cruise_control {
        ": Cruise Control stopped it itself (its task ended CompletedWithError after its executor went to STOPPING_EXECUTION without a stop request, which it does when moves die: a reassignment Kafka refused or a new replica that is down, \"dead tasks\" in its log)"
    } else {
        ": Cruise Control's task ended CompletedWithError without a stop request (the cause is in Cruise Control's log)"
    });
    if !f.cordoned.is_empty() {
        out.push_str(&format!(
            "; Kafka refuses moves onto cordoned broker(s) {} (all their log directories are cordoned), and Cruise Control stops the execution at the first refusal",
            ids(f.cordoned)
        ));
    }
    if !f.down_destinations.is_empty() {
        out.push_str(&format!(
            "; the proposal moves replicas onto broker(s) {} that Kafka does not show alive (\"new replica is down\")",
            ids(f.down_destinations)
        ));
    }
    out.push_str(&how_far(f));
    out.push_str(&left_behind(f));
    out.push_str(&format!(
        "; next: {}, then run the same command again (Cruise Control proposes again from where Kafka is now)",
        next_steps(f).join(", then ")
    ));
    Some(out)
}

/// How far the proposal got, as Kafka shows it.
fn how_far(f: &FailedExecution<'_>) -> String {
    match (f.done, f.moved) {
        (Some(d), moved) => {
            let mut out = format!(
                "; Kafka shows {}/{} partition movement(s) of the proposal done",
                d.done, d.movements
            );
            if let Some(m) = moved {
                out.push_str(&format!(
                    " ({} partition(s) with moved replicas and {} with a new leader since the start)",
                    m.partitions_moved, m.leaders_changed
                ));
            }
            out
        }
        (None, Some(m)) => format!(
            "; Kafka shows {} partition(s) with moved replicas and {} with a new leader",
            m.partitions_moved, m.leaders_changed
        ),
        (None, None) => "; some replicas may have moved".to_string(),
    }
}

/// The reassignments still in flight and the throttles left behind (when they could be read).
fn left_behind(f: &FailedExecution<'_>) -> String {
    let mut out = String::new();
    match f.in_flight {
        Some([]) => out.push_str("; no reassignment is still in flight"),
        Some(r) => {
            let mut names: Vec<String> = r
                .iter()
                .take(LISTED)
                .map(|r| format!("{}-{}", r.topic, r.partition))
                .collect();
            if r.len() > LISTED {
                names.push(format!("and {} more", r.len() - LISTED));
            }
            out.push_str(&format!(
                "; {} reassignment(s) still in flight: {}",
                r.len(),
                names.join(", ")
            ));
        }
        None => {}
    }
    match f.throttles {
        Some([]) => out.push_str("; no replication throttle was left behind"),
        Some(t) => {
            let mut targets: Vec<String> = t
                .iter()
                .map(|t| format!("{} {}", t.target, t.key))
                .collect();
            targets.dedup();
            out.push_str(&format!(
                "; replication throttle(s) left behind: {}",
                targets.join(", ")
            ));
        }
        None => {}
    }
    out
}

/// What to do next, most urgent first.
fn next_steps(f: &FailedExecution<'_>) -> Vec<String> {
    let mut next = Vec::new();
    if !f.cordoned.is_empty() {
        next.push(format!(
            "uncordon them (`kafkaops broker uncordon --brokers {}`)",
            ids(f.cordoned)
        ));
    }
    if !f.down_destinations.is_empty() {
        next.push(format!(
            "bring broker(s) {} back (or leave them out)",
            ids(f.down_destinations)
        ));
    }
    if f.in_flight.is_some_and(|r| !r.is_empty()) {
        next.push(
            "let the reassignments in flight finish (`kafkaops reassignments list`) or cancel them (`kafkaops reassignments cancel`)"
                .into(),
        );
    }
    if f.throttles.is_some_and(|t| !t.is_empty()) {
        next.push("remove the throttles (`kafkaops throttles clear`)".into());
    }
    if next.is_empty() {
        next.push("see `kafkaops rebalance status` and Cruise Control's log".into());
    }
    next
}

/// What Kafka shows after a failed execution (best effort; each `None`: could not be read, or
/// no Kafka connection is configured).
#[derive(Debug, Clone, Default)]
pub struct KafkaAfterFailure {
    pub cordoned: Vec<i32>,
    /// The brokers Kafka shows registered now.
    pub alive: Option<Vec<i32>>,
    pub in_flight: Option<Vec<Reassignment>>,
    pub throttles: Option<Vec<Throttle>>,
}

/// Reads what [`failed_execution_message`] needs from Kafka.
pub async fn read_kafka(k: crate::app::cordon::KafkaAccess<'_>) -> KafkaAfterFailure {
    use crate::kafka::KafkaAdmin;
    let mut out = KafkaAfterFailure {
        cordoned: crate::app::cordon::cordoned_brokers(k)
            .await
            .unwrap_or_default(),
        ..KafkaAfterFailure::default()
    };
    if k.settings.bootstrap_servers.is_none() {
        return out;
    }
    let Ok(kafka) = crate::app::cordon::kafka(k).await else {
        return out;
    };
    out.alive = kafka
        .describe_cluster()
        .await
        .ok()
        .map(|c| c.nodes.iter().map(|n| n.id).collect());
    out.in_flight = kafka.list_reassignments().await.ok();
    out.throttles = crate::app::throttles::read(&kafka).await.ok();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::throttles::ThrottleTarget;

    #[test]
    fn a_refusal_by_a_cordoned_broker_is_named_with_what_moved() {
        let none = PlacementChange {
            partitions_moved: 0,
            leaders_changed: 0,
        };
        let m = failed_execution_message(&FailedExecution {
            task_id: Some("t1"),
            cordoned: &[4],
            moved: Some(&none),
            ..FailedExecution::default()
        })
        .unwrap();
        assert!(m.contains("task t1"), "{m}");
        assert!(m.contains("cordoned broker(s) 4"), "{m}");
        assert!(m.contains("0 partition(s) with moved replicas"), "{m}");
        assert!(!m.contains("may have moved"), "{m}");
        assert!(m.contains("broker uncordon --brokers 4"), "{m}");
        let m = failed_execution_message(&FailedExecution {
            task_id: Some("t1"),
            ..FailedExecution::default()
        });
        assert!(m.is_none());
        let m = failed_execution_message(&FailedExecution {
            moved: Some(&none),
            ..FailedExecution::default()
        })
        .unwrap();
        assert!(m.contains("Cruise Control's log"), "{m}");
    }

    #[test]
    fn an_execution_cruise_control_killed_says_what_is_left_and_what_to_do() {
        let in_flight = [Reassignment {
            topic: "orders".into(),
            partition: 3,
            replicas: vec![1, 2, 3],
            adding: vec![3],
            removing: vec![1],
        }];
        let throttles = [Throttle {
            target: ThrottleTarget::Broker(2),
            key: "leader.replication.throttled.rate".into(),
            value: "1000".into(),
        }];
        let m = failed_execution_message(&FailedExecution {
            task_id: Some("t2"),
            stopped_by_cruise_control: true,
            down_destinations: &[3],
            done: Some(ProposalDone {
                movements: 10,
                done: 4,
                reorders: 0,
            }),
            in_flight: Some(&in_flight),
            throttles: Some(&throttles),
            ..FailedExecution::default()
        })
        .unwrap();
        for part in [
            "Cruise Control stopped it itself",
            "dead tasks",
            "broker(s) 3 that Kafka does not show alive",
            "4/10 partition movement(s) of the proposal done",
            "1 reassignment(s) still in flight: orders-3",
            "throttle(s) left behind: broker 2 leader.replication.throttled.rate",
            "bring broker(s) 3 back",
            "kafkaops reassignments cancel",
            "kafkaops throttles clear",
        ] {
            assert!(m.contains(part), "{part}: {m}");
        }
        let m = failed_execution_message(&FailedExecution {
            in_flight: Some(&[]),
            throttles: Some(&[]),
            ..FailedExecution::default()
        })
        .unwrap();
        assert!(
            m.contains("no reassignment is still in flight")
                && m.contains("no replication throttle was left behind"),
            "{m}"
        );
    }
}
