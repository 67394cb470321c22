//! Why following an execution ended, as the `-o json|yaml` document says it (issue #26).
//!
//! A script that follows an execution (`rebalance status --task ID --follow`, `rebalance
//! add|remove|full|... --execute` without `--no-wait`) gets one document on stdout however the
//! following ends: the execution finished, the operator left it running at the Ctrl-C menu,
//! `--follow-timeout` passed, Ctrl-C without a terminal or SIGTERM left it running, or a stop
//! was asked. The document's `follow.ended` says which; the exit code stays the one the
//! README's table gives that case (0, 0, 3, 130, 143, 130).

use serde::Serialize;

use crate::engine::cc_flow::{AfterInterrupt, Outcome};

/// Why following the execution ended.
#[derive(schemars::JsonSchema, Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FollowEnded {
    /// The execution ended (completed, failed, stopped, or forgotten by Cruise Control): the
    /// document's status says how.
    Finished,
    /// The operator chose "Leave it running" at the Ctrl-C menu; it keeps running (exit 0).
    LeftRunning,
    /// `--follow-timeout` passed; the execution keeps running (exit 3).
    Timeout,
    /// Ctrl-C with nobody to ask (no terminal) or a second Ctrl-C: left running (exit 130).
    Interrupted,
    /// SIGTERM (a cancelled CI job, a deleted pod): left running (exit 143).
    Terminated,
    /// Ctrl-C, then "Stop it": Cruise Control accepted the stop request (exit 130).
    StopRequested,
    /// Ctrl-C, then "Stop it", but the stop request failed: it may still run (exit 130).
    StopFailed,
}

/// The `follow` object of a document whose command followed an execution.
#[derive(schemars::JsonSchema, Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FollowView {
    pub ended: FollowEnded,
    /// `--follow-timeout` (`null`: followed as long as it runs).
    pub follow_timeout_ms: Option<u64>,
}

/// Why following ended, from the flow's outcome (pure): `None` when nothing was followed (a dry
/// run, `--no-wait`, nothing executed, interrupted before the execution request).
/// `chose_leave`: the operator chose "Leave it running"; `terminated`: SIGTERM interrupted.
#[must_use]
pub fn follow_ended(outcome: &Outcome, chose_leave: bool, terminated: bool) -> Option<FollowEnded> {
    Some(match outcome {
        Outcome::Completed { .. } | Outcome::Failed { .. } | Outcome::TaskLost { .. } => {
            FollowEnded::Finished
        }
        Outcome::TimedOut { .. } => FollowEnded::Timeout,
        Outcome::Interrupted { after, .. } => match after {
            AfterInterrupt::NothingStarted => return None,
            AfterInterrupt::LeftRunning if chose_leave => FollowEnded::LeftRunning,
            AfterInterrupt::LeftRunning if terminated => FollowEnded::Terminated,
            AfterInterrupt::LeftRunning => FollowEnded::Interrupted,
            AfterInterrupt::StopRequested => FollowEnded::StopRequested,
            AfterInterrupt::StopFailed => FollowEnded::StopFailed,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_following_ends_is_named_and_nothing_followed_is_none() {
        let t = || Some("t-1".to_string());
        let int = |after| Outcome::Interrupted {
            task_id: t(),
            after,
        };
        use FollowEnded as E;
        let cases = [
            (
                Outcome::Completed { task_id: t() },
                false,
                false,
                Some(E::Finished),
            ),
            (
                Outcome::Failed { task_id: t() },
                false,
                false,
                Some(E::Finished),
            ),
            (
                Outcome::TaskLost {
                    task_id: "t-1".into(),
                },
                false,
                false,
                Some(E::Finished),
            ),
            (
                Outcome::TimedOut { task_id: t() },
                false,
                false,
                Some(E::Timeout),
            ),
            (
                int(AfterInterrupt::LeftRunning),
                true,
                false,
                Some(E::LeftRunning),
            ),
            (
                int(AfterInterrupt::LeftRunning),
                false,
                true,
                Some(E::Terminated),
            ),
            (
                int(AfterInterrupt::LeftRunning),
                false,
                false,
                Some(E::Interrupted),
            ),
            (
                int(AfterInterrupt::StopRequested),
                false,
                false,
                Some(E::StopRequested),
            ),
            (
                int(AfterInterrupt::StopFailed),
                false,
                false,
                Some(E::StopFailed),
            ),
            (int(AfterInterrupt::NothingStarted), true, true, None),
            (Outcome::Started { task_id: t() }, false, false, None),
            (Outcome::Proposed, false, false, None),
            (Outcome::NothingToDo, false, false, None),
            (Outcome::Declined, false, false, None),
        ];
        for (outcome, chose, term, want) in cases {
            assert_eq!(follow_ended(&outcome, chose, term), want, "{outcome:?}");
        }
        let v = serde_json::to_value(FollowView {
            ended: E::LeftRunning,
            follow_timeout_ms: None,
        })
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"ended": "left-running", "follow_timeout_ms": null})
        );
    }
}
