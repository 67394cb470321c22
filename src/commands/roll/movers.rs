//! Before and during a roll: who else moves data (issue 23, point 10).
//!
//! A roll that restarts a broker while Cruise Control executes kills the execution's tasks
//! on it ("the new replica is down"): Cruise Control stops, leaving its throttles and
//! reassignments behind. So when Cruise Control is configured (or found through `--strimzi`),
//! the roll asks its executor first, with the rule every mover of ours shares
//! ([`crate::engine::movers::other_movers`], what `operate` waits on): while an execution runs
//! no node is restarted or reconfigured ([`crate::engine::roll::other_mover_block`]). A new roll
//! refuses at once (exit 5, naming the task and saying the block clears when it ends; exit 6
//! when Cruise Control cannot be asked); a running or resumed one waits, asking again before
//! each decision ([`crate::driver::kafka_io::KafkaRollIo::with_cruise_control`]). `--force`
//! rolls anyway, with a warning. Reassignments in flight that no Cruise Control execution owns
//! are named in the plan and in the confirmation (each restart is judged on the ISR as it will
//! be once they complete) and refused under `--strict` (exit 5).

use std::time::{Duration, Instant};

use crate::cruise_control::{CruiseControlClient, LogObserver};
use crate::engine::movers::{self, CruiseControlView, OtherMovers, Owner, ReassignmentView};
use crate::engine::roll::{RollError, other_mover_block};
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::KafkaObservation;

use super::Ctx;

/// What the roll learnt about other movers before it started.
pub(super) struct Movers {
    /// Cruise Control's side and the reassignments no execution owns.
    pub(super) others: OtherMovers,
    /// The client to ask again during the roll (`None`: no Cruise Control).
    pub(super) client: Option<CruiseControlClient>,
}

/// Asks Cruise Control's executor (when one is configured or found) and sorts the observed
/// reassignments by owner.
///
/// # Errors
/// The Cruise Control settings cannot make a client (e.g. an unreadable CA file).
pub(super) async fn observe(
    ctx: &Ctx,
    observation: &KafkaObservation,
    request_timeout: Duration,
) -> Result<Movers, CliError> {
    let (view, client) = if let Some(e) = &ctx.cruise_control_discovery {
        (
            CruiseControlView::Unreachable(format!(
                "it could not be found from the Strimzi resources: {e}"
            )),
            None,
        )
    } else if ctx.settings.cruise_control.url.is_some() {
        let client = crate::app::clients::cruise_control(
            &ctx.settings.cruise_control,
            crate::app::clients::CcOptions::default(),
        )?;
        let view = client
            .executor_view(Instant::now() + request_timeout, &LogObserver)
            .await;
        (view, Some(client))
    } else {
        (CruiseControlView::NotAsked, None)
    };
    let isr = observation
        .topics
        .iter()
        .flat_map(|t| {
            t.partitions
                .iter()
                .map(|p| ((t.name.clone(), p.partition), p.isr.clone()))
        })
        .collect();
    Ok(Movers {
        others: movers::other_movers(view, &observation.reassignments, &isr),
        client,
    })
}

/// `orders-0, orders-3`.
fn partitions(views: &[ReassignmentView]) -> String {
    views
        .iter()
        .map(|v| format!("{}-{}", v.topic, v.partition))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The plan's notes about other movers.
pub(super) fn notes(m: &Movers, force: bool) -> Vec<String> {
    let mut out = Vec::new();
    if force && let Some(block) = other_mover_block(&m.others.cruise_control) {
        out.push(format!("--force: rolling anyway although {block}"));
    }
    if !m.others.external.is_empty() {
        let who = if m.others.external.iter().all(|v| v.owner == Owner::External) {
            "not started by Cruise Control (its executor is idle)"
        } else {
            "that no Cruise Control execution is known to own (Cruise Control was not asked)"
        };
        out.push(format!(
            "{} partition reassignment(s) in flight {who}: {}; each restart is judged on the \
             ISR as it will be once they complete (--strict refuses the roll while they run)",
            m.others.external.len(),
            movers::describe(&m.others.external)
        ));
    }
    out
}

/// What the confirmation adds about other movers ("" when nothing else moves).
pub(super) fn confirmation(m: &Movers) -> String {
    if m.others.external.is_empty() {
        return String::new();
    }
    format!(
        "; {} partition reassignment(s) in flight not started by Cruise Control: {}",
        m.others.external.len(),
        partitions(&m.others.external)
    )
}

/// The refusal of a new roll while Cruise Control executes or cannot be asked (`None`: go on).
pub(super) fn refusal(m: &Movers, force: bool) -> Option<(ExitCode, String)> {
    if force {
        return None;
    }
    let block = other_mover_block(&m.others.cruise_control)?;
    let (code, hint) = match &block {
        RollError::CruiseControlExecuting { task, .. } => (
            ExitCode::Busy,
            format!(
                "follow it with `kafkaops rebalance status{}` and run the roll again once it \
                 has ended, or pass --force to roll anyway",
                task.as_deref()
                    .map(|t| format!(" --task {t} --follow"))
                    .unwrap_or_default()
            ),
        ),
        _ => (
            ExitCode::Unreachable,
            "pass --force to roll without asking".to_string(),
        ),
    };
    Some((
        code,
        format!("refusing to start the roll: {block}; nothing was changed ({hint})"),
    ))
}

/// `--strict` with reassignments in flight that no Cruise Control execution owns.
pub(super) fn strict_refusal(m: &Movers, strict: bool) -> Option<String> {
    (strict && !m.others.external.is_empty()).then(|| {
        format!(
            "--strict: {} partition reassignment(s) not started by Cruise Control are in \
             flight: {}; the roll starts once they have completed (or cancel them with \
             `kafkaops reassignments cancel`); nothing was changed",
            m.others.external.len(),
            movers::describe(&m.others.external)
        )
    })
}

/// A refusal as the command's error.
pub(super) fn error(code: ExitCode, message: String) -> CliError {
    CliError::new(code, CodedError::new(code, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movers::Execution;
    use crate::engine::view::Reassignment;

    fn movers(view: CruiseControlView, reassignments: &[Reassignment]) -> Movers {
        Movers {
            others: movers::other_movers(view, reassignments, &std::collections::BTreeMap::new()),
            client: None,
        }
    }

    fn moving() -> Vec<Reassignment> {
        vec![Reassignment {
            topic: "orders".into(),
            partition: 3,
            replicas: vec![1, 2, 4],
            adding: vec![4],
            removing: vec![1],
        }]
    }

    #[test]
    fn a_roll_refuses_during_an_execution_naming_the_task_unless_forced() {
        let executing = CruiseControlView::Executing(Execution {
            state: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS".into(),
            task: Some("abc".into()),
            description: "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS (task abc)".into(),
        });
        let m = movers(executing, &moving());
        let (code, msg) = refusal(&m, false).expect("refused");
        assert_eq!(code, ExitCode::Busy);
        assert!(
            msg.contains("task abc")
                && msg.contains("the block clears when the execution ends")
                && msg.contains("kafkaops rebalance status --task abc --follow")
                && msg.contains("--force"),
            "{msg}"
        );
        // The execution's own reassignments are not "someone else's".
        assert!(notes(&m, false).is_empty());
        assert_eq!(confirmation(&m), "");
        assert_eq!(strict_refusal(&m, true), None);
        // --force: a note instead.
        assert_eq!(refusal(&m, true), None);
        assert!(notes(&m, true)[0].starts_with("--force: rolling anyway although Cruise Control"));
        // Cannot be asked: exit 6.
        let m = movers(CruiseControlView::Unreachable("refused".into()), &[]);
        assert_eq!(refusal(&m, false).unwrap().0, ExitCode::Unreachable);
        // Idle or not configured: no refusal.
        assert_eq!(
            refusal(&movers(CruiseControlView::Idle, &moving()), false),
            None
        );
        assert_eq!(
            refusal(&movers(CruiseControlView::NotAsked, &moving()), false),
            None
        );
    }

    #[test]
    fn reassignments_nobody_owns_are_named_and_refused_under_strict() {
        let m = movers(CruiseControlView::Idle, &moving());
        let n = notes(&m, false);
        assert!(
            n[0].contains("not started by Cruise Control (its executor is idle)")
                && n[0].contains("orders-3 (adding 4, removing 1"),
            "{n:?}"
        );
        assert_eq!(
            confirmation(&m),
            "; 1 partition reassignment(s) in flight not started by Cruise Control: orders-3"
        );
        assert!(strict_refusal(&m, true).unwrap().contains("orders-3"));
        assert_eq!(strict_refusal(&m, false), None);
        let m = movers(CruiseControlView::NotAsked, &moving());
        assert!(notes(&m, false)[0].contains("Cruise Control was not asked"));
    }
}
