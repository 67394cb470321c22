//! `kafkaops roll`: a safe rolling restart or reconfiguration of a cluster's nodes.
//!
//! The shell around the roll session of [`crate::app::roll`]: it resolves what the user asked
//! for (which nodes, which desired settings, how nodes restart: `roll/args.rs`) into a
//! clap-free spec, observes the cluster once to print the plan (`roll/plan.rs`; and to refuse
//! up front when the plan is already blocked: the operator learns which partition or quorum
//! member is in the way before anything is touched, `roll/gate.rs`), then runs the session
//! (`roll/execute.rs`) with the Kafka adapter and the platform as its IO. Progress goes to
//! stderr one line per change of a node's state (readable in CI logs as well as on a
//! terminal); the plan and the summary are the data on stdout (`--output json` puts both in
//! one document; `roll/render.rs`).
//!
//! The IO (Kafka adapter + platform, generic over [`crate::platform::Platform`]) is
//! [`crate::driver::kafka_io::KafkaRollIo`]; this command only builds it, loops
//! [`crate::driver::step`] ([`crate::app::roll::session::drive`]) and saves the run's state
//! after every step (see [`crate::state`]): re-running the same roll after Ctrl-C, a crash or a
//! lost terminal resumes it, and a roll for a different request is refused (exit 2) until the
//! saved one is finished or discarded with `--discard-state`. A finished or aborted roll
//! deletes its state; an interrupted one keeps it.
//!
//! The selection is the set of keys of the engine's requests: every selected node is there,
//! and unhealthy nodes outside it are listed in the plan as not restarted unless
//! `--include-unhealthy`.
//!
//! Before the plan it asks Cruise Control (when configured or found) whether it executes: no
//! node restarts during an execution, and reassignments no execution owns are named (see
//! `roll/movers.rs`).
//!
//! Exit codes: 0 done; 1 refused by a safety check, aborted by the engine or a failed restart
//! command; 2 usage (unknown node ids, bad desired config, no restart command, a broker-state
//! list `ID=URL,...` without an entry for a broker); 3 a node did
//! not serve again in time (or a restart command timed out); 5 Cruise Control executes (a new
//! roll refuses; a running one aborts when it has waited `--blocked-timeout`), or `--strict`
//! with reassignments Cruise Control did not start; 6 the cluster, or Cruise Control, is
//! unreachable; 130 stopped by Ctrl-C between batches.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::Ctx;
use crate::cli::kraft::UpgradeArgs;
use crate::cli::roll::{RoleFilter, RollArgs, RollRunArgs};
use crate::driver::{ActionRecord, Event, Progress};
use crate::engine::model::{ClusterSnapshot, NodeId};
use crate::engine::operator_guard::Action;
use crate::engine::roll::{Plan, PlanStep};
use crate::error::{CliError, ExitCode};
use crate::output::Printer;
use crate::platform::kube::{KubeConn, KubePlatform};

mod args;
mod execute;
mod gate;
mod movers;
mod plan;
mod render;

use args::Spec;
pub use args::{Selection, parse_properties, pod_selector};
#[cfg(test)]
use args::{check_broker_state_list, desired_config, requests, roll_request, saved_run};
#[cfg(test)]
use gate::plan_warnings;
#[cfg(test)]
use plan::observation_notes;
pub(crate) use render::Document;
pub(crate) use render::StderrProgress;
use render::emit_result;
#[cfg(test)]
use render::render_summary;
pub use render::{ActionView, ResultDoc, render_plan};

/// Runs `kafkaops roll`.
pub async fn run(ctx: &Ctx, args: RollArgs) -> Result<ExitCode, CliError> {
    let spec = Spec::resolve(&args, ctx.strimzi())?;
    run_spec(ctx, &args.run, &spec).await
}

/// Runs `kafkaops upgrade --to RELEASE`: the roll of every node not yet on that release's
/// software, each checked on it after its restart (see [`crate::app::roll::SoftwareTarget`]).
pub async fn upgrade(ctx: &Ctx, args: UpgradeArgs) -> Result<ExitCode, CliError> {
    let release = args.to.as_deref().unwrap_or_default();
    let spec = Spec::upgrade(&args.roll, ctx.strimzi(), release)?;
    run_spec(ctx, &args.roll, &spec).await
}

async fn run_spec(ctx: &Ctx, args: &RollRunArgs, spec: &Spec) -> Result<ExitCode, CliError> {
    // A Strimzi operator that is not paused, or its KafkaRebalance executing, would race the
    // roll: refused before anything is touched (a dry run only warns).
    let action = if args.dry_run {
        Action::DryRun
    } else {
        Action::Roll
    };
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, args.force, &ctx.printer)
        .await?;
    // Kubernetes (the bootstrap address of a Strimzi cluster is already in the settings).
    let kube = match &spec.pods {
        Some(_) => Some(ctx.kube().connect().await.map_err(anyhow::Error::from)?),
        None => None,
    };
    // One roll per cluster (Kubernetes): the lease is taken before the cluster is looked at
    // (a second roll says who holds it instead of judging, or failing to observe, a cluster the
    // first one is rolling), held and renewed until the roll ends, and released on every way out.
    let lease = match (&kube, &spec.pods) {
        (Some(conn), Some(sel)) if !args.dry_run => Some(
            KubePlatform::new(conn.clone(), sel.clone(), args.command_timeout)
                .take_lease(crate::app::roll::LEASE_DURATION)
                .await
                .map_err(anyhow::Error::from)?,
        ),
        _ => None,
    };
    let result = roll(ctx, args, spec, kube.as_ref()).await;
    if let Some(lease) = lease {
        lease.release().await;
    }
    result
}

/// Plans the roll, shows the plan and runs it once it passes the gate.
async fn roll(
    ctx: &Ctx,
    args: &RollRunArgs,
    spec: &Spec,
    kube: Option<&KubeConn>,
) -> Result<ExitCode, CliError> {
    let planned = plan::plan(ctx, args, spec, kube).await?;
    match gate::check(ctx, args, &planned)? {
        gate::Gate::Stop(code) => Ok(code),
        gate::Gate::Go => execute::execute(ctx, args, spec, planned).await,
    }
}

fn join(ids: &[NodeId]) -> String {
    ids.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn join_or_none(ids: &[NodeId]) -> String {
    if ids.is_empty() {
        "none".into()
    } else {
        join(ids)
    }
}

#[cfg(test)]
mod tests;
