//! What a failed execution is said to be (#25 points 1 and 16). A real Cruise Control ends the
//! whole execution when Kafka refuses one move and reports the cause only in its log; what
//! kafkaops can still see (brokers that refuse moves because they are cordoned, what Kafka's
//! placement shows moved) is said instead of "some replicas may have moved".

use crate::app::placement::PlacementChange;

/// The message of an execution that ended with an error, or `None` when kafkaops knows nothing
/// more than the flow's own message (pure). `cordoned`: the brokers Kafka shows cordoned now;
/// `moved`: what Kafka's placement shows changed during the execution.
#[must_use]
pub fn failed_execution_message(
    task_id: Option<&str>,
    cordoned: &[i32],
    moved: Option<&PlacementChange>,
) -> Option<String> {
    if cordoned.is_empty() && moved.is_none() {
        return None;
    }
    let task = task_id.unwrap_or("-");
    let cause = if cordoned.is_empty() {
        String::new()
    } else {
        let list = cordoned
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        format!(
            ": Kafka refuses moves onto cordoned broker(s) {list} (all their log directories are cordoned), and Cruise Control stops the execution at the first refusal"
        )
    };
    let moved = match moved {
        Some(m) => format!(
            "Kafka shows {} partition(s) with moved replicas and {} with a new leader",
            m.partitions_moved, m.leaders_changed
        ),
        None => "some replicas may have moved".to_string(),
    };
    let next = if cordoned.is_empty() {
        "see `kafkaops rebalance status` and Cruise Control's log".to_string()
    } else {
        let list = cordoned
            .iter()
            .map(i32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        format!("uncordon them (`kafkaops broker uncordon --brokers {list}`) and run again")
    };
    Some(format!(
        "the execution (task {task}) ended with an error{cause}; {moved}; {next}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_by_a_cordoned_broker_is_named_with_what_moved() {
        let none = PlacementChange {
            partitions_moved: 0,
            leaders_changed: 0,
        };
        let m = failed_execution_message(Some("t1"), &[4], Some(&none)).unwrap();
        assert!(m.contains("task t1"), "{m}");
        assert!(m.contains("cordoned broker(s) 4"), "{m}");
        assert!(m.contains("0 partition(s) with moved replicas"), "{m}");
        assert!(!m.contains("may have moved"), "{m}");
        assert!(m.contains("broker uncordon --brokers 4"), "{m}");
        let m = failed_execution_message(Some("t1"), &[], None);
        assert!(m.is_none());
        let m = failed_execution_message(None, &[], Some(&none)).unwrap();
        assert!(m.contains("Cruise Control's log"), "{m}");
    }
}
