//! May kafkaops act on a cluster that a Strimzi cluster operator manages?
//!
//! With Strimzi in charge, a roll or a Cruise Control execution started from outside races the
//! operator: it rolls pods itself (its KafkaRoller, on every reconciliation that finds a reason)
//! and runs its own `KafkaRebalance` executions through the same Cruise Control. Users of
//! Strimzi report exactly these collisions, so kafkaops looks first (the Kubernetes adapter,
//! Strimzi discovery's `observe_operator`, reads the `Kafka` resource and the cluster's
//! `KafkaRebalance`s) and this pure function decides:
//!
//! - the `Kafka` resource exists and its reconciliation is not paused (annotation
//!   `strimzi.io/pause-reconciliation: "true"`, case-insensitive as Strimzi reads it): a roll, a
//!   mutating rebalance or a replication-factor change is refused, naming the `kubectl annotate`
//!   that pauses it;
//! - a `KafkaRebalance` of the cluster (label `strimzi.io/cluster`) is `Rebalancing` (its status
//!   condition type, Strimzi's state): Cruise Control is executing the operator's rebalance, so a
//!   new execution (or a roll, which would restart brokers under it) is refused, naming it; this
//!   holds even with reconciliation paused, since pausing the `Kafka` does not stop an execution
//!   Cruise Control already runs;
//! - `--force` turns each refusal into a warning; a dry run is never refused (it warns);
//!   stopping an execution is always allowed (it ends a race, it cannot start one) and says
//!   nothing.
//!
//! No `Kafka` resource means no Strimzi operator manages this cluster: nothing to say.
//!
//! `operate` (not implemented yet, issue #11) must take its decision from [`decide`] too, and
//! never act where it refuses (it has no `--force`).

use serde::Serialize;

/// What the Kubernetes API showed about the operator's side of one Strimzi cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OperatorView {
    /// The `Kafka` resource's name (`--strimzi CLUSTER`).
    pub cluster: String,
    pub namespace: String,
    /// The `Kafka` resource, if it exists.
    pub kafka: Option<KafkaResource>,
    /// The `KafkaRebalance`s labelled `strimzi.io/cluster=CLUSTER`.
    pub rebalances: Vec<RebalanceResource>,
}

/// The part of a `Kafka` resource the decision needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KafkaResource {
    /// The value of its `strimzi.io/pause-reconciliation` annotation, if any.
    pub pause_annotation: Option<String>,
}

impl KafkaResource {
    /// Strimzi pauses when the annotation reads `true` (Java's `Boolean.parseBoolean`).
    #[must_use]
    pub fn paused(&self) -> bool {
        self.pause_annotation
            .as_deref()
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    }
}

/// The part of a `KafkaRebalance` the decision needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RebalanceResource {
    pub name: String,
    /// The types of its status conditions whose status is not `False` (Strimzi keeps one: the
    /// rebalance's state, e.g. `ProposalReady`, `Rebalancing`, `Ready`).
    pub states: Vec<String>,
}

impl RebalanceResource {
    #[must_use]
    pub fn rebalancing(&self) -> bool {
        self.states.iter().any(|s| s == "Rebalancing")
    }
}

/// What the command is about to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A preview: changes nothing (`roll --dry-run`, a rebalance or set-rf without `--execute`).
    DryRun,
    /// `roll`: restarts pods.
    Roll,
    /// A Cruise Control execution (`rebalance add|remove|full|imbalance --execute`,
    /// `topic set-rf --execute`); the text names it in messages.
    Execute(&'static str),
    /// Stopping an execution (`rebalance stop`).
    Stop,
}

impl Action {
    fn describe(self) -> &'static str {
        match self {
            Action::DryRun => "roll or execution",
            Action::Roll => "roll",
            Action::Execute(what) => what,
            Action::Stop => "stop",
        }
    }
}

/// The decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Go on, printing these warnings first (empty: nothing to say).
    Go { warnings: Vec<String> },
    /// Do not start: the error says why and how to clear it.
    Refuse(OperatorActive),
}

/// The Strimzi operator (or one of its rebalances) is active: kafkaops must not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("refusing the {action}: {}; or pass --force to go on anyway; nothing was changed", .reasons.join("; "))]
pub struct OperatorActive {
    pub action: String,
    /// One sentence per reason, each with how to clear it.
    pub reasons: Vec<String>,
}

/// The command that pauses the operator's reconciliation of `cluster`.
#[must_use]
pub fn pause_command(cluster: &str, namespace: &str) -> String {
    format!("kubectl annotate kafka {cluster} -n {namespace} strimzi.io/pause-reconciliation=true")
}

/// The reasons the operator makes `action` unsafe now, each with its remedy.
fn reasons(view: &OperatorView, action: Action) -> Vec<String> {
    let (c, ns) = (&view.cluster, &view.namespace);
    let mut out = Vec::new();
    if let Some(k) = &view.kafka
        && !k.paused()
    {
        out.push(format!(
            "the Strimzi cluster operator manages Kafka cluster {c} in namespace {ns} and its \
             reconciliation is not paused, so a {} from outside races the operator's own rolls \
             and KafkaRebalances; pause it first with `{}` (and resume it afterwards with \
             `kubectl annotate kafka {c} -n {ns} strimzi.io/pause-reconciliation-`)",
            action.describe(),
            pause_command(c, ns)
        ));
    }
    for r in view.rebalances.iter().filter(|r| r.rebalancing()) {
        out.push(format!(
            "KafkaRebalance {} of cluster {c} in namespace {ns} is Rebalancing (Cruise Control \
             is executing it); wait for it to end or stop it with `kubectl annotate \
             kafkarebalance {} -n {ns} strimzi.io/rebalance=stop`",
            r.name, r.name
        ));
    }
    out
}

/// Refuse or go, with what to say. Pure: the observation, the action and `--force` in.
#[must_use]
pub fn decide(view: &OperatorView, action: Action, force: bool) -> Decision {
    if action == Action::Stop {
        return Decision::Go {
            warnings: Vec::new(),
        };
    }
    let found = reasons(view, action);
    if found.is_empty() {
        return Decision::Go {
            warnings: Vec::new(),
        };
    }
    match action {
        Action::DryRun => Decision::Go {
            warnings: found
                .into_iter()
                .map(|r| format!("Warning: {r}; an execution would be refused unless --force"))
                .collect(),
        },
        _ if force => Decision::Go {
            warnings: found
                .into_iter()
                .map(|r| format!("Warning: --force: going on although {r}"))
                .collect(),
        },
        _ => Decision::Refuse(OperatorActive {
            action: action.describe().to_string(),
            reasons: found,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(kafka: Option<Option<&str>>, rebalances: &[(&str, &[&str])]) -> OperatorView {
        OperatorView {
            cluster: "my-cluster".into(),
            namespace: "kafka".into(),
            kafka: kafka.map(|a| KafkaResource {
                pause_annotation: a.map(str::to_string),
            }),
            rebalances: rebalances
                .iter()
                .map(|(n, s)| RebalanceResource {
                    name: (*n).into(),
                    states: s.iter().map(|x| (*x).to_string()).collect(),
                })
                .collect(),
        }
    }

    const EXEC: Action = Action::Execute("rebalance full --execute");

    fn refused(d: &Decision) -> OperatorActive {
        match d {
            Decision::Refuse(e) => e.clone(),
            Decision::Go { .. } => panic!("expected a refusal, got {d:?}"),
        }
    }

    #[test]
    fn an_unpaused_operator_refuses_rolls_and_executions_with_the_pause_command() {
        let v = view(Some(None), &[]);
        for action in [Action::Roll, EXEC] {
            let e = refused(&decide(&v, action, false));
            let s = e.to_string();
            assert!(
                s.contains(
                    "`kubectl annotate kafka my-cluster -n kafka strimzi.io/pause-reconciliation=true`"
                ),
                "{s}"
            );
            assert!(s.contains(action.describe()), "{s}");
            assert!(
                s.contains("--force") && s.contains("nothing was changed"),
                "{s}"
            );
        }
        // Any other annotation value does not pause it.
        let v = view(Some(Some("false")), &[]);
        assert!(matches!(
            decide(&v, Action::Roll, false),
            Decision::Refuse(_)
        ));
    }

    #[test]
    fn paused_or_absent_means_go_silently() {
        for v in [
            view(Some(Some("true")), &[]),
            view(Some(Some("TRUE")), &[("old", &["Ready"])]),
            view(None, &[]),
        ] {
            for action in [Action::Roll, EXEC, Action::DryRun, Action::Stop] {
                assert_eq!(
                    decide(&v, action, false),
                    Decision::Go { warnings: vec![] },
                    "{v:?} {action:?}"
                );
            }
        }
    }

    #[test]
    fn a_rebalancing_kafka_rebalance_blocks_even_when_paused_and_is_named() {
        let v = view(
            Some(Some("true")),
            &[("done", &["Ready"]), ("busy", &["Rebalancing"])],
        );
        let e = refused(&decide(&v, EXEC, false));
        assert_eq!(e.reasons.len(), 1, "{e}");
        assert!(e.reasons[0].contains("KafkaRebalance busy"), "{e}");
        assert!(
            e.reasons[0].contains(
                "kubectl annotate kafkarebalance busy -n kafka strimzi.io/rebalance=stop"
            ),
            "{e}"
        );
        assert!(!e.to_string().contains("done"), "{e}");
        assert!(matches!(
            decide(&v, Action::Roll, false),
            Decision::Refuse(_)
        ));
        // Unpaused too: both reasons.
        let v = view(Some(None), &[("busy", &["Rebalancing"])]);
        assert_eq!(refused(&decide(&v, EXEC, false)).reasons.len(), 2);
    }

    #[test]
    fn force_and_dry_runs_go_with_warnings_and_stop_always_goes() {
        let v = view(Some(None), &[("busy", &["Rebalancing"])]);
        match decide(&v, Action::Roll, true) {
            Decision::Go { warnings } => {
                assert_eq!(warnings.len(), 2);
                assert!(warnings.iter().all(|w| w.starts_with("Warning: --force")));
                assert!(warnings[0].contains("pause-reconciliation=true"));
            }
            d => panic!("{d:?}"),
        }
        match decide(&v, Action::DryRun, false) {
            Decision::Go { warnings } => {
                assert_eq!(warnings.len(), 2);
                assert!(warnings[0].contains("would be refused unless --force"));
            }
            d => panic!("{d:?}"),
        }
        assert_eq!(
            decide(&v, Action::Stop, false),
            Decision::Go { warnings: vec![] }
        );
    }
}
