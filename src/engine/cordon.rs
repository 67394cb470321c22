//! Broker cordoning (KIP-1066, Kafka 4.3+): a broker whose `cordoned.log.dirs` is set takes no
//! new partitions, so topics created while a broker is drained do not land on it.
//!
//! Pure decisions: what a broker's configs say about cordoning (supported at all? cordoned?),
//! and, after a `rebalance remove`, whether the brokers kafkaops cordoned for it must be
//! uncordoned (the removal did not happen: nothing moved, it was stopped or failed) or stay
//! cordoned (it completed or still runs, the brokers are leaving).

use crate::engine::cc_flow::{AfterInterrupt, Outcome, Stage};
use crate::engine::view::ConfigEntry;

/// The broker config of KIP-1066.
pub const CORDON_KEY: &str = "cordoned.log.dirs";
/// Cordons every log dir of a broker.
pub const CORDON_ALL: &str = "*";

/// What a broker's configs say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CordonState {
    /// The broker does not know `cordoned.log.dirs` (Kafka before 4.3).
    Unsupported,
    NotCordoned,
    /// Cordoned log dirs (`*` = all).
    Cordoned(String),
}

/// Reads the cordon state from a broker's full config list (DescribeConfigs lists every key the
/// broker knows, defaults included, so a missing key means the broker predates KIP-1066).
#[must_use]
pub fn cordon_state(entries: &[ConfigEntry]) -> CordonState {
    match entries.iter().find(|e| e.name == CORDON_KEY) {
        None => CordonState::Unsupported,
        Some(e) => match e.value.as_deref().map(str::trim) {
            Some(v) if !v.is_empty() => CordonState::Cordoned(v.to_string()),
            _ => CordonState::NotCordoned,
        },
    }
}

/// After a `rebalance remove` run: must the brokers kafkaops cordoned for it be uncordoned?
/// Yes when the removal did not (and will not) take place: a dry run, nothing to do, refused,
/// declined, drifted past the approved plan, not ready, busy, stopped or failed, an error before
/// the execution request.
/// No while it runs on or completed, or when it is unknown whether it started.
#[must_use]
pub fn uncordon_after(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Proposed
        | Outcome::NothingToDo
        | Outcome::NotReady { .. }
        | Outcome::Busy { .. }
        | Outcome::Rejected { .. }
        | Outcome::Declined
        | Outcome::Drifted { .. }
        | Outcome::Failed { .. } => true,
        Outcome::Interrupted { after, .. } => matches!(
            after,
            AfterInterrupt::NothingStarted | AfterInterrupt::StopRequested
        ),
        Outcome::Error { stage, .. } => {
            matches!(stage, Stage::Readiness | Stage::Input | Stage::Proposal)
        }
        Outcome::Started { .. }
        | Outcome::Completed { .. }
        | Outcome::TaskLost { .. }
        | Outcome::TimedOut { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::ConfigSource;

    fn entry(name: &str, value: Option<&str>) -> ConfigEntry {
        ConfigEntry {
            name: name.into(),
            value: value.map(str::to_string),
            read_only: false,
            source: ConfigSource::Default,
            sensitive: false,
        }
    }

    #[test]
    fn states() {
        assert_eq!(
            cordon_state(&[entry("log.dirs", Some("/d"))]),
            CordonState::Unsupported
        );
        assert_eq!(
            cordon_state(&[entry(CORDON_KEY, None)]),
            CordonState::NotCordoned
        );
        assert_eq!(
            cordon_state(&[entry(CORDON_KEY, Some(""))]),
            CordonState::NotCordoned
        );
        assert_eq!(
            cordon_state(&[entry(CORDON_KEY, Some("*"))]),
            CordonState::Cordoned("*".into())
        );
    }

    #[test]
    fn uncordon_only_when_the_removal_did_not_happen() {
        assert!(uncordon_after(&Outcome::Failed { task_id: None }));
        assert!(uncordon_after(&Outcome::Declined));
        assert!(uncordon_after(&Outcome::Drifted {
            reasons: vec!["moved".into()]
        }));
        assert!(uncordon_after(&Outcome::Interrupted {
            task_id: None,
            after: AfterInterrupt::StopRequested
        }));
        assert!(!uncordon_after(&Outcome::Interrupted {
            task_id: None,
            after: AfterInterrupt::LeftRunning
        }));
        assert!(!uncordon_after(&Outcome::Completed { task_id: None }));
        assert!(!uncordon_after(&Outcome::Started { task_id: None }));
    }
}
