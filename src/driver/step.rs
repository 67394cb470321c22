//! One turn of the roll driver ([`step`]): resume a saved run, observe, decide, act with a
//! write-ahead save before and after every command, and feed what happened back to the engine.
//! [`super::run_until`] loops it; `operate` calls it once per reconcile.

use super::*;

/// Saves `run` through `store`; a failure as the error the loop reports.
async fn save<S: Store<RollRun>>(store: &S, run: &RollRun) -> anyhow::Result<()> {
    store.save(run).await.map_err(anyhow::Error::new)
}

/// What a [`step`] leaves to its caller.
#[derive(Debug)]
pub enum StepResult {
    /// Call [`step`] again at (or after) this time.
    Wake(Millis),
    /// The run is over.
    Finished(Outcome),
}

/// Observes the cluster. A failure is retried (the step wakes again) until `observe_retry_ms`
/// has passed since the last success; the first observation, or one after that, ends the run.
async fn observe<I: RollIo, P: Progress>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    options: &DriverOptions,
) -> Result<ClusterSnapshot, StepResult> {
    let poll = run.roller.config().poll_interval_ms.max(1);
    match io.observe().await {
        Ok(s) => {
            run.last_ok = Some(io.now());
            Ok(s)
        }
        Err(error) => {
            let now = io.now();
            Err(match run.last_ok {
                Some(t) if now.since(t) < options.observe_retry_ms => {
                    let retry_until = t.plus(options.observe_retry_ms);
                    progress.event(&Event::ObserveRetry {
                        error: &error,
                        retry_until,
                    });
                    StepResult::Wake(now.plus(poll).min(retry_until))
                }
                _ => StepResult::Finished(Outcome::ObserveFailed(error)),
            })
        }
    }
}

/// Gives the engine the IO's evidence before it decides: processes that ended, Cruise
/// Control's executor, what each node's software supports (each when the IO reads it).
async fn feed_evidence<I: RollIo>(run: &mut RollRun, io: &I) {
    for (node, at) in io.process_ended() {
        run.roller.handle_process_ended(node, at);
    }
    if let Some(view) = io.cruise_control().await {
        run.roller.handle_cruise_control(&view);
    }
    if let Some(software) = io.software().await {
        run.roller.handle_software(software);
    }
}

/// One observe -> decide -> act -> feed back step of a roll. The caller saves
/// `run` afterwards (the step saves it itself, through `store`, before and
/// after running a command) and calls again at the returned wake-up time.
/// `stop` (Ctrl-C) is honoured between batches.
pub async fn step<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    stop: bool,
    options: &DriverOptions,
) -> StepResult {
    run.steps += 1;
    if run.mark_live() {
        run.resumes += 1;
        resume(run, io, progress);
    }
    if stop && run.note_stop() {
        progress.event(&Event::StopRequested);
    }
    let snapshot = match observe(run, io, progress, options).await {
        Ok(s) => s,
        Err(result) => return result,
    };
    feed_evidence(run, io).await;
    let now = io.now();
    let decision = run.roller.decide(&snapshot, now);
    progress.event(&Event::Observed {
        snapshot: &snapshot,
        roller: &run.roller,
        at: now,
    });
    // A restart or reconfiguration that a stop request holds back is never announced as
    // happening ("==> restarting node(s) N" after Ctrl-C, when nothing is restarted).
    let held_by_stop = stop
        && matches!(
            decision,
            Decision::Restart { .. } | Decision::Reconfigure { .. }
        );
    if !held_by_stop {
        progress.event(&Event::Decided(&decision));
    }
    if let Some(wake) = judge_unconfirmed(run, progress, &decision, now, options) {
        save_or_report(run, store, progress).await;
        return wake;
    }
    match decision {
        Decision::Wait { until, .. } => {
            if stop && !run.roller.is_acting() {
                return StepResult::Finished(Outcome::Interrupted);
            }
            StepResult::Wake(until.max(now.plus(1)))
        }
        Decision::Done { summary } => StepResult::Finished(Outcome::Done(summary)),
        Decision::Abort { reason } => StepResult::Finished(Outcome::Aborted(reason)),
        Decision::Restart { .. } | Decision::Reconfigure { .. } if stop => {
            // Not issued: the engine forgets it; a resumed run decides again.
            run.roller.handle_not_issued(&decision);
            StepResult::Finished(Outcome::Interrupted)
        }
        decision => {
            run.pending = Some(PendingAction {
                decision,
                status: ActionStatus::Decided,
                decided_at: now,
                unconfirmed_since: None,
            });
            if let Err(e) = save(store, run).await {
                return not_issued(run, e);
            }
            act(run, io, progress, store, options).await
        }
    }
}

/// Applies the resume rules to the pending action of a restored run.
fn resume<I: RollIo, P: Progress>(run: &mut RollRun, io: &I, progress: &mut P) {
    if !io.incarnations_survive_restore() {
        run.roller.forget_incarnations();
    }
    let now = io.now();
    let clock_behind_ms = run.latest_time().since(now);
    let mut not_issued = None;
    if let Some(p) = run.pending.as_mut() {
        match (p.status, &p.decision) {
            // Never acted on: observed and decided again, whatever the clock says.
            (ActionStatus::Decided, _) => {
                run.roller.handle_not_issued(&p.decision);
                not_issued = run.pending.take().map(|p| p.decision);
            }
            (ActionStatus::Issued, Decision::Restart { .. }) => {
                p.unconfirmed_since.get_or_insert(now);
            }
            (ActionStatus::Issued, _) => p.status = ActionStatus::Done,
            (ActionStatus::Done, _) => {}
        }
    }
    progress.event(&Event::Resumed {
        pending: run.pending.as_ref(),
        not_issued: not_issued.as_ref(),
        clock_behind_ms,
    });
}

/// A restart restored as `Issued` and never confirmed: judged from the
/// evidence the last decision recorded. `Some` = the step ends here.
fn judge_unconfirmed<P: Progress>(
    run: &mut RollRun,
    progress: &mut P,
    decision: &Decision,
    now: Millis,
    options: &DriverOptions,
) -> Option<StepResult> {
    let p = run.pending.as_mut()?;
    if p.status != ActionStatus::Issued {
        return None;
    }
    let since = p.unconfirmed_since?;
    let nodes = p.decision.restarted_nodes();
    if matches!(decision, Decision::Abort { .. }) || run.roller.is_finished() {
        p.status = ActionStatus::Done;
        return None;
    }
    let mut confirmed = Vec::new();
    let mut unconfirmed = Vec::new();
    for n in &nodes {
        match run.roller.restart_status(*n) {
            Some(s) if s.done => confirmed.push(*n),
            Some(s) if s.process_ended => {
                run.roller.handle_restart_done(*n, now);
                confirmed.push(*n);
            }
            Some(_) => unconfirmed.push(*n),
            None => {}
        }
    }
    let poll = run.roller.config().poll_interval_ms.max(1);
    if unconfirmed.is_empty() {
        p.status = ActionStatus::Done;
        p.unconfirmed_since = None;
        progress.event(&Event::UnconfirmedRestartJudged {
            nodes: &nodes,
            happened: true,
        });
        return Some(StepResult::Wake(now.plus(poll)));
    }
    if now.since(since) < options.unconfirmed_restart_grace_ms {
        return Some(StepResult::Wake(now.plus(poll)));
    }
    if confirmed.is_empty() {
        run.roller.handle_restart_not_issued(&nodes);
        run.pending = None;
        progress.event(&Event::UnconfirmedRestartJudged {
            nodes: &nodes,
            happened: false,
        });
    } else {
        for n in &unconfirmed {
            run.roller.handle_restart_done(*n, now);
        }
        p.status = ActionStatus::Done;
        p.unconfirmed_since = None;
    }
    Some(StepResult::Wake(now.plus(1)))
}

pub(super) async fn save_or_report<S: Store<RollRun>, P: Progress>(
    run: &RollRun,
    store: &mut S,
    progress: &mut P,
) {
    if let Err(error) = save(store, run).await {
        progress.event(&Event::SaveFailed { error: &error });
    }
}

/// The state could not be saved before a command: it is not issued.
fn not_issued(run: &mut RollRun, error: anyhow::Error) -> StepResult {
    if let Some(p) = run.pending.take() {
        run.roller.handle_not_issued(&p.decision);
    }
    StepResult::Finished(Outcome::SaveFailed(error))
}

/// Issues the pending `Decided` action (saved as `Issued` first), feeds its
/// result back and saves it as `Done`.
async fn act<I: RollIo, P: Progress, S: Store<RollRun>>(
    run: &mut RollRun,
    io: &I,
    progress: &mut P,
    store: &mut S,
    options: &DriverOptions,
) -> StepResult {
    let Some(p) = run.pending.as_mut() else {
        return StepResult::Wake(io.now());
    };
    p.status = ActionStatus::Issued;
    let decision = p.decision.clone();
    let at_ms = p.decided_at.since(run.started);
    if let Err(e) = save(store, run).await {
        return not_issued(run, e);
    }
    let mut result = StepResult::Wake(io.now().plus(1));
    match decision {
        Decision::Restart { nodes, .. } => {
            let ids: Vec<NodeId> = nodes.iter().map(|n| n.node).collect();
            result = restart(run, io, ids, at_ms, options).await;
        }
        Decision::Reconfigure { node, changes, .. } => {
            let r = io.reconfigure(node, &changes).await;
            if let Err(error) = &r {
                progress.event(&Event::ActionFailed {
                    what: format!("reconfiguring node {node}"),
                    error,
                });
            }
            run.actions.push(ActionRecord::Reconfigure {
                node,
                changes,
                at_ms,
                error: r.err().map(|e| format!("{e:#}")),
            });
        }
        Decision::ElectPreferredLeaders { partitions, .. } => {
            let r = io.elect_preferred_leaders(&partitions).await;
            if let Err(error) = &r {
                progress.event(&Event::ActionFailed {
                    what: format!(
                        "electing preferred leaders for {} partition(s)",
                        partitions.len()
                    ),
                    error,
                });
            }
            run.actions.push(ActionRecord::ElectPreferredLeaders {
                partitions: partitions.len(),
                at_ms,
                error: r.err().map(|e| format!("{e:#}")),
            });
        }
        Decision::Wait { .. } | Decision::Done { .. } | Decision::Abort { .. } => {}
    }
    if let Some(p) = run.pending.as_mut() {
        p.status = ActionStatus::Done;
    }
    save_or_report(run, store, progress).await;
    result
}

/// Restarts `ids` and feeds each result back to the engine: a failed restart command ends the
/// roll at once; otherwise the step wakes after `settle_after_restart_ms`.
async fn restart<I: RollIo>(
    run: &mut RollRun,
    io: &I,
    ids: Vec<NodeId>,
    at_ms: u64,
    options: &DriverOptions,
) -> StepResult {
    let results = io.restart(&ids).await;
    let done_at = io.now();
    let mut failed = None;
    let mut failed_nodes = Vec::new();
    for (n, r) in results {
        match r {
            Ok(()) => run.roller.handle_restart_done(n, done_at),
            Err(e) => {
                run.roller
                    .handle_restart_failed(n, done_at, format!("{e:#}"));
                failed_nodes.push(n);
                failed.get_or_insert((n, e));
            }
        }
    }
    run.actions.push(ActionRecord::Restart {
        nodes: ids,
        at_ms,
        error: failed.as_ref().map(|(_, e)| format!("{e:#}")),
        failed: failed_nodes,
    });
    match failed {
        Some((node, error)) => StepResult::Finished(Outcome::RestartFailed { node, error }),
        None => StepResult::Wake(io.now().plus(options.settle_after_restart_ms)),
    }
}
