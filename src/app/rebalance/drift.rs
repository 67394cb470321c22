//! The rebalance side of "the approved plan is the executed plan" (see [`crate::engine::drift`]
//! for the comparison and why the execution is preceded by a re-check dry run).
//!
//! Here: reading a plan approved beforehand (`--approved-plan FILE`, the `--output json` of a
//! dry run, so a proposal reviewed in a change request is the one a CI job may execute) and the
//! words shown when the proposal changed.

use std::path::Path;

use serde_json::Value;

use crate::cruise_control::params::RebalanceKind;
use crate::engine::drift::{DriftReport, Movement, Plan};
use crate::engine::failure::{Classified, FailureKind};

fn usage(msg: String) -> Classified {
    Classified::new(FailureKind::Invalid, msg)
}

/// Reads an approved plan: the JSON of `rebalance add|remove|full` (a dry run's proposal, or an
/// execution's document, whose `approved_proposal` or else `proposal` is taken). Refuses a plan
/// of another operation or other brokers than `kind`.
///
/// # Errors
/// The file cannot be read, is not such a document, or is a plan for something else.
pub fn load_approved_plan(path: &Path, kind: &RebalanceKind) -> Result<Plan, Classified> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        usage(format!(
            "cannot read the approved plan {}: {e}",
            path.display()
        ))
    })?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        usage(format!(
            "the approved plan {} is not the JSON output of a rebalance dry run: {e}",
            path.display()
        ))
    })?;
    plan_of_json(&doc, kind).map_err(|e| usage(format!("approved plan {}: {e}", path.display())))
}

/// The plan in a rebalance JSON document (pure).
pub fn plan_of_json(doc: &Value, kind: &RebalanceKind) -> Result<Plan, String> {
    let p = doc
        .get("approved_proposal")
        .filter(|v| !v.is_null())
        .or_else(|| doc.get("proposal"))
        .unwrap_or(doc);
    let summary = p
        .get("summary")
        .ok_or("no `summary`: not the JSON output of a rebalance dry run")?;
    let op = p.get("operation").and_then(Value::as_str).unwrap_or("");
    if op != kind.endpoint().path() {
        return Err(format!(
            "it is a plan for `{op}`, not for `{}`; nothing was changed",
            kind.endpoint().path()
        ));
    }
    let ids = |v: Option<&Value>| -> Vec<i32> {
        let mut out: Vec<i32> = v
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_i64().and_then(|i| i32::try_from(i).ok()))
                    .collect()
            })
            .unwrap_or_default();
        out.sort_unstable();
        out
    };
    let mut want = kind.named_brokers();
    want.sort_unstable();
    let have = ids(p.get("brokers"));
    if have != want {
        return Err(format!(
            "it is a plan for brokers {have:?}, not {want:?}; nothing was changed"
        ));
    }
    let count = |k: &str| summary.get(k).and_then(Value::as_u64).unwrap_or(0);
    let movements = p
        .get("movements")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| {
                    Some(Movement {
                        topic: m.get("topic")?.as_str()?.to_string(),
                        partition: i32::try_from(m.get("partition")?.as_i64()?).ok()?,
                        old_replicas: in_order(m.get("old_replicas")?)?,
                        new_replicas: in_order(m.get("new_replicas")?)?,
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let mb = |k: &str| summary.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    // As `Plan::of`: inter- and intra-broker movements together.
    Ok(Plan {
        replica_movements: count("replica_movements") + count("intra_broker_replica_movements"),
        leader_movements: count("leader_movements"),
        data_to_move_mb: mb("data_to_move_mb") + mb("intra_broker_data_to_move_mb"),
        movements,
    })
}

/// A replica list as given (order matters: the first is the preferred leader).
fn in_order(v: &Value) -> Option<Vec<i32>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_i64().and_then(|i| i32::try_from(i).ok()))
        .collect()
}

/// The note shown when the re-check found the proposal changed.
#[must_use]
pub fn render_drift(r: &DriftReport) -> String {
    let mut out =
        String::from("The proposal changed since it was approved; nothing was executed:\n");
    for reason in &r.reasons {
        out.push_str(&format!("  - {reason}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dry_run_document_gives_its_plan_and_other_operations_are_refused() {
        let doc: Value = serde_json::from_str(
            r#"{"operation":"add_broker","brokers":[4],"summary":{"replica_movements":1,
                "leader_movements":2,"data_to_move_mb":3.5},
                "movements":[{"topic":"a","partition":0,"old_replicas":[1,2],"new_replicas":[4,2]}]}"#,
        )
        .unwrap();
        let p = plan_of_json(&doc, &RebalanceKind::AddBrokers(vec![4])).unwrap();
        assert_eq!(p.replica_movements, 1);
        assert_eq!(p.leader_movements, 2);
        assert_eq!(p.movements[0].new_replicas, vec![4, 2]);
        assert!(plan_of_json(&doc, &RebalanceKind::AddBrokers(vec![5])).is_err());
        assert!(plan_of_json(&doc, &RebalanceKind::Full).is_err());
        let wrapped = serde_json::json!({"proposal": doc});
        assert_eq!(
            plan_of_json(&wrapped, &RebalanceKind::AddBrokers(vec![4])).unwrap(),
            p
        );
    }
}
