//! `kafkaops topic set-rf`: replication-factor changes through Cruise Control, safe for CI.
//!
//! The shell around [`crate::engine::replicas`]: it reads the topics and brokers from Kafka
//! (the Kafka adapter), has the engine check the input and decide what to send, and runs the
//! shared Cruise Control flow ([`crate::driver::cc_flow`]) once per round with every
//! pending topic in one `topic_configuration` request (the JSON body groups topics by target
//! factor; names are escaped so the whole-name regex matches only them). A round that finds
//! Cruise Control busy leaves the changes pending and retries after the poll interval until
//! `--timeout`; a task Cruise Control forgot (restart) is sent again for the topics that have
//! not reached their target. After every round the real factors are read back from Kafka.
//!
//! Between steps the state ([`StateFile`](crate::app::topic::set_rf::StateFile): the engine's per-topic changes plus the flow's
//! state machine) is written atomically to `topic-set-rf.json` in the state directory, so
//! re-running the same command after an interruption (or `--no-wait`) follows the task it
//! started instead of starting over, and `kafkaops topic status` reports it (refreshed from Kafka and
//! Cruise Control's `user_tasks` when they are configured). A run for other topics leaves the
//! unfinished changes it did not name in the file untouched.
//!
//! # JSON output (`--output json`), a stable API
//!
//! [`SetRfView`]: `{"dry_run":bool,"execute":bool,"task_ids":[str],"proposal":{"replica_movements",
//! "leader_movements","data_to_move_mb","topics":[{"topic","named","replica_movements",
//! "leader_movements"}],"onto_held":[{"node","reason","partitions":[str]}]}|null,"topics":[{"topic",
//! "before","target","after","before_mix","after_mix","state":"pending"|"ongoing"|"done"|"failed",
//! "task_id","message"}]}`; `proposal.topics` is every topic Cruise Control's proposal touches, the
//! named ones first (a real server also moves other topics' leaders, reference section 14);
//! `proposal.onto_held` the held nodes (`kafkaops hold`) it places new replicas on (such a proposal
//! is never executed: exit 1); factors are `null` when a topic's partitions disagree, and
//! `before_mix`/`after_mix` are then `[smallest, largest]` (the table shows `2-3 (mixed)`).
//! `topic status` prints the same shape from the state file.
//!
//! Exit codes: 0 when every topic has its target (or for a dry run), 2 for bad input (nothing
//! changed), 5 when Cruise Control stayed busy until `--timeout` ... as in the README, and 7
//! (incomplete) when a change ran but a topic's factor did not change or the task ended
//! `CompletedWithError`.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use super::Ctx;
use super::shared::observe::CliObserver;
use crate::app::clients::CcOptions;
use crate::app::topic::set_rf::{self, Prepared, SetRfSpec};
use crate::cli::topic::{SetRfArgs, TopicCommand};
use crate::cruise_control::CruiseControlClient;
use crate::engine::operator_guard::Action;
use crate::engine::replicas::ReplicasState;
use crate::error::{CliError, CodedError, ExitCode};
use crate::kafka::KafkaClient;
use crate::output::Printer;

mod args;
mod hooks;
mod render;

pub use args::parse_desired;
use args::state_dir;
use hooks::TopicHooks;
use render::view;
pub use render::{SetRfView, TopicView, render};

/// The state file's name inside the state directory.
pub use crate::app::topic::set_rf::STATE_FILE;

/// Runs a `topic` subcommand.
pub async fn run(ctx: &Ctx, cmd: TopicCommand) -> Result<ExitCode, CliError> {
    match cmd {
        TopicCommand::SetRf(args) => set_rf(ctx, args).await,
        TopicCommand::Status(args) => {
            let path = state_dir(args.state_dir.as_deref())?.join(STATE_FILE);
            status(ctx, &ctx.printer.clone(), &path).await
        }
    }
}

// ---------------------------------------------------------------------------
// The command.
// ---------------------------------------------------------------------------

async fn set_rf(ctx: &Ctx, args: SetRfArgs) -> Result<ExitCode, CliError> {
    let path = state_dir(args.state_dir.as_deref())?.join(STATE_FILE);
    let printer = ctx.printer.clone();
    if args.status {
        return status(ctx, &printer, &path).await;
    }
    if args.topics.is_empty() && args.from_file.is_none() {
        return Err(CliError::usage(
            "name the topics: --topics a,b --replication-factor N, or --from-file FILE (`kafkaops topic status` shows recorded changes)",
        ));
    }
    let spec = args::spec(&args, ctx.global.yes, path, ctx.holds().await?)?;
    let kafka = crate::app::clients::kafka(
        &ctx.settings.kafka,
        ctx.request_timeout(),
        Some("cannot connect to the Kafka cluster"),
    )
    .await?;
    let prepared = set_rf::prepare(&kafka, &spec).await?;
    let cc = crate::app::clients::cruise_control(
        &ctx.settings.cruise_control,
        CcOptions::polling(args.poll_interval),
    )?;
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let hooks = TopicHooks {
        printer: &printer,
        named: &prepared.names.clone(),
        execute: args.execute,
        url: cc.url().to_string(),
        follow: Mutex::new(None),
    };
    // A Strimzi operator that is not paused, or its KafkaRebalance executing, would race this.
    let action = if args.execute {
        Action::Execute("replication-factor change")
    } else {
        Action::DryRun
    };
    crate::app::guards::operator(&ctx.kube(), ctx.strimzi(), action, args.force, &printer).await?;
    let run = Run {
        cc: &cc,
        spec: &spec,
        hooks: &hooks,
        obs: &obs,
        printer: &printer,
    };
    if !args.execute {
        return run.preview(prepared).await;
    }
    crate::app::guards::external_reassignments(
        &ctx.settings,
        ctx.request_timeout(),
        args.wait_for_reassignments,
        args.poll_interval,
        &printer,
    )
    .await?;
    run.execute(&kafka, prepared).await
}

/// What a `set-rf` run's two ways (preview, execute) share once the clients are built and the
/// guards passed.
struct Run<'a> {
    cc: &'a CruiseControlClient,
    spec: &'a SetRfSpec,
    hooks: &'a TopicHooks<'a>,
    obs: &'a CliObserver,
    printer: &'a Printer,
}

impl Run<'_> {
    /// The dry run: Cruise Control's proposal and the per-topic plan; nothing changes.
    async fn preview(&self, prepared: Prepared) -> Result<ExitCode, CliError> {
        let printer = self.printer;
        let held = prepared.held.clone();
        let run = set_rf::dry_run(self.cc, prepared, self.spec, self.hooks, self.obs).await?;
        // Held nodes (issue 29): topic_configuration takes no destination, so the preview says
        // whether this proposal keeps new replicas off them, and that --execute checks it again.
        if let Some(p) = &run.proposal
            && !held.is_empty()
        {
            printer.note(render::held_note(&held, p));
        }
        let v = view(&run.state, true, false, run.proposal);
        printer.emit(&v, |v| render(v, printer.style()))?;
        Ok(ExitCode::Ok)
    }

    /// The change: rounds until every topic has its target (or `--no-wait`, or `--timeout`).
    async fn execute(&self, kafka: &KafkaClient, prepared: Prepared) -> Result<ExitCode, CliError> {
        let printer = self.printer;
        let run = set_rf::execute(
            kafka, self.cc, prepared, self.spec, self.hooks, self.obs, printer,
        )
        .await?;
        if let Some(task_id) = &run.submitted {
            printer.note(format!(
                "Change submitted (task {}); re-run the same command to follow it, or see it with `kafkaops topic status`",
                task_id.as_deref().unwrap_or("-")
            ));
        }
        let failed = run.failed();
        let v = view(&run.state, false, true, run.proposal);
        printer.emit(&v, |v| render(v, printer.style()))?;
        if let Some(e) = run.error {
            return Err(e);
        }
        if !failed.is_empty() {
            return Err(CliError::new(
                ExitCode::Incomplete,
                CodedError::new(
                    ExitCode::Incomplete,
                    format!(
                        "{} topic(s) did not reach their target replication factor: {}",
                        failed.len(),
                        failed.join("; ")
                    ),
                ),
            ));
        }
        Ok(ExitCode::Ok)
    }
}

/// `topic status` (and the old `set-rf --status`): the state file, refreshed where possible (see [`set_rf::refresh`]). Nothing is
/// sent.
async fn status(ctx: &Ctx, printer: &Printer, path: &Path) -> Result<ExitCode, CliError> {
    let Some(mut file) = set_rf::load_state(path)? else {
        printer.note(format!(
            "No replication-factor change recorded ({} does not exist)",
            path.display()
        ));
        let v = view(&ReplicasState::default(), false, false, None);
        printer.emit(&v, |v| render(v, printer.style()))?;
        return Ok(ExitCode::Ok);
    };
    if file.replicas.unfinished() {
        let timeout = ctx
            .global
            .connection
            .request_timeout
            .unwrap_or(Duration::from_secs(30));
        let obs = CliObserver {
            printer: printer.clone(),
        };
        set_rf::refresh(&ctx.settings, timeout, printer, &obs, &mut file.replicas).await;
        if let Err(e) = set_rf::save_state(path, &file) {
            tracing::warn!("cannot save the state file: {e:#}");
        }
    }
    let v = view(&file.replicas, false, false, None);
    printer.emit(&v, |v| render(v, printer.style()))?;
    Ok(ExitCode::Ok)
}

#[cfg(test)]
mod tests {
    use super::args::round_options;
    use super::hooks::following_note;
    use super::*;
    use crate::app::topic::TouchedTopic;
    use crate::app::topic::set_rf::ProposalSummary;
    use crate::engine::replicas::whole_names_regex;
    use std::collections::BTreeSet;

    #[test]
    fn a_resumed_change_is_followed_again_not_started() {
        let n = following_note(Some("t1"), true);
        assert!(
            n.starts_with("Following the change started earlier (task t1)"),
            "{n}"
        );
        assert!(!n.contains("Change started"), "{n}");
        let n = following_note(Some("t2"), false);
        assert!(
            n.starts_with("Change started (task t2); following it"),
            "{n}"
        );
    }

    #[test]
    fn desired_file_takes_a_list_or_a_topics_key() {
        let a = parse_desired("- topic: a\n  replication_factor: 2\n- name: b\n  replicas: 3\n")
            .unwrap();
        assert_eq!(a, vec![("a".into(), 2), ("b".into(), 3)]);
        let b = parse_desired(r#"{"topics":[{"topic":"a","replication_factor":1}]}"#).unwrap();
        assert_eq!(b, vec![("a".into(), 1)]);
        assert!(parse_desired("- topic: a\n").is_err());
    }

    /// The JSON shape is an API (module docs).
    #[test]
    fn per_topic_json_shape() {
        use crate::engine::replicas::{ClusterFacts, TopicFacts};
        let facts = ClusterFacts {
            brokers: 3,
            racks: BTreeSet::new(),
            topics: [
                (
                    "a".to_string(),
                    TopicFacts {
                        partitions: 1,
                        min_rf: 3,
                        max_rf: 3,
                        min_isr: Some(1),
                    },
                ),
                (
                    "b".to_string(),
                    TopicFacts {
                        partitions: 1,
                        min_rf: 2,
                        max_rf: 2,
                        min_isr: None,
                    },
                ),
                (
                    // Partitions at mixed factors (#25 point 7): the mix, not `-`.
                    "m".to_string(),
                    TopicFacts {
                        partitions: 2,
                        min_rf: 2,
                        max_rf: 3,
                        min_isr: None,
                    },
                ),
            ]
            .into(),
        };
        let wanted = [
            ("a".to_string(), 2),
            ("b".to_string(), 2),
            ("m".to_string(), 3),
        ]
        .into();
        let mut state = ReplicasState::plan(Some("c".into()), &wanted, &facts);
        state.handle_sent(Some("t1".into()));
        let v = view(
            &state,
            false,
            true,
            Some(ProposalSummary {
                replica_movements: 1,
                leader_movements: 0,
                data_to_move_mb: Some(0.0),
                topics: vec![
                    TouchedTopic {
                        topic: "a".into(),
                        named: true,
                        replica_movements: 1,
                        leader_movements: 0,
                    },
                    TouchedTopic {
                        topic: "other".into(),
                        named: false,
                        replica_movements: 0,
                        leader_movements: 2,
                    },
                ],
                onto_held: vec![crate::app::topic::OntoHeld {
                    node: 3,
                    reason: "disk swap".into(),
                    partitions: vec!["a-0".into()],
                }],
            }),
        );
        assert_eq!(
            serde_json::to_value(&v).unwrap(),
            serde_json::json!({
                "dry_run": false, "execute": true, "task_ids": ["t1"],
                "proposal": {"replica_movements": 1, "leader_movements": 0, "data_to_move_mb": 0.0,
                    "topics": [
                        {"topic": "a", "named": true, "replica_movements": 1, "leader_movements": 0},
                        {"topic": "other", "named": false, "replica_movements": 0, "leader_movements": 2}
                    ],
                    "onto_held": [{"node": 3, "reason": "disk swap", "partitions": ["a-0"]}]},
                "topics": [
                    {"topic": "a", "before": 3, "target": 2, "after": 3, "before_mix": null,
                     "after_mix": null, "state": "ongoing", "task_id": "t1", "message": null},
                    {"topic": "b", "before": 2, "target": 2, "after": 2, "before_mix": null,
                     "after_mix": null, "state": "done", "task_id": null,
                     "message": "already at the target replication factor: skipped"},
                    {"topic": "m", "before": null, "target": 3, "after": null,
                     "before_mix": [2, 3], "after_mix": [2, 3], "state": "ongoing",
                     "task_id": "t1", "message": null}
                ]
            })
        );
        let table = render(&v, crate::output::Style::PLAIN);
        assert!(
            table.contains("ongoing") && table.contains("skipped"),
            "{table}"
        );
        assert!(table.contains("2-3 (mixed)"), "{table}");
    }

    #[test]
    fn rack_check_skipped_only_without_racks_and_options_pass_through() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from([
            "kafkaops",
            "topic",
            "set-rf",
            "--topics",
            "a.b",
            "-r",
            "2",
            "--replication-throttle",
            "1000",
            "--concurrent-partition-movements-per-broker",
            "3",
            "--concurrent-leader-movements",
            "7",
        ])
        .unwrap();
        let crate::cli::Command::Topic(TopicCommand::SetRf(args)) = cli.command else {
            panic!("not set-rf");
        };
        let base_request = |args: &SetRfArgs, racks: &BTreeSet<String>| {
            crate::app::topic::base_request(&round_options(args), !racks.is_empty())
        };
        let mut racks = BTreeSet::new();
        let mut r = base_request(&args, &racks);
        assert!(r.skip_rack_awareness_check);
        r.by_factor = [(2, whole_names_regex(&["a.b".to_string()]))].into();
        let q = r.query();
        for (k, v) in [
            ("skip_rack_awareness_check", "true"),
            ("replication_throttle", "1000"),
            ("concurrent_partition_movements_per_broker", "3"),
            ("concurrent_leader_movements", "7"),
        ] {
            assert!(q.iter().any(|(n, x)| *n == k && x == v), "{k} in {q:?}");
        }
        assert!(
            r.body().unwrap().contains(r#""2":"a\\.b""#),
            "{:?}",
            r.body()
        );
        racks.insert("a".to_string());
        assert!(!base_request(&args, &racks).skip_rack_awareness_check);
    }
}
