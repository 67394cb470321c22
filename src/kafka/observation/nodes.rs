//! Which ids of an observation are nodes and what each is: roles (from `process.roles`, else
//! inferred and said so) and, for brokers, fencing, whether in sync everywhere, and the broker
//! state (measured by the broker-state endpoint, else inferred from fencing).

use std::collections::BTreeSet;

use super::{BrokerState, NodeObservation, RawObservation, Roles, RolesSource, TopicObservation};
use crate::kafka::ffi::NodeAddress;

/// Every node of the observation, by id, and the replica ids nothing explains (not nodes).
pub(super) fn node_observations(
    raw: &RawObservation,
    unfenced: &BTreeSet<i32>,
    topics: &[TopicObservation],
) -> (Vec<NodeObservation>, Vec<i32>) {
    let voters: BTreeSet<i32> = raw.quorum.voters.iter().map(|v| v.id).collect();
    // Nodes: registered brokers (fenced or not), quorum voters and observers, controllers
    // that were found, ids known from elsewhere. Replica ids nothing else explains are not
    // nodes.
    let fenced_registered: Vec<NodeAddress> = raw.fenced_brokers.clone().unwrap_or_default();
    let observers: BTreeSet<i32> = raw
        .quorum
        .observers
        .iter()
        .map(|o| o.id)
        .filter(|id| !voters.contains(id))
        .collect();
    let mut known: BTreeSet<i32> = unfenced.clone();
    known.extend(fenced_registered.iter().map(|n| n.id));
    known.extend(voters.iter().copied());
    known.extend(observers.iter().copied());
    known.extend(raw.extra_broker_ids.iter().copied());
    known.extend(raw.controller_addresses.keys().copied());
    known.extend(raw.controller_roles.keys().copied());
    let replica_holders: BTreeSet<i32> = topics
        .iter()
        .flat_map(|t| &t.partitions)
        .flat_map(|p| p.replicas.iter().copied())
        .collect();
    let unknown_replica_ids: Vec<i32> = replica_holders.difference(&known).copied().collect();

    // Inferred broker role (the fallback): registered, replica holder, observer, known.
    let mut brokers: BTreeSet<i32> = unfenced.clone();
    brokers.extend(fenced_registered.iter().map(|n| n.id));
    brokers.extend(replica_holders.iter().copied());
    brokers.extend(observers.iter().copied());
    brokers.extend(raw.extra_broker_ids.iter().copied());

    // Replicas missing from their partition's ISR, in one pass (not one per node: at 1,000
    // brokers and 100,000 partitions that was 10^8 steps).
    let out_of_sync: BTreeSet<i32> = topics
        .iter()
        .flat_map(|t| &t.partitions)
        .flat_map(|p| p.replicas.iter().filter(|r| !p.isr.contains(r)))
        .copied()
        .collect();
    let nodes: Vec<NodeObservation> = known
        .into_iter()
        .map(|id| {
            let (roles, roles_source) = node_roles(raw, id, &voters, &brokers);
            let (host, port, rack) = node_address(raw, &fenced_registered, id);
            let mut node = NodeObservation {
                id,
                host,
                port,
                rack,
                roles,
                roles_source,
                fenced: None,
                in_sync: None,
                broker_state: None,
                recovery: None,
                broker_state_error: None,
                process_running: None,
                process_status_error: None,
            };
            if roles.broker {
                broker_facts(&mut node, raw, !unfenced.contains(&id), &out_of_sync);
            }
            node
        })
        .collect();
    (nodes, unknown_replica_ids)
}

/// Where node `id` listens: its broker registration (fenced or not), else its controller
/// listener.
fn node_address(
    raw: &RawObservation,
    fenced_registered: &[NodeAddress],
    id: i32,
) -> (Option<String>, Option<u16>, Option<String>) {
    let registered = raw
        .cluster
        .nodes
        .iter()
        .chain(fenced_registered)
        .find(|n| n.id == id);
    match (registered, raw.controller_addresses.get(&id)) {
        (Some(n), _) => (Some(n.host.clone()), Some(n.port), n.rack.clone()),
        (None, Some((h, p))) => (Some(h.clone()), Some(*p), None),
        (None, None) => (None, None, None),
    }
}

/// A broker's facts on `node`: fenced, in sync everywhere it is a replica, and its state (from
/// the broker-state endpoint when one is configured, else inferred from fencing).
fn broker_facts(
    node: &mut NodeObservation,
    raw: &RawObservation,
    fenced: bool,
    out_of_sync: &BTreeSet<i32>,
) {
    let id = node.id;
    node.fenced = Some(fenced);
    node.in_sync = Some(!out_of_sync.contains(&id));
    match &raw.endpoint_states {
        None => {
            node.broker_state = Some(if fenced {
                BrokerState::NotRunning
            } else {
                BrokerState::Running
            });
        }
        Some((_, states)) => match states.get(&id) {
            Some(Ok(s)) => {
                node.broker_state = Some(s.state);
                node.recovery = s.recovery;
            }
            Some(Err(e)) => {
                node.broker_state = Some(BrokerState::Unknown);
                node.broker_state_error = Some(e.clone());
            }
            None => {
                node.broker_state = Some(BrokerState::Unknown);
                node.broker_state_error = Some("no address known for this broker".into());
            }
        },
    }
}

/// Whether `id` is an unfenced broker that was not asked its configs (only the configs a
/// decision needs were read: see `kafka::client::needed`), with every controller listed, none
/// of them `id`. Reading every broker's configs, no broker is left unasked: each answered or
/// failed.
fn registered_broker_not_asked(raw: &RawObservation, id: i32) -> bool {
    raw.controllers_listed
        && !raw.controller_addresses.contains_key(&id)
        && !raw.unreachable_brokers.contains_key(&id)
        && !raw.broker_configs.contains_key(&id)
        && raw.cluster.nodes.iter().any(|n| n.id == id)
}

/// A node's roles: its `process.roles` when readable, else inferred (and why).
fn node_roles(
    raw: &RawObservation,
    id: i32,
    voters: &BTreeSet<i32>,
    brokers: &BTreeSet<i32>,
) -> (Roles, RolesSource) {
    let from_broker = raw.broker_configs.get(&id).and_then(|c| {
        c.iter()
            .find(|e| e.name == "process.roles")
            .and_then(|e| e.value.as_deref())
    });
    let from_controller = match raw.controller_roles.get(&id) {
        Some(Ok(v)) => Some(Ok(v.as_str())),
        Some(Err(e)) => Some(Err(e.as_str())),
        None => None,
    };
    let reason = match (from_broker, from_controller) {
        (Some(v), _) | (None, Some(Ok(v))) => match Roles::parse(v) {
            Some(r) => return (r, RolesSource::ProcessRoles),
            None => format!("process.roles is {v:?}"),
        },
        // Not asked: a registered broker no controller registration lists is a broker only.
        (None, None) if registered_broker_not_asked(raw, id) => {
            return (
                Roles {
                    controller: false,
                    broker: true,
                },
                RolesSource::Registrations,
            );
        }
        (None, Some(Err(e))) => format!("process.roles not readable: {e}"),
        (None, None) => {
            if raw.unreachable_brokers.contains_key(&id) {
                "process.roles not readable: the broker did not answer DescribeConfigs".into()
            } else if voters.contains(&id) || !brokers.contains(&id) {
                "process.roles not readable: controllers are asked only via \
                 bootstrap.controllers"
                    .into()
            } else {
                "process.roles not readable: the broker is not registered and unfenced".into()
            }
        }
    };
    (
        Roles {
            controller: voters.contains(&id),
            broker: brokers.contains(&id),
        },
        RolesSource::Inferred(reason),
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::super::fixtures::{cfg, raw, replica};
    use super::super::{BrokerStateSource, EndpointState, RecoveryProgress, assemble};
    use super::*;

    #[test]
    fn roles_come_from_process_roles_and_say_when_inferred() {
        let mut r = raw();
        // Controller 7 is a quorum observer (KIP-853): not a voter, still a controller.
        r.quorum.observers.push(replica(7, 1000));
        r.controller_roles = BTreeMap::from([
            (1, Ok("controller".to_string())),
            (2, Ok("controller".to_string())),
            (3, Err("connection refused".to_string())),
            (7, Ok("controller".to_string())),
        ]);
        r.broker_configs
            .insert(4, vec![cfg("process.roles", "broker")]);
        let o = assemble(r).unwrap();
        let n7 = o.node(7).unwrap();
        assert_eq!(
            (n7.roles, &n7.roles_source),
            (
                Roles {
                    controller: true,
                    broker: false
                },
                &RolesSource::ProcessRoles
            )
        );
        assert_eq!(n7.fenced, None, "not a broker");
        let n3 = o.node(3).unwrap();
        assert!(n3.roles.controller && !n3.roles.broker);
        match &n3.roles_source {
            RolesSource::Inferred(why) => assert!(why.contains("refused"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(o.node(4).unwrap().roles_source, RolesSource::ProcessRoles);
        // Broker 5 has a config but no process.roles entry; 6 did not answer at all.
        assert!(o.node(5).unwrap().roles_source.is_inferred());
        assert!(o.node(6).unwrap().roles.broker);
        // Without process.roles, an observer controller looks like a broker (said so).
        let mut r = raw();
        r.quorum.observers.push(replica(7, 1000));
        let o = assemble(r).unwrap();
        let n7 = o.node(7).unwrap();
        assert!(n7.roles.broker && !n7.roles.controller);
        assert!(n7.roles_source.is_inferred());
    }

    /// Only the configs a decision needs were read: a registered broker not asked is a broker
    /// only when every controller is listed and it is none of them; otherwise (no listing, a
    /// listed controller, a broker that failed its ask) the rules stay as before.
    #[test]
    fn an_unasked_registered_broker_is_told_by_the_registrations() {
        let unasked = |controllers_listed: bool| {
            let mut r = raw();
            r.broker_configs.clear();
            r.controllers_listed = controllers_listed;
            r.controller_addresses = (1..=3).map(|c| (c, ("c".to_string(), 9093))).collect();
            // Read from the active controller (the listing goes with bootstrap.controllers).
            r.leader_fetch_timeout_ms = Some(2000);
            r
        };
        let o = assemble(unasked(true)).unwrap();
        for id in [4, 5] {
            let n = o.node(id).unwrap();
            assert_eq!(n.roles_source, RolesSource::Registrations, "node {id}");
            assert!(n.roles.broker && !n.roles.controller, "node {id}");
        }
        // Broker 6 is fenced (not registered unfenced): inferred as before.
        assert!(o.node(6).unwrap().roles_source.is_inferred());
        // Without the controller listing a non-voting combined node cannot be told apart.
        let o = assemble(unasked(false)).unwrap();
        assert!(o.node(4).unwrap().roles_source.is_inferred());
        // A broker that is a listed controller too (combined) is not guessed at.
        let mut r = unasked(true);
        r.controller_addresses.insert(4, ("b4".into(), 9093));
        r.controller_roles
            .insert(4, Ok("broker,controller".to_string()));
        let n4 = assemble(r).unwrap().node(4).unwrap().clone();
        assert_eq!(n4.roles_source, RolesSource::ProcessRoles);
        assert!(n4.roles.broker && n4.roles.controller);
        // A broker asked that did not answer stays inferred, and is not reachable.
        let mut r = unasked(true);
        r.unreachable_brokers.insert(5, "timed out".into());
        r.vouched_alive = BTreeSet::from([4, 5]);
        let o = assemble(r).unwrap();
        assert!(o.node(5).unwrap().roles_source.is_inferred());
        assert!(!o.answers(5));
        // Broker 4 was not asked and the quorum vouches for it: reachable.
        assert!(o.answers(4));
    }

    #[test]
    fn endpoint_states_are_used_and_failures_kept() {
        let mut r = raw();
        r.endpoint_states = Some((
            "http://{host}:8080/v1/broker-state".into(),
            BTreeMap::from([
                (
                    4,
                    Ok(EndpointState {
                        state: BrokerState::Recovery,
                        recovery: Some(RecoveryProgress {
                            remaining_logs: 3,
                            remaining_segments: 9,
                        }),
                    }),
                ),
                (5, Err("connection refused".to_string())),
            ]),
        ));
        let o = assemble(r).unwrap();
        assert_eq!(o.node(4).unwrap().broker_state, Some(BrokerState::Recovery));
        assert_eq!(o.node(4).unwrap().recovery.unwrap().remaining_segments, 9);
        assert_eq!(o.node(5).unwrap().broker_state, Some(BrokerState::Unknown));
        assert!(
            o.node(5)
                .unwrap()
                .broker_state_error
                .as_deref()
                .unwrap()
                .contains("refused")
        );
        assert!(matches!(
            o.broker_state_source,
            BrokerStateSource::Endpoint { .. }
        ));
    }
}
