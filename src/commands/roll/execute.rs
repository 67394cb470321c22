//! The roll once confirmed: the IO built, the session looped until it ends (saving the run after
//! every step; Ctrl-C stops it between batches), and the result: the summary on stdout, the
//! error and its exit code.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context as _;

use super::args::Spec;
use super::plan::Planned;
use super::{ActionView, Ctx, ResultDoc, RollRunArgs, StderrProgress, emit_result, join_or_none};
use crate::app::roll::session;
use crate::driver::kafka_io::KafkaRollIo;
use crate::driver::{Outcome, RollIo, RollRun, RunReport};
use crate::engine::model::NodeId;
use crate::error::{CliError, CodedError, ExitCode};

/// Runs the confirmed roll to its end.
pub(super) async fn execute(
    ctx: &Ctx,
    args: &RollRunArgs,
    spec: &Spec,
    p: Planned,
) -> Result<ExitCode, CliError> {
    let printer = &ctx.printer;
    let prepared = p.prepared;
    let witness = prepared.witness;
    let mut io = KafkaRollIo::new(prepared.client, prepared.platform, witness.clone())
        .await
        .context("cannot list the platform's nodes")?;
    if spec.software.is_some() {
        io = io.with_software_check();
    }
    if !args.force
        && let Some(cc) = p.others.client
    {
        io = io.with_cruise_control(cc, ctx.request_timeout());
    }
    let recovery = io.recovery();
    let mut store = crate::state::RollStore::new(p.state_path.clone(), p.cluster_key, p.request);
    let mut run = p
        .resumed
        .unwrap_or_else(|| RollRun::new(p.roller, io.now()));
    store
        .write(&run)
        .with_context(|| "cannot save the roll state (see --state-dir)")?;
    let stop = Arc::new(AtomicBool::new(false));
    let exit_after_command = Arc::new(AtomicBool::new(false));
    let signals = spawn_signal_handler(
        Arc::clone(&stop),
        Arc::clone(&exit_after_command),
        Arc::clone(&store.restart_in_flight),
        printer.quiet,
        p.state_path.clone(),
    );
    let mut progress = StderrProgress::new(printer.quiet, recovery);
    let options = crate::app::roll::driver_options(&spec.config, args.command_timeout);
    let outcome = session::drive(
        &mut run,
        &io,
        &mut progress,
        &mut store,
        &stop,
        &exit_after_command,
        &options,
    )
    .await;
    signals.abort();
    witness.stop();
    // A run the engine finished (done, aborted, failed restart) is over: its state goes. An
    // interrupted one (Ctrl-C, observation or save failure) stays, to be resumed.
    session::settle_state(&store, &run, &outcome, &p.state_path);
    let report = RunReport::of(&run, outcome, io.now());
    // The nodes this roll set out to act on (the plan's steps), not the whole cluster.
    let selected = super::render::acted_on(&p.plan);
    let resume_hint = format!(
        "state saved in {}: re-run the same command to resume, or pass --discard-state to start \
         over",
        p.state_path.display()
    );
    let (mut result, ended) = conclude(report, &selected, &resume_hint, &p.risky);
    result.held = p.plan.held.clone();
    emit_result(printer, &p.plan, &p.notes, &result)?;
    ended
}

/// The result document and the error of a run that ended as `report` says (`selected`: the
/// nodes the roll's plan acts on; `risky`: the topics no order of restarts could keep
/// available).
pub(super) fn conclude(
    report: RunReport,
    selected: &[NodeId],
    resume_hint: &str,
    risky: &[crate::engine::risk::RiskyTopic],
) -> (ResultDoc, Result<ExitCode, CliError>) {
    let restarted = report.restarted();
    let reconfigured = report.reconfigured();
    let restart_failed = report.restart_failed();
    let skipped: Vec<NodeId> = selected
        .iter()
        .filter(|n| {
            !restarted.contains(n) && !reconfigured.contains(n) && !restart_failed.contains(n)
        })
        .copied()
        .collect();
    let code = crate::error_codes::roll_outcome_code(&report.outcome);
    let coded = |msg: String| Some(CliError::new(code, CodedError::new(code, msg)));
    let (status, error, notes): (&str, Option<CliError>, Vec<String>) = match report.outcome {
        Outcome::Done(summary) => ("done", None, summary.notes),
        Outcome::Aborted(reason) => {
            let msg = format!(
                "roll aborted: {reason}; nothing else was restarted (restarted so far: {})",
                join_or_none(&restarted)
            );
            ("aborted", coded(msg), Vec::new())
        }
        Outcome::Interrupted => {
            let msg = format!(
                "roll stopped by Ctrl-C between batches; restarted: {}; not yet rolled: {}; \
                 {resume_hint}",
                join_or_none(&restarted),
                join_or_none(&skipped)
            );
            ("interrupted", coded(msg), Vec::new())
        }
        Outcome::RestartFailed { node, error } => {
            let err = CliError::from(error.context(format!(
                "restarting node {node} failed; node {node} was not restarted and may be down \
                 (check it); the roll stopped and restarted no further node"
            )));
            ("restart-failed", Some(err), Vec::new())
        }
        Outcome::ObserveFailed(error) => {
            let err = CliError::from(error.context(format!(
                "the cluster could not be observed; the roll stopped ({resume_hint})"
            )));
            ("observe-failed", Some(err), Vec::new())
        }
        Outcome::SaveFailed(error) => {
            let msg = format!(
                "the roll state could not be saved, so no further command was issued: {error:#}"
            );
            ("save-failed", coded(msg), Vec::new())
        }
    };
    let code = error.as_ref().map_or(code, |e| e.code);
    let mut notes = notes;
    notes.extend(
        crate::engine::risk::affected(risky, &restarted)
            .iter()
            .map(|t| format!("affected risky topic {}", t.describe())),
    );
    let result = ResultDoc {
        status: status.to_string(),
        exit_code: code.code(),
        restarted,
        reconfigured,
        skipped,
        restart_failed,
        held: Vec::new(),
        elapsed_ms: report.elapsed_ms,
        actions: report.actions.into_iter().map(ActionView::from).collect(),
        notes,
        error: error.as_ref().map(ToString::to_string),
    };
    (result, error.map_or(Ok(code), Err))
}

/// Ctrl-C once: stop between batches. Ctrl-C again: exit at once, unless a restart command is
/// in flight: then the roll WAITS for that command (and its process group) to end, saves its
/// state and exits (the command is not killed: a half-done restart could leave the node down).
fn spawn_signal_handler(
    stop: Arc<AtomicBool>,
    exit_after_command: Arc<AtomicBool>,
    in_flight: Arc<AtomicBool>,
    quiet: bool,
    state_path: std::path::PathBuf,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_err() {
            return;
        }
        stop.store(true, Ordering::SeqCst);
        if !quiet {
            crate::output::stderr_line(format_args!(
                "Ctrl-C: stopping after the current batch is back in service \
                 (Ctrl-C again to exit sooner; the state is kept in {})",
                state_path.display()
            ));
        }
        while tokio::signal::ctrl_c().await.is_ok() {
            if in_flight.load(Ordering::SeqCst) {
                exit_after_command.store(true, Ordering::SeqCst);
                crate::output::stderr_line(format_args!(
                    "Ctrl-C: a restart command is running; waiting for it to end (it is not \
                     killed), then exiting; re-run the same command to resume"
                ));
            } else {
                crate::output::stderr_line(format_args!(
                    "second Ctrl-C: exiting now; the state is saved in {}: re-run the same \
                     command to resume (a node being restarted may still be down)",
                    state_path.display()
                ));
                std::process::exit(ExitCode::Interrupted.code());
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::render::render_summary;
    use super::conclude;
    use crate::driver::{Outcome, RunReport};
    use crate::engine::model::NodeId;
    use crate::engine::roll::run::ActionRecord;

    fn restart(nodes: &[i32], failed: &[i32]) -> ActionRecord {
        ActionRecord::Restart {
            nodes: nodes.iter().map(|n| NodeId(*n)).collect(),
            at_ms: 0,
            error: (!failed.is_empty()).then(|| "exit status 1".to_string()),
            failed: failed.iter().map(|n| NodeId(*n)).collect(),
        }
    }

    #[test]
    fn a_failed_restart_is_not_counted_as_restarted_and_the_node_is_named() {
        let report = RunReport {
            outcome: Outcome::RestartFailed {
                node: NodeId(3),
                error: anyhow::anyhow!("exit status 1"),
            },
            actions: vec![restart(&[1], &[]), restart(&[3], &[3])],
            elapsed_ms: 0,
        };
        let selected = [NodeId(1), NodeId(2), NodeId(3)];
        let (doc, result) = conclude(report, &selected, "hint", &[]);
        assert_eq!(doc.restarted, vec![NodeId(1)]);
        assert_eq!(doc.restart_failed, vec![NodeId(3)]);
        assert_eq!(doc.skipped, vec![NodeId(2)]);
        let text = render_summary(&doc);
        assert!(text.contains("restarted:    1\n"), "{text}");
        assert!(
            text.contains("restart failed (not restarted, may be down): 3"),
            "{text}"
        );
        let err = format!("{:#}", result.unwrap_err());
        assert!(
            err.contains("node 3 was not restarted and may be down"),
            "{err}"
        );
    }

    #[test]
    fn an_interrupted_roll_lists_only_selected_nodes_as_not_yet_rolled() {
        // `roll --role broker` on a cluster with controllers 101-103: the plan acts on 1-3.
        let report = RunReport {
            outcome: Outcome::Interrupted,
            actions: vec![restart(&[1], &[])],
            elapsed_ms: 0,
        };
        let selected = [NodeId(1), NodeId(2), NodeId(3)];
        let (doc, result) = conclude(report, &selected, "hint", &[]);
        assert_eq!(doc.skipped, vec![NodeId(2), NodeId(3)]);
        let err = result.unwrap_err().to_string();
        assert!(err.contains("not yet rolled: 2, 3;"), "{err}");
        assert!(!err.contains("101"), "{err}");
    }
}
