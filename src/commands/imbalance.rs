//! `kafkaops rebalance imbalance`: fix the goal violations Cruise Control reports, once.
//!
//! Strimzi's `imbalance` auto-rebalance mode (seed `auto-rebalance-on-imbalanced-clusters.md`) from
//! the command line: Cruise Control only *detects* (self-healing stays off), kafkaops decides
//! when to rebalance. One pass reads the anomaly detector's goal violations, feeds them to the
//! pure auto-rebalance state machine ([`crate::engine::rebalance::AutoRebalancer`], the one
//! `operate` will drive) and, when it asks for an imbalance rebalance, runs a full rebalance
//! through the shared Cruise Control flow (dry run first, confirmation, one execution, follow,
//! same output as `rebalance full`) with the goals and options of a template
//! ([`Template`]: the fields of a `KafkaRebalance` spec). Flags override the template.
//!
//! The machine's state, with its fixed / not-fixed ledger keyed by the violation's content (not
//! by `anomalyId`, which changes every detection interval), lives in a state file per Cruise
//! Control URL (`--state-dir`), so running again does nothing until Cruise Control detects a
//! violation after the last fix. The state is only saved when an execution was requested (or the
//! proposal moved nothing): a dry run, a declined confirmation or a failure before the execution
//! leaves the violations waiting. Unfixable violations (any unfixable goal) are reported and never
//! acted on; with nothing to fix the command says so and exits 0.
//!
//! `--watch` repeats the pass every `--interval` until Ctrl-C, riding out Cruise Control outages
//! with backoff like `anomalies watch`.
//!
//! JSON output: the `rebalance full` documents (proposal or execution); with nothing to fix
//! [`NothingToFix`] `{"status":"nothing-to-fix","unfixable":[<record>],"already_handled":
//! [<record>]}` (records as in `anomalies watch`). With `--watch`, one such document per line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Ctx;
use super::shared::cc_flow::{FlowOutput, emit_flow_output, render_flow_output, run_flow};
use super::shared::observe::{CliObserver, cruise_control as client};
use crate::app::rebalance::{ProposalSpec, Template, checked_request};
use crate::cli::rebalance::ImbalanceArgs;
use crate::cruise_control::CcError;
use crate::cruise_control::convert::anomaly_records as records;
use crate::cruise_control::params::{RebalanceKind, Substate};
use crate::engine::anomalies::{AnomalyKey, AnomalyRecord};
use crate::engine::cc_flow::Outcome;
use crate::engine::model::Millis;
use crate::engine::rebalance::{Action, AutoRebalancer, Event, Mode};
use crate::error::{CliError, ExitCode};
use crate::output::Printer;

/// What the state file holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StateFile {
    version: u32,
    cruise_control_url: String,
    auto_rebalance: AutoRebalancer,
}

/// Output when nothing is to be fixed.
#[derive(Debug, Clone, Serialize)]
pub struct NothingToFix {
    pub status: &'static str,
    pub unfixable: Vec<AnomalyRecord>,
    pub already_handled: Vec<AnomalyRecord>,
}

fn render_nothing(v: &NothingToFix) -> String {
    let mut s = String::from(
        "Nothing to fix: Cruise Control reports no fixable goal violation that a rebalance has not handled yet.\n",
    );
    for r in &v.unfixable {
        s.push_str(&format!(
            "Not acted on (unfixable): goal violation {} ({})\n",
            r.anomaly_id,
            crate::app::anomalies::details(r)
        ));
    }
    if !v.already_handled.is_empty() {
        s.push_str(&format!(
            "{} violation(s) already handled by an earlier rebalance (re-detections of the same goals).\n",
            v.already_handled.len()
        ));
    }
    s
}

fn now_ms() -> Millis {
    Millis(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
    )
}

fn state_path(a: &ImbalanceArgs, url: &str) -> PathBuf {
    let dir = a
        .state_dir
        .clone()
        .unwrap_or_else(|| crate::state::default_dir(&|k| std::env::var(k).ok()));
    dir.join(crate::state::file_name("imbalance", url))
}

fn load_state(path: &Path, url: &str) -> Result<AutoRebalancer, CliError> {
    match crate::state::load::<StateFile>(path) {
        Ok(Some(s)) => Ok(s.auto_rebalance),
        Ok(None) => Ok(AutoRebalancer::new()),
        Err(e) => Err(CliError::usage(format!(
            "{e:#}; move it away to start afresh (kafkaops would then rebalance again for violations of {url} it already handled)"
        ))),
    }
}

fn save_state(path: &Path, url: &str, m: &AutoRebalancer) -> Result<(), CliError> {
    crate::state::save(
        path,
        &StateFile {
            version: 1,
            cruise_control_url: url.to_string(),
            auto_rebalance: m.clone(),
        },
    )
    .map_err(|e| CliError::new(ExitCode::Failed, e))
}

/// Runs `rebalance imbalance`.
pub async fn run(ctx: &Ctx, a: ImbalanceArgs) -> Result<ExitCode, CliError> {
    let template = match &a.template {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::usage(format!("cannot read template {}: {e}", path.display()))
            })?;
            Template::parse(&text).map_err(|e| {
                CliError::usage(format!("template {} is invalid: {e}", path.display()))
            })?
        }
        None => Template::default(),
    };
    let proposal = template.merge_into(&ProposalSpec::from(&a.proposal));
    let cc = client(ctx, proposal.poll_interval)?;
    let url = cc.url().to_string();
    let path = state_path(&a, &url);
    if !a.watch {
        let (code, out) = pass(ctx, &proposal, &path, &url, &mut BTreeSet::new()).await?;
        match out {
            PassOutput::Flow(out) => emit_flow_output(&ctx.printer, &out)?,
            PassOutput::Nothing(v) => ctx.printer.emit(&v, render_nothing)?,
            PassOutput::None => {}
        }
        return code;
    }
    watch(ctx, &a, &proposal, &path, &url).await
}

enum PassOutput {
    Flow(Box<FlowOutput>),
    Nothing(NothingToFix),
    /// The flow ended before it had a result to show (its error says why).
    None,
}

/// One look at the anomalies and, if needed, one rebalance. The outer `Err` is a failure to
/// reach Cruise Control or the state file; the inner result is the flow's.
async fn pass(
    ctx: &Ctx,
    a: &ProposalSpec,
    path: &Path,
    url: &str,
    proposed: &mut BTreeSet<AnomalyKey>,
) -> Result<(Result<ExitCode, CliError>, PassOutput), CliError> {
    let printer = &ctx.printer;
    let mut machine = load_state(path, url)?;
    if machine.running().is_some() {
        // A previous run ended (crash, kill) while its rebalance was running: it is over now or
        // keeps running on Cruise Control; either way it covered its violations.
        printer.note(
            "The previous run ended while its rebalance ran; counting that rebalance as finished",
        );
        machine.handle(Event::RebalanceFinished { succeeded: false }, now_ms());
    }
    let cc = client(ctx, a.poll_interval)?;
    let obs = CliObserver {
        printer: printer.clone(),
    };
    let state = cc
        .state(
            &[Substate::AnomalyDetector],
            false,
            Instant::now() + a.timeout.min(Duration::from_secs(120)),
            &obs,
        )
        .await?;
    let all = records(&state.anomaly_detector.unwrap_or_default());
    // What the ledger will make of them, for the report.
    let observed = machine.ledger().clone().observe(&all);
    for r in &observed.unfixable {
        printer.note(format!(
            "Not acting on goal violation {} detected {}: {} (Cruise Control cannot fix a violation of these goals; add brokers or racks)",
            r.anomaly_id,
            r.detected_at_ms.unwrap_or(0),
            crate::app::anomalies::details(r)
        ));
    }
    let action = machine.handle(Event::AnomaliesObserved(all), now_ms());
    let rebalance = match action {
        // A dry run records nothing; in a dry-run watch, propose each violation once.
        Action::Start(r)
            if r.mode == Mode::Imbalance
                && (a.execute || !r.anomalies.iter().all(|k| proposed.contains(k))) =>
        {
            r
        }
        _ => {
            // (A machine that wants a rebalance the dry-run watch already proposed is not saved.)
            if machine.running().is_none() {
                save_state(path, url, &machine)?;
            }
            let view = NothingToFix {
                status: "nothing-to-fix",
                unfixable: observed.unfixable,
                already_handled: observed.handled,
            };
            return Ok((Ok(ExitCode::Ok), PassOutput::Nothing(view)));
        }
    };
    printer.note(format!(
        "Goal violations to fix with a full rebalance: {}",
        rebalance
            .anomalies
            .iter()
            .map(|k| {
                let id = machine
                    .ledger()
                    .not_fixed()
                    .get(k)
                    .map(|n| n.first_anomaly_id.clone());
                format!(
                    "{}{}",
                    k.content.replace('|', ""),
                    id.map(|i| format!(" (id {i})")).unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    ));
    let kind = RebalanceKind::Full;
    let request = checked_request(&kind, a, None)?;
    let run = run_flow(ctx, &kind, &request, a).await?;
    if !a.execute {
        proposed.extend(rebalance.anomalies.iter().cloned());
    }
    let executed =
        run.report.flow.execution_requested() || matches!(run.report.outcome, Outcome::NothingToDo);
    if executed {
        let succeeded = matches!(
            run.report.outcome,
            Outcome::Completed { .. } | Outcome::Started { .. } | Outcome::NothingToDo
        );
        machine.handle(Event::RebalanceFinished { succeeded }, now_ms());
        save_state(path, url, &machine)?;
        printer.note(format!(
            "Recorded {} violation(s) as fixed in {}",
            rebalance.anomalies.len(),
            path.display()
        ));
    }
    let out = run.output.clone();
    let code = run.finish();
    Ok((
        code,
        match out {
            Some(o) => PassOutput::Flow(Box::new(o)),
            None => PassOutput::None,
        },
    ))
}

fn outage(e: &CliError) -> bool {
    matches!(
        e.code,
        ExitCode::Unreachable | ExitCode::Timeout | ExitCode::Busy | ExitCode::NotReady
    ) && !e.error.chain().any(|c| {
        matches!(
            c.downcast_ref::<CcError>(),
            Some(
                CcError::Auth { .. }
                    | CcError::Tls { .. }
                    | CcError::HttpsExpected { .. }
                    | CcError::NoApi { .. }
            )
        )
    })
}

async fn watch(
    ctx: &Ctx,
    args: &ImbalanceArgs,
    a: &ProposalSpec,
    path: &Path,
    url: &str,
) -> Result<ExitCode, CliError> {
    let printer: Printer = ctx.printer.clone();
    let interval_ms = u64::try_from(args.interval.as_millis()).unwrap_or(u64::MAX);
    let mut failures = 0u32;
    // Dry-run watch: violations already proposed in this session are not proposed again.
    let mut proposed = BTreeSet::new();
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    printer.note(format!(
        "Watching Cruise Control at {url} for goal violations every {} (Ctrl-C to stop)",
        humantime::format_duration(args.interval)
    ));
    loop {
        // The reader went away (`| head`): end quietly, as `tail -f | head` does.
        if crate::output::reader_gone() {
            return Ok(ExitCode::Ok);
        }
        let pause = match pass(ctx, a, path, url, &mut proposed).await {
            Ok((code, out)) => {
                failures = 0;
                match out {
                    PassOutput::Flow(out) => {
                        printer.emit_record(&out, |o| render_flow_output(o, printer.style()))?;
                    }
                    PassOutput::Nothing(v) => {
                        tracing::info!("{}", render_nothing(&v).trim_end());
                    }
                    PassOutput::None => {}
                }
                if let Err(e) = code {
                    if e.code == ExitCode::Usage || e.code == ExitCode::Interrupted {
                        return Err(e);
                    }
                    printer.note(format!("The rebalance did not complete: {e}; watching on"));
                }
                interval_ms
            }
            Err(e) if outage(&e) => {
                failures += 1;
                let ms = crate::engine::anomalies::poll_delay_ms(interval_ms, failures, 60_000);
                printer.note(format!(
                    "DISCONNECTED from Cruise Control at {url}: {e}; retrying in {}",
                    humantime::format_duration(Duration::from_millis(ms))
                ));
                ms
            }
            Err(e) => return Err(e),
        };
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(pause)) => {}
            _ = &mut ctrl_c => return Ok(ExitCode::Ok),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_given_win_over_the_template() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from([
            "kafkaops",
            "rebalance",
            "imbalance",
            "--goals",
            "RackAwareGoal",
            "--replication-throttle",
            "7",
        ])
        .unwrap();
        let crate::cli::Command::Rebalance(crate::cli::rebalance::RebalanceCommand::Imbalance(a)) =
            cli.command
        else {
            panic!("parsed another command");
        };
        let t = Template::parse(
            "goals: [ReplicaDistributionGoal]\nreplicationThrottle: 1\nconcurrentLeaderMovements: 3\nskipHardGoalCheck: true\n",
        )
        .unwrap();
        let m = t.merge_into(&ProposalSpec::from(&a.proposal));
        assert_eq!(m.goals, ["RackAwareGoal"]);
        assert_eq!(m.replication_throttle, Some(7));
        assert_eq!(m.concurrent_leader_movements, Some(3));
        assert!(m.skip_hard_goal_check);
        assert!(!a.watch && a.interval == Duration::from_secs(30));
    }
}
