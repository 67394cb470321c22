//! `rebalance remove`: a scale-down is only done when the leaving brokers are empty.
//!
//! Cruise Control's `remove_broker` moves the replicas it knew of when it computed the proposal.
//! A proposal can leave some behind (excluded topics still move per the reference, but a goal may
//! fail to place them), and topics created while it executes can land on the leaving brokers
//! (Kafka places new partitions on any live broker; Strimzi's proposal names the same gap). So:
//! - the dry run warns when the proposal's load after optimization still counts replicas on a
//!   leaving broker (`left_in_proposal` in the CLI's hooks, pure);
//! - after a completed execution the leaving brokers are checked against the Kafka metadata
//!   itself ([`left_on_brokers`], pure, over DescribeTopics); replicas still there fail the
//!   command with exit 11, naming them;
//! - a completed removal warns that topics created from now on may still land there.

use std::collections::BTreeMap;

use crate::app::cordon::KafkaAccess;
use crate::kafka::KafkaAdmin;
use crate::kafka::ffi::TopicDescription;

/// The partitions (`topic-partition`) that still have a replica on each leaving broker (pure).
#[must_use]
pub fn left_on_brokers(topics: &[TopicDescription], leaving: &[i32]) -> BTreeMap<i32, Vec<String>> {
    let mut out: BTreeMap<i32, Vec<String>> = BTreeMap::new();
    for t in topics {
        for p in &t.partitions {
            for b in leaving {
                if p.replicas.contains(b) {
                    out.entry(*b)
                        .or_default()
                        .push(format!("{}-{}", t.name, p.partition));
                }
            }
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

/// The exit-11 message for what is left (pure).
#[must_use]
pub fn left_message(left: &BTreeMap<i32, Vec<String>>) -> String {
    let parts: Vec<String> = left
        .iter()
        .map(|(b, ps)| {
            let shown: Vec<&str> = ps.iter().take(10).map(String::as_str).collect();
            let more = if ps.len() > 10 {
                format!(" and {} more", ps.len() - 10)
            } else {
                String::new()
            };
            format!(
                "broker {b} still holds {} replica(s): {}{more}",
                ps.len(),
                shown.join(", ")
            )
        })
        .collect();
    format!(
        "the removal finished but the leaving brokers are not empty according to the Kafka metadata: {}. Do not shut them down: run `kafkaops rebalance remove` again (topics created meanwhile land on any live broker)",
        parts.join("; ")
    )
}

/// After a completed removal: the replicas the leaving brokers still hold, from the Kafka
/// metadata itself. `Ok(None)`: not checked (no Kafka bootstrap servers configured);
/// `Ok(Some(left))`: checked, empty when they hold nothing.
///
/// # Errors
/// Kafka cannot be reached or its topics cannot be described.
pub async fn left_after_removal(
    k: KafkaAccess<'_>,
    leaving: &[i32],
) -> anyhow::Result<Option<BTreeMap<i32, Vec<String>>>> {
    if k.settings.bootstrap_servers.is_none() {
        return Ok(None);
    }
    let kafka = crate::app::clients::kafka(
        k.settings,
        k.request_timeout,
        Some("cannot connect to the Kafka cluster to check the leaving brokers"),
    )
    .await?;
    let names = kafka.list_topics().await?;
    let topics = kafka.describe_topics(names).await?;
    Ok(Some(left_on_brokers(&topics, leaving)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::client::fixtures::topic;

    #[test]
    fn replicas_left_on_leaving_brokers_are_named() {
        let topics = [topic("a", &[&[1, 2], &[4, 1]]), topic("late", &[&[4, 5]])];
        let left = left_on_brokers(&topics, &[4, 5]);
        assert_eq!(left[&4], vec!["a-1".to_string(), "late-0".to_string()]);
        assert_eq!(left[&5], vec!["late-0".to_string()]);
        assert!(left_on_brokers(&topics, &[3]).is_empty());
        let msg = left_message(&left);
        assert!(
            msg.contains("broker 4 still holds 2 replica(s): a-1, late-0"),
            "{msg}"
        );
    }
}
