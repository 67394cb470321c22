//! The partition rules of the health verdict: offline, under min ISR, under-replicated, and
//! partitions whose `min.insync.replicas` could not be read, one reason per kind and topic.

use std::collections::BTreeMap;

use super::{HealthFacts, PartitionFacts, Reason, ids, list, reason};

/// The condition of one partition that makes a reason, if any (the worst: offline, then
/// under min ISR, then under-replicated; replicas still being added do not count as missing).
fn partition_kind(p: &PartitionFacts) -> Option<&'static str> {
    if p.leader.is_none() {
        Some("offline-partitions")
    } else if p
        .min_isr
        .is_some_and(|m| u32::try_from(p.isr.len()).unwrap_or(u32::MAX) < m)
    {
        Some("under-min-isr")
    } else if p
        .replicas
        .iter()
        .filter(|r| !p.adding.contains(r))
        .any(|r| !p.isr.contains(r))
    {
        Some("under-replicated")
    } else {
        None
    }
}

/// One partition for a reason: its replicas, ISR and min ISR.
fn partition_detail(p: &PartitionFacts) -> String {
    format!(
        "{}-{} (replicas {}, isr {}{})",
        p.topic,
        p.partition,
        ids(&p.replicas),
        ids(&p.isr),
        p.min_isr
            .map(|m| format!(", min ISR {m}"))
            .unwrap_or_default()
    )
}

/// The message of a partition reason of `kind` for `parts` of `topic`.
fn partition_message(kind: &str, topic: &str, parts: &[&PartitionFacts]) -> String {
    let details: Vec<String> = parts.iter().map(|p| partition_detail(p)).collect();
    match kind {
        "offline-partitions" => format!(
            "{} partition(s) of topic {topic} have no leader: {}",
            parts.len(),
            list(&details)
        ),
        "under-min-isr" => format!(
            "{} partition(s) of topic {topic} have fewer in-sync replicas than \
             min.insync.replicas (acks=all writes fail): {}",
            parts.len(),
            list(&details)
        ),
        "under-replicated" => format!(
            "{} partition(s) of topic {topic} are under-replicated: {}",
            parts.len(),
            list(&details)
        ),
        _ => format!(
            "min.insync.replicas of topic {topic} could not be read: under-min-ISR \
             cannot be judged for {} partition(s)",
            parts.len()
        ),
    }
}

/// Partition reasons, one per (kind, topic).
pub(super) fn partition_reasons(f: &HealthFacts, out: &mut Vec<Reason>) {
    // kind -> topic -> partitions
    let mut by: BTreeMap<&'static str, BTreeMap<&str, Vec<&PartitionFacts>>> = BTreeMap::new();
    for p in &f.partitions {
        let unknown_min_isr = p.min_isr.is_none().then_some("min-isr-unknown");
        for k in partition_kind(p).into_iter().chain(unknown_min_isr) {
            by.entry(k)
                .or_default()
                .entry(&p.topic)
                .or_default()
                .push(p);
        }
    }
    for (kind, topics) in by {
        for (topic, parts) in topics {
            let mut r = reason(
                kind,
                Some(topic.to_string()),
                partition_message(kind, topic, &parts),
            );
            r.partitions = parts
                .iter()
                .map(|p| format!("{}-{}", p.topic, p.partition))
                .collect();
            out.push(r);
        }
    }
}
