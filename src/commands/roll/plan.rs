//! The roll's plan: the cluster observed once ([`crate::app::roll::prepare`]), the saved run to
//! resume, the other movers, the engine's plan and what the plan should say besides.

use std::collections::{BTreeMap, BTreeSet};

use super::args::{Spec, prepare_error, request_of, saved_run};
use super::{Ctx, RollRunArgs, join, movers};
use crate::app::roll::prepare::{Ask, Prepared, Target, prepare};
use crate::driver::RollRun;
use crate::engine::model::{ClusterSnapshot, NodeId, NodeSnapshot, ObservedState};
use crate::engine::risk::RiskyTopic;
use crate::engine::roll::{NodeRequest, Plan, PlanStep, Roller};
use crate::error::CliError;
use crate::kafka::KafkaObservation;
use crate::kafka::observation::RolesSource;
use crate::platform::kube::KubeConn;

/// Everything the roll knows before it asks to go.
pub(super) struct Planned {
    pub(super) prepared: Prepared,
    /// Where the run's state is saved, and the cluster it is saved for.
    pub(super) state_path: std::path::PathBuf,
    pub(super) cluster_key: String,
    /// The request saved with the state.
    pub(super) request: serde_json::Value,
    /// The saved run this one resumes.
    pub(super) resumed: Option<RollRun>,
    pub(super) others: movers::Movers,
    pub(super) roller: Roller,
    pub(super) plan: Plan,
    /// Topics no order of restarts can keep available.
    pub(super) risky: Vec<RiskyTopic>,
    pub(super) notes: Vec<String>,
}

/// Observes the cluster and plans the roll.
pub(super) async fn plan(
    ctx: &Ctx,
    args: &RollRunArgs,
    spec: &Spec,
    kube: Option<&KubeConn>,
) -> Result<Planned, CliError> {
    let timeout = ctx.request_timeout();
    let prepared = observe(ctx, args, spec, kube).await?;
    let mut notes = observation_notes(
        &prepared.observation,
        &prepared.snapshot,
        &prepared.requests,
        args.include_unhealthy,
    );
    // The saved state of an earlier run of this roll, if any.
    let (cluster_key, state_path) = state_location(args, &prepared);
    let request = request_of(args, spec);
    let resumed = saved_run(args, &state_path, &request, ctx.printer.quiet)?;
    // Who else moves data: Cruise Control's execution (no node restarts while it runs) and
    // reassignments no execution owns (named below; refused with --strict).
    let others = movers::observe(ctx, &prepared.observation, timeout).await?;
    let mut roller = match &resumed {
        Some(run) => run.roller.clone(),
        None => Roller::new(spec.config.clone(), prepared.requests.clone()),
    };
    if !args.force {
        roller.handle_cruise_control(&others.others.cruise_control);
    }
    // Held nodes (`kafkaops hold`) are left alone; holds that cannot be read refuse the roll
    // rather than risk restarting a held node.
    roller.handle_holds(crate::app::hold::active_now(&ctx.holds().await?, &prepared.client).await?);
    let plan = roller.plan(&prepared.snapshot);
    // Topics no order of restarts can keep available (engine::risk): listed before anything
    // restarts, refused with --strict, and named again in the summary if the roll touched them.
    let risky = crate::engine::risk::risky_topics(&prepared.snapshot, &restarting_nodes(&plan));
    notes.extend(plan_notes(args, spec, &risky, &others));
    Ok(Planned {
        prepared,
        state_path,
        cluster_key,
        request,
        resumed,
        others,
        roller,
        plan,
        risky,
        notes,
    })
}

/// Connects to Kafka and observes the cluster once, with the selection and desired settings
/// resolved against it.
async fn observe(
    ctx: &Ctx,
    args: &RollRunArgs,
    spec: &Spec,
    kube: Option<&KubeConn>,
) -> Result<Prepared, CliError> {
    let client = crate::app::clients::kafka(
        &ctx.settings.kafka,
        ctx.request_timeout(),
        Some("cannot connect to the Kafka cluster"),
    )
    .await?;
    let selection = spec.selection.as_ref().map(super::Selection::resolved);
    let target = Target {
        pods: kube.zip(spec.pods.as_ref()),
        method: spec.method.as_ref(),
        command_timeout: args.command_timeout,
    };
    let ask = Ask {
        selection: selection.as_ref(),
        desired: &spec.desired,
        software: spec.software.as_ref(),
        preview: args.dry_run,
    };
    prepare(&client, &target, &ask).await.map_err(prepare_error)
}

/// The cluster the run's state is saved for (its id, else the bootstrap servers) and the file.
fn state_location(args: &RollRunArgs, prepared: &Prepared) -> (String, std::path::PathBuf) {
    let cluster_key = prepared
        .observation
        .cluster_id
        .clone()
        .unwrap_or_else(|| prepared.client.config().bootstrap_servers.clone());
    let state_path = crate::state::roll_state_path(
        &args
            .state_dir
            .clone()
            .unwrap_or_else(crate::state::default_state_dir),
        &cluster_key,
    );
    (cluster_key, state_path)
}

/// What the plan says besides its steps: the risky topics, the other movers, an upgrade's
/// target.
fn plan_notes(
    args: &RollRunArgs,
    spec: &Spec,
    risky: &[RiskyTopic],
    others: &movers::Movers,
) -> Vec<String> {
    let mut notes: Vec<String> = risky
        .iter()
        .map(|t| {
            format!(
                "topic {} cannot stay available during this roll",
                t.describe()
            )
        })
        .collect();
    notes.extend(movers::notes(others, args.force));
    if let Some(software) = &spec.software {
        notes.push(format!(
            "upgrade to {}: each restarted node must come back supporting metadata.version up \
             to {} (the software it starts with must have been changed), else the roll stops; \
             nothing is finalized: after the roll, let the cluster soak, then `kafkaops upgrade \
             --finalize` (the point of no return)",
            software.release,
            crate::engine::kraft::upgrade::metadata_version_name(software.level)
        ));
    }
    notes
}

/// The nodes the plan restarts (reconfigured nodes stay up).
fn restarting_nodes(plan: &Plan) -> BTreeSet<NodeId> {
    plan.steps
        .iter()
        .flat_map(|s| match s {
            PlanStep::Restart { nodes, .. } => nodes.iter().map(|n| n.node).collect(),
            _ => Vec::new(),
        })
        .collect()
}

fn state_word(n: &NodeSnapshot) -> &'static str {
    match (n.state, n.reachable) {
        (ObservedState::NotRunning, _) => "not running",
        (ObservedState::NotReady, _) => "not ready",
        (ObservedState::Unknown, _) => "state unknown",
        (ObservedState::Recovering, _) => "recovering",
        (ObservedState::Serving, false) => "unreachable",
        (ObservedState::Serving, true) => "serving",
    }
}

/// What the plan should say about the observation itself: unhealthy nodes left alone,
/// roles that had to be inferred, replica ids that are no node.
pub(super) fn observation_notes(
    observation: &KafkaObservation,
    snapshot: &ClusterSnapshot,
    requests: &BTreeMap<NodeId, NodeRequest>,
    include_unhealthy: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    if !include_unhealthy {
        for n in &snapshot.nodes {
            let unhealthy = !n.reachable
                || matches!(
                    n.state,
                    ObservedState::Unknown | ObservedState::NotRunning | ObservedState::NotReady
                );
            if unhealthy && !requests.contains_key(&n.id) {
                notes.push(format!(
                    "node {} ({}, {}): not restarted (outside the selection; \
                     --include-unhealthy)",
                    n.id,
                    n.roles,
                    state_word(n)
                ));
            }
        }
    }
    let mut inferred: BTreeMap<&str, Vec<NodeId>> = BTreeMap::new();
    for n in &observation.nodes {
        if let RolesSource::Inferred(why) = &n.roles_source {
            inferred.entry(why.as_str()).or_default().push(NodeId(n.id));
        }
    }
    for (why, ids) in inferred {
        notes.push(format!(
            "roles of node(s) {} inferred from the quorum and broker registrations ({why})",
            join(&ids)
        ));
    }
    let unread: Vec<&str> = observation
        .topics
        .iter()
        .filter(|t| !t.configs_read)
        .map(|t| t.name.as_str())
        .collect();
    if !unread.is_empty() {
        notes.push(format!(
            "the configs of topic(s) {} could not be read: their min.insync.replicas is \
             unknown, so no replica of them is restarted",
            unread.join(", ")
        ));
    }
    if !observation.unknown_replica_ids.is_empty() {
        let ids: Vec<NodeId> = observation
            .unknown_replica_ids
            .iter()
            .map(|i| NodeId(*i))
            .collect();
        notes.push(format!(
            "replica id(s) {} belong to no known node (not registered, not in the quorum): \
             never restarted; their replicas count as out of sync",
            join(&ids)
        ));
    }
    notes
}
