//! The guards every cluster-changing use case runs first: is a Strimzi-style operator managing
//! the cluster ([`operator`]), and are partition reassignments that Cruise Control did not start
//! in flight ([`external_reassignments`])?
//!
//! The CLI's `roll`, `rebalance`, `topic set-rf` and `pace` and (through the engine's rules)
//! `operate` ask the same questions, so they are asked here once. The decisions are the
//! engine's ([`crate::engine::operator_guard`], [`crate::engine::movers`]); this is the shell
//! that reads what they decide on and reports what a person should know through a
//! [`Reporter`]. A refusal is a typed error ([`crate::engine::operator_guard::OperatorActive`],
//! [`ExternalReassignments`]) that the edge maps to its exit code (5).
//!
//! Why the reassignments guard: Cruise Control refuses to execute while reassignments it did
//! not start are in flight ("Cannot execute new proposals while there are ongoing partition
//! reassignments initiated by external agent"), or with `auto.stop.external.agent=true`
//! cancels them without a word. Either way the operator should see them first, with who
//! started them and how far they got. Reads come from the Kafka Admin API (the wire path:
//! librdkafka has no ListPartitionReassignments); whether Cruise Control is executing comes
//! from its `state` endpoint.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::Reporter;
use crate::cruise_control::LogObserver;
use crate::engine::movers::{
    self, CruiseControlView, ExecutorView, ExternalReassignments, ReassignmentView, blocking,
    classify,
};
use crate::engine::operator_guard::{Action, Decision, decide};
use crate::kafka::{KafkaAdmin, KafkaClient};
use crate::platform::kube::KubeTarget;
use crate::settings::{CruiseControlSettings, Settings};

// ---------------------------------------------------------------------------------------------
// The operator guard
// ---------------------------------------------------------------------------------------------

/// Before acting on a Strimzi cluster (`cluster`, from `--strimzi`): is its operator active?
/// Reads the `Kafka` resource and the cluster's `KafkaRebalance`s
/// ([`crate::platform::kube::strimzi::observe_operator`]) through `kube`. Without a Strimzi
/// cluster there is no resource to look at and nothing is checked. When the resources cannot be
/// read, an action is refused with the Kubernetes error (it names the missing permission); a
/// dry run or `force` goes on with a warning instead. `Ok` means go (warnings reported).
///
/// # Errors
/// The operator or one of its rebalances is active
/// ([`crate::engine::operator_guard::OperatorActive`]), or its resources cannot be read.
pub async fn operator(
    kube: &KubeTarget,
    cluster: Option<&str>,
    action: Action,
    force: bool,
    reporter: &dyn Reporter,
) -> anyhow::Result<()> {
    let Some(cluster) = cluster else {
        return Ok(());
    };
    let lenient = force || action == Action::DryRun;
    let observed = async {
        let conn = kube.connect().await?;
        crate::platform::kube::strimzi::observe_operator(&conn, cluster).await
    }
    .await;
    let view = match observed {
        Ok(v) => v,
        Err(e) if lenient => {
            reporter.note(&format!(
                "Warning: cannot tell whether the Strimzi operator is active ({e}); going on"
            ));
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    match decide(&view, action, force) {
        Decision::Go { warnings } => {
            for w in warnings {
                reporter.note(&w);
            }
            Ok(())
        }
        Decision::Refuse(e) => Err(e.into()),
    }
}

// ---------------------------------------------------------------------------------------------
// Reassignments Cruise Control did not start
// ---------------------------------------------------------------------------------------------

/// Connects to Kafka to look at the reassignments in flight (a failure reads "cannot connect
/// to the Kafka cluster", the Kafka error in its chain).
///
/// # Errors
/// No bootstrap servers, or the connection fails.
pub async fn kafka(settings: &Settings, request_timeout: Duration) -> anyhow::Result<KafkaClient> {
    super::clients::kafka(
        &settings.kafka,
        request_timeout,
        Some("cannot connect to the Kafka cluster"),
    )
    .await
}

/// What Cruise Control's executor is doing; `Unknown` without a configured or reachable Cruise
/// Control (logged: the reassignments' owner is then unknown, nothing fails).
pub async fn executor_view(
    settings: &CruiseControlSettings,
    request_timeout: Duration,
) -> ExecutorView {
    if settings.url.is_none() {
        return ExecutorView::Unknown;
    }
    let cc = match super::clients::cruise_control(settings, super::clients::CcOptions::default()) {
        Ok(cc) => cc,
        Err(e) => {
            tracing::warn!("cannot ask Cruise Control who started the reassignments: {e}");
            return ExecutorView::Unknown;
        }
    };
    let deadline = Instant::now() + request_timeout;
    let view = cc.executor_view(deadline, &LogObserver).await;
    if let CruiseControlView::Unreachable(e) = &view {
        tracing::warn!("cannot ask Cruise Control who started the reassignments: {e}");
    }
    view.executor()
}

/// The reassignments in flight, with ISR-based progress and an owner.
///
/// # Errors
/// The reassignments or their topics cannot be read.
pub async fn reassignments(
    kafka: &KafkaClient,
    executor: ExecutorView,
) -> anyhow::Result<Vec<ReassignmentView>> {
    let reassignments = kafka
        .list_reassignments()
        .await
        .context("cannot list the partition reassignments in flight")?;
    if reassignments.is_empty() {
        return Ok(Vec::new());
    }
    let mut topics: Vec<String> = reassignments.iter().map(|r| r.topic.clone()).collect();
    topics.sort();
    topics.dedup();
    let described = kafka
        .describe_topics(topics)
        .await
        .context("cannot describe the topics being reassigned")?;
    let isr: BTreeMap<(String, i32), Vec<i32>> = described
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| ((t.name.clone(), p.partition), p.isr.clone()))
        })
        .collect();
    Ok(classify(&reassignments, &isr, executor))
}

/// Before a Cruise Control execution: refuses (with the list) while reassignments not started
/// by Cruise Control are in flight, or waits up to `wait` (looking every `poll`) for them to
/// end. Without Kafka bootstrap servers it cannot look and says so (Cruise Control then decides
/// alone).
///
/// # Errors
/// [`ExternalReassignments`] still in flight after `wait`, or Kafka cannot be read.
pub async fn external_reassignments(
    settings: &Settings,
    request_timeout: Duration,
    wait: Duration,
    poll: Duration,
    reporter: &dyn Reporter,
) -> anyhow::Result<()> {
    if settings.kafka.bootstrap_servers.is_none() {
        reporter.note(
            "Warning: no Kafka bootstrap servers given: cannot check for partition reassignments \
             that Cruise Control did not start (Cruise Control refuses or cancels them)",
        );
        return Ok(());
    }
    let kafka = kafka(settings, request_timeout).await?;
    // Cruise Control is asked who started the reassignments only once Kafka shows some: every
    // request to it holds one of its few user-task slots (reference section 13), and the common
    // case, nothing in flight, needs none.
    let mut executor = None;
    let started = Instant::now();
    let mut announced = false;
    loop {
        let in_flight = kafka
            .list_reassignments()
            .await
            .context("cannot list the partition reassignments in flight")?;
        if in_flight.is_empty() {
            if announced {
                reporter.note("The other reassignments have ended; going on.");
            }
            return Ok(());
        }
        let executor = match executor {
            Some(e) => e,
            None => {
                *executor.insert(executor_view(&settings.cruise_control, request_timeout).await)
            }
        };
        let found = blocking(&reassignments(&kafka, executor).await?);
        if found.is_empty() {
            if announced {
                reporter.note("The other reassignments have ended; going on.");
            }
            return Ok(());
        }
        if started.elapsed() + poll > wait {
            let waited = (!wait.is_zero())
                .then(|| humantime::format_duration(started.elapsed()).to_string());
            return Err(ExternalReassignments {
                in_flight: found,
                waited,
            }
            .into());
        }
        if !announced {
            reporter.note(&format!(
                "Waiting up to {} for {} partition reassignment(s) not started by Cruise Control: {}",
                humantime::format_duration(wait),
                found.len(),
                movers::describe(&found)
            ));
            announced = true;
        }
        tokio::time::sleep(poll).await;
    }
}
