//! Held nodes (issue 29) are never destinations of a rebalance kafkaops asks for, through Cruise
//! Control's own parameter: `rebalance` and `remove_broker` accept `destination_broker_ids` (the
//! only brokers replicas may move to, reference §3.2-3.4), so while a node is held a request
//! that names none is sent with every live broker but the held ones (and, for a removal, the
//! removed ones). `add_broker` moves replicas onto the brokers it adds only and takes no
//! destination: adding a held broker is refused before anything is sent. Destinations given by
//! hand that are held are refused too (the operator asked for two contradicting things).
//! `demote_broker` and `remove_disks` move no replica onto another broker and are left alone.
//!
//! The decision is pure ([`avoid_held`]); [`avoid_held_nodes`] reads the holds and the live
//! brokers for the CLI, and `operate` decides the same in its engine (held brokers are left out of
//! its destinations like those on its drain list).

use std::collections::BTreeMap;

use anyhow::Context;

use super::ids;
use crate::app::Reporter;
use crate::app::cordon::KafkaAccess;
use crate::cruise_control::params::{RebalanceKind, RebalanceRequest};
use crate::engine::failure::{Classified, FailureKind};
use crate::engine::holds::{describe, destinations_avoiding, held_among};
use crate::engine::model::NodeId;
use crate::kafka::KafkaAdmin;

fn refused(message: String) -> Classified {
    Classified::new(FailureKind::Failed, message)
}

fn just_ids(held: &[(i32, String)]) -> String {
    ids(&held.iter().map(|(n, _)| *n).collect::<Vec<_>>())
}

/// Restricts `req` so that no held node receives a replica (pure). `live`: the brokers Kafka
/// lists now; `held`: the holds that count. `Ok(Some(note))` says what was restricted, `Ok(None)`
/// that the request stays as it was (nothing held, or an endpoint that fills no other broker).
///
/// # Errors
/// [`FailureKind::Failed`] (a safety check, exit 1), nothing sent: `add_broker` of a held broker,
/// a held destination given by hand, or no broker left to receive replicas.
pub fn avoid_held(
    req: &mut RebalanceRequest,
    live: &[i32],
    held: &BTreeMap<NodeId, String>,
) -> Result<Option<String>, Classified> {
    if held.is_empty() {
        return Ok(None);
    }
    let (leaving, given): (Vec<i32>, Vec<i32>) = match &req.kind {
        RebalanceKind::AddBrokers(brokers) => {
            let hit = held_among(brokers, held);
            if hit.is_empty() {
                return Ok(None);
            }
            return Err(refused(format!(
                "broker(s) {} are held: adding them would move replicas onto them; remove the hold (`kafkaops hold remove --nodes {}`) or wait until it expires; nothing was sent",
                describe(&hit),
                just_ids(&hit)
            )));
        }
        RebalanceKind::RemoveBrokers {
            brokers,
            destinations,
        } => (brokers.clone(), destinations.clone()),
        RebalanceKind::Full => (Vec::new(), req.goals.destination_broker_ids.clone()),
        _ => return Ok(None),
    };
    if !given.is_empty() {
        let hit = held_among(&given, held);
        if hit.is_empty() {
            return Ok(None);
        }
        return Err(refused(format!(
            "destination broker(s) {} are held and may not receive replicas; leave them out of --destination-brokers, or remove the hold (`kafkaops hold remove --nodes {}`); nothing was sent",
            describe(&hit),
            just_ids(&hit)
        )));
    }
    let to = destinations_avoiding(live, held, &leaving);
    let mut held_ids: Vec<i32> = held.keys().map(|n| n.0).collect();
    held_ids.sort_unstable();
    let shown = describe(&held_among(&held_ids, held));
    if to.is_empty() {
        return Err(refused(format!(
            "every live broker ({}) is held or removed, so no broker may receive replicas (held: {shown}); nothing was sent",
            ids(live)
        )));
    }
    match &mut req.kind {
        RebalanceKind::RemoveBrokers { destinations, .. } => destinations.clone_from(&to),
        _ => req.goals.destination_broker_ids.clone_from(&to),
    }
    Ok(Some(format!(
        "Held node(s) {shown} are not destinations: replicas may move only to brokers {} (destination_broker_ids)",
        ids(&to)
    )))
}

/// Reads the holds and the live brokers from Kafka and restricts `req` ([`avoid_held`]), saying
/// what it did through `reporter`. Holds live in the cluster: without a Kafka connection none can
/// be read, which is said when the request is to be executed.
///
/// # Errors
/// Kafka cannot be reached or its holds read (a hold that cannot be read cannot be honoured), or
/// [`avoid_held`] refuses.
pub async fn avoid_held_nodes(
    k: KafkaAccess<'_>,
    holds: &crate::app::hold::Holds,
    req: &mut RebalanceRequest,
    executing: bool,
    reporter: &dyn Reporter,
) -> anyhow::Result<()> {
    if k.settings.bootstrap_servers.is_none() {
        if executing {
            reporter.note(
                "Node holds were not checked: no Kafka connection is configured (--bootstrap-servers)",
            );
        }
        return Ok(());
    }
    let kafka = crate::app::cordon::kafka(k).await?;
    let held = crate::app::hold::active_now(holds, &kafka).await?;
    if held.is_empty() {
        return Ok(());
    }
    let live: Vec<i32> = kafka
        .describe_cluster()
        .await
        .context("cannot list the live brokers")?
        .nodes
        .iter()
        .map(|n| n.id)
        .collect();
    if let Some(note) = avoid_held(req, &live, &held)? {
        reporter.note(&note);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::rebalance::{ProposalSpec, proposal_request};

    fn held(n: &[i32]) -> BTreeMap<NodeId, String> {
        n.iter().map(|b| (NodeId(*b), "disk swap".into())).collect()
    }

    fn req(kind: RebalanceKind) -> RebalanceRequest {
        proposal_request(&kind, &ProposalSpec::default())
    }

    fn param(r: &RebalanceRequest, key: &str) -> Option<String> {
        r.query()
            .into_iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    #[test]
    fn nothing_held_leaves_every_request_as_it_was() {
        for kind in [
            RebalanceKind::Full,
            RebalanceKind::AddBrokers(vec![3]),
            RebalanceKind::RemoveBrokers {
                brokers: vec![1],
                destinations: vec![],
            },
        ] {
            let mut r = req(kind);
            let before = r.query();
            assert_eq!(avoid_held(&mut r, &[1, 2, 3], &held(&[])).unwrap(), None);
            assert_eq!(r.query(), before);
        }
    }

    #[test]
    fn full_and_remove_send_the_live_brokers_but_held_and_removed_ones() {
        let mut full = req(RebalanceKind::Full);
        let note = avoid_held(&mut full, &[1, 2, 3, 4], &held(&[3])).unwrap();
        assert!(note.unwrap().contains("3 (disk swap)"));
        assert_eq!(
            param(&full, "destination_broker_ids").as_deref(),
            Some("1,2,4")
        );
        let mut rm = req(RebalanceKind::RemoveBrokers {
            brokers: vec![4],
            destinations: vec![],
        });
        avoid_held(&mut rm, &[1, 2, 3, 4], &held(&[3])).unwrap();
        assert_eq!(param(&rm, "destination_broker_ids").as_deref(), Some("1,2"));
        // A held node that is down now may be back when Cruise Control computes: still left out.
        let mut full = req(RebalanceKind::Full);
        avoid_held(&mut full, &[1, 2], &held(&[3])).unwrap();
        assert_eq!(
            param(&full, "destination_broker_ids").as_deref(),
            Some("1,2")
        );
    }

    #[test]
    fn adding_a_held_broker_or_naming_it_a_destination_is_refused() {
        let mut add = req(RebalanceKind::AddBrokers(vec![3, 4]));
        let e = avoid_held(&mut add, &[1, 2, 3, 4], &held(&[3])).unwrap_err();
        assert_eq!(e.kind(), FailureKind::Failed);
        assert!(e.to_string().contains("3 (disk swap) are held"), "{e}");
        let mut add = req(RebalanceKind::AddBrokers(vec![4]));
        assert_eq!(
            avoid_held(&mut add, &[1, 2, 3, 4], &held(&[3])).unwrap(),
            None
        );
        let mut rm = req(RebalanceKind::RemoveBrokers {
            brokers: vec![4],
            destinations: vec![2, 3],
        });
        assert!(avoid_held(&mut rm, &[1, 2, 3, 4], &held(&[3])).is_err());
        let mut rm = req(RebalanceKind::RemoveBrokers {
            brokers: vec![4],
            destinations: vec![1],
        });
        assert_eq!(
            avoid_held(&mut rm, &[1, 2, 3, 4], &held(&[3])).unwrap(),
            None
        );
        assert_eq!(param(&rm, "destination_broker_ids").as_deref(), Some("1"));
        let mut full = req(RebalanceKind::Full);
        full.goals.destination_broker_ids = vec![3];
        assert!(avoid_held(&mut full, &[1, 2, 3], &held(&[3])).is_err());
        let mut rm = req(RebalanceKind::RemoveBrokers {
            brokers: vec![1],
            destinations: vec![],
        });
        let e = avoid_held(&mut rm, &[1, 2], &held(&[2])).unwrap_err();
        assert!(e.to_string().contains("no broker may receive"), "{e}");
    }
}
