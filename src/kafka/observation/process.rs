//! The platform's word on the processes Kafka cannot vouch for: which nodes to ask about
//! ([`process_status_wanted`]) and how the answers change an observation
//! ([`apply_process_status`]).

use std::collections::BTreeMap;

use super::{BrokerState, BrokerStateSource, KafkaObservation};

/// The nodes whose process the platform is asked about ([`apply_process_status`]): those the
/// roll's rules need to know alive and that Kafka cannot vouch for, and no others (at 1,000
/// brokers a poll asks a handful, not 1,000).
///
/// - Controller-only nodes, always: Kafka does not fence controllers, and a stopped voter keeps
///   a fresh `LastCaughtUpTimestamp` for the whole fetch timeout (its vote is counted by the
///   quorum rule only while its process runs).
/// - Fenced brokers: stopped, or alive and starting / in log recovery.
/// - Brokers Kafka lists unfenced that did not answer (no DescribeConfigs answer, or their
///   broker-state endpoint failed): crashed and not fenced yet, or alive and unreachable.
///
/// A broker that [`KafkaObservation::answers`] runs (it answered DescribeConfigs now, or the
/// quorum vouched that it is fetching now); asking about it would tell nothing new.
#[must_use]
pub fn process_status_wanted(o: &KafkaObservation) -> Vec<i32> {
    o.nodes
        .iter()
        .filter(|n| {
            if !n.roles.broker {
                return n.roles.controller;
            }
            n.fenced != Some(false)
                || !o.answers(n.id)
                || o.unreachable_brokers.contains_key(&n.id)
                || n.broker_state_error.is_some()
        })
        .map(|n| n.id)
        .collect()
}

/// Adds the platform's view of each process (status command or TCP probe) to an
/// observation whose broker states were inferred from fencing: a fenced broker whose
/// process runs, or whose status cannot be told, becomes `UNKNOWN` (it may be starting or
/// in log recovery); a fenced broker whose process does not run stays `NOT_RUNNING`.
/// With a broker-state endpoint, only a fenced broker whose endpoint failed is affected.
pub fn apply_process_status(
    o: &mut KafkaObservation,
    running: &BTreeMap<i32, Result<bool, String>>,
) {
    let inferred = o.broker_state_source == BrokerStateSource::InferredFromFencing;
    for n in &mut o.nodes {
        let Some(status) = running.get(&n.id) else {
            continue;
        };
        match status {
            Ok(r) => n.process_running = Some(*r),
            Err(e) => {
                n.process_running = None;
                n.process_status_error = Some(e.clone());
            }
        }
        let alive_or_unknown = !matches!(status, Ok(false));
        let fenced = n.fenced == Some(true);
        if !n.roles.broker || !fenced {
            continue;
        }
        if inferred {
            n.broker_state = Some(if alive_or_unknown {
                BrokerState::Unknown
            } else {
                BrokerState::NotRunning
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::assemble;
    use super::super::fixtures::{cfg, raw};
    use super::*;

    #[test]
    fn a_fenced_broker_whose_process_runs_is_unknown_not_stopped() {
        let mut o = assemble(raw()).unwrap();
        assert_eq!(
            o.node(6).unwrap().broker_state,
            Some(BrokerState::NotRunning)
        );
        apply_process_status(&mut o, &BTreeMap::from([(4, Ok(true)), (6, Ok(true))]));
        let n6 = o.node(6).unwrap();
        assert_eq!(
            (n6.broker_state, n6.process_running),
            (Some(BrokerState::Unknown), Some(true))
        );
        assert_eq!(o.node(4).unwrap().broker_state, Some(BrokerState::Running));
        let mut o = assemble(raw()).unwrap();
        apply_process_status(&mut o, &BTreeMap::from([(6, Ok(false))]));
        assert_eq!(
            o.node(6).unwrap().broker_state,
            Some(BrokerState::NotRunning)
        );
        let mut o = assemble(raw()).unwrap();
        apply_process_status(&mut o, &BTreeMap::from([(6, Err("no probe".to_string()))]));
        let n6 = o.node(6).unwrap();
        assert_eq!(n6.broker_state, Some(BrokerState::Unknown));
        assert_eq!(n6.process_status_error.as_deref(), Some("no probe"));
    }

    /// Issue 23 points 1 and 2 on a real cluster need the platform's word on exactly the nodes
    /// Kafka cannot vouch for: controller-only nodes always, fenced brokers, and brokers listed
    /// unfenced that did not answer; a broker that answered is not asked about.
    #[test]
    fn the_platform_is_asked_about_the_nodes_kafka_cannot_vouch_for() {
        // Controllers 1-3; broker 4 listed unfenced without a DescribeConfigs answer; 6 fenced.
        let o = assemble(raw()).unwrap();
        assert_eq!(process_status_wanted(&o), vec![1, 2, 3, 4, 6]);
        // 4 answers: not asked any more.
        let mut r = raw();
        r.broker_configs
            .insert(4, vec![cfg("process.roles", "broker")]);
        let o = assemble(r.clone()).unwrap();
        assert_eq!(process_status_wanted(&o), vec![1, 2, 3, 6]);
        // 5 answered DescribeConfigs but its broker-state endpoint failed: asked.
        r.endpoint_states = Some((
            "http://{host}/state".into(),
            BTreeMap::from([(5, Err("refused".to_string()))]),
        ));
        let o = assemble(r).unwrap();
        assert_eq!(process_status_wanted(&o), vec![1, 2, 3, 4, 5, 6]);
    }
}
