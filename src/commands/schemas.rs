//! The JSON Schema of every command's `-o json` output, generated from the output types (the
//! `schemars` derives on them), so the published contract cannot drift from what is printed.
//! `schemas/NAME.json` holds each one (a test regenerates and compares them; the cluster tests
//! validate real outputs against them). The convention they follow: [`crate::output`].

use schemars::{JsonSchema, Schema, schema_for};

use super::shared::cc_flow::FlowOutput;

/// `rebalance imbalance`: a flow's document, or nothing to fix.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code, clippy::large_enum_variant)] // Only its schema is used: never built.
enum Imbalance {
    Flow(FlowOutput),
    Nothing(super::imbalance::NothingToFix),
}

/// `rebalance pace`: the current caps, a live throttle change, or a stop and resume.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code, clippy::large_enum_variant)] // Only its schema is used: never built.
enum Pace {
    Caps(super::pace::PaceView),
    Live(super::pace::LiveView),
    Resumed(super::pace::ThrottleView),
}

/// `health --watch -o jsonl`: one record per change, or a failed observation.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code, clippy::large_enum_variant)] // Only its schema is used: never built.
enum HealthRecord {
    Observed(super::health::View),
    Failed(super::health::Failed),
}

/// Every object with named properties allows no others: a renamed field fails validation even
/// when it is optional (`null` or absent). An object made of its own properties and a `oneOf`
/// (`allOf`, `anyOf`) of others, which is what `#[serde(flatten)]` of an enum gives, is closed
/// with `unevaluatedProperties` instead, so the properties of the branch that matched count as
/// known; its branches are left open (closing them would refuse the parent's own properties).
fn strict(v: &mut serde_json::Value) {
    close(v, false);
}

fn close(v: &mut serde_json::Value, branch_of_flattened: bool) {
    const COMBINATORS: [&str; 3] = ["oneOf", "anyOf", "allOf"];
    match v {
        serde_json::Value::Object(o) => {
            let flattened =
                o.contains_key("properties") && COMBINATORS.iter().any(|k| o.contains_key(*k));
            if o.contains_key("properties")
                && !o.contains_key("additionalProperties")
                && !o.contains_key("unevaluatedProperties")
                && !branch_of_flattened
            {
                let key = if flattened {
                    "unevaluatedProperties"
                } else {
                    "additionalProperties"
                };
                o.insert(key.into(), serde_json::Value::Bool(false));
            }
            for (k, child) in o.iter_mut() {
                let branches = flattened && COMBINATORS.contains(&k.as_str());
                match child {
                    serde_json::Value::Array(a) if branches => {
                        a.iter_mut().for_each(|b| close(b, true));
                    }
                    _ => close(child, false),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|c| close(c, false)),
        _ => {}
    }
}

fn text(schema: &Schema) -> String {
    let mut v = serde_json::to_value(schema).unwrap_or_default();
    strict(&mut v);
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// Every output schema: (file name without `.json`, its pretty-printed text).
#[must_use]
pub fn all() -> Vec<(&'static str, String)> {
    let schemas: Vec<(&'static str, Schema)> = vec![
        (
            "anomalies-watch",
            schema_for!(crate::engine::anomalies::WatchEvent),
        ),
        ("broker-cordon", schema_for!(super::cordon::CordonView)),
        (
            "broker-list",
            schema_for!(Vec<crate::engine::kraft::ghosts::BrokerListing>),
        ),
        (
            "broker-unregister",
            schema_for!(super::kraft::UnregisterView),
        ),
        (
            "config-get-contexts",
            schema_for!(Vec<super::config::ContextRow>),
        ),
        ("config-view", schema_for!(Vec<super::config::Row>)),
        ("health", schema_for!(super::health::View)),
        ("health-watch", schema_for!(HealthRecord)),
        ("hold", schema_for!(super::hold::ListView)),
        ("journal-bundle", schema_for!(crate::app::journal::Bundled)),
        (
            "journal-bundle-health",
            schema_for!(crate::app::journal::HealthSnapshot),
        ),
        (
            "journal-bundle-manifest",
            schema_for!(crate::app::journal::Manifest),
        ),
        (
            "journal-list",
            schema_for!(Vec<crate::app::journal::Summary>),
        ),
        ("journal-show", schema_for!(super::journal::ShowView)),
        (
            "operate-dry-run",
            schema_for!(crate::app::operate::DryRunReport),
        ),
        ("quorum", schema_for!(crate::app::kraft::QuorumSnapshot)),
        (
            "reassignments-cancel",
            schema_for!(super::reassignments::CancelView),
        ),
        (
            "reassignments-list",
            schema_for!(super::reassignments::ListView),
        ),
        ("rebalance", schema_for!(FlowOutput)),
        ("rebalance-imbalance", schema_for!(Imbalance)),
        ("rebalance-pace", schema_for!(Pace)),
        (
            "rebalance-review",
            schema_for!(Vec<super::rebalance::review::ReviewView>),
        ),
        (
            "rebalance-status",
            schema_for!(super::rebalance::WithCordons<'static>),
        ),
        (
            "rebalance-status-task",
            schema_for!(super::shared::cc_flow::task::TaskView),
        ),
        (
            "rebalance-stop",
            schema_for!(super::shared::cc_flow::render::StopView),
        ),
        ("roll", schema_for!(super::roll::Document<'static>)),
        ("throttles-clear", schema_for!(super::throttles::ClearView)),
        ("throttles-list", schema_for!(super::throttles::ListView)),
        ("topic-set-rf", schema_for!(super::topic::SetRfView)),
        ("upgrade", schema_for!(crate::app::kraft::UpgradePlan)),
        (
            "upgrade-finalize",
            schema_for!(Vec<crate::engine::kraft::upgrade::LevelChange>),
        ),
    ];
    schemas.into_iter().map(|(n, s)| (n, text(&s))).collect()
}
