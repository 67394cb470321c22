//! The tables people read of `kafkaops rebalance`: the proposal, the execution and its
//! progress, the status (`--output json` prints the views of [`super::render`] instead). Pure:
//! views in, text out.

use super::*;

/// How many movements a table shows before summarising the rest.
const MAX_MOVEMENT_ROWS: usize = 25;

/// The proposal as text tables; `executing` drops the "re-run with --execute" hint.
#[must_use]
pub fn render_proposal(p: &ProposalView, style: crate::output::Style, executing: bool) -> String {
    let title = proposal_title(p);
    let mut out = String::new();
    // With --execute the proposal is shown once, as what is about to run (not as a dry run).
    if executing {
        out.push_str(&title.replacen("Proposal:", "Proposal to execute:", 1));
        out.push('\n');
    } else {
        out.push_str(&title);
        out.push_str(if p.dry_run { " (dry run)\n" } else { "\n" });
    }
    out.push_str(&summary_table(&p.summary, style));
    out.push('\n');
    if !p.goals.is_empty() {
        out.push_str("\nGoals\n");
        let mut g = crate::output::Grid::new(style, ["goal", "status"]);
        for goal in &p.goals {
            g.row([goal.goal.clone(), goal.status.clone()]);
        }
        out.push_str(&g.render());
        out.push('\n');
    }
    if !p.broker_load.is_empty() {
        out.push_str("\nBrokers (before -> after)\n");
        out.push_str(&broker_load_table(&p.broker_load, style));
        out.push('\n');
    }
    if !p.movements.is_empty() {
        out.push_str("\nMovements\n");
        out.push_str(&movements_table(p, style));
    }
    if p.noop {
        out.push_str("\nNothing to move: the cluster already satisfies the goals.\n");
    } else if p.dry_run && !executing {
        out.push_str("\nDry run: nothing was changed. Re-run with --execute to apply it.\n");
    }
    crate::output::wrap_prose(&out, style)
}

/// What the proposal is for: the operation and its brokers.
fn proposal_title(p: &ProposalView) -> String {
    match p.operation {
        "add_broker" => format!("Proposal: add brokers {}", ids(&p.brokers)),
        "remove_broker" if p.destination_brokers.is_empty() => {
            format!("Proposal: remove brokers {}", ids(&p.brokers))
        }
        "remove_broker" => format!(
            "Proposal: remove brokers {} (destinations {})",
            ids(&p.brokers),
            ids(&p.destination_brokers)
        ),
        "demote_broker" => format!("Proposal: demote brokers {}", ids(&p.brokers)),
        "remove_disks" => format!("Proposal: remove disks of brokers {}", ids(&p.brokers)),
        _ => "Proposal: full rebalance".to_string(),
    }
}

/// What moves, how balanced the cluster gets, and Cruise Control's provisioning verdict.
fn summary_table(s: &SummaryView, style: crate::output::Style) -> String {
    let mut t = crate::output::new_table(style);
    t.set_header(vec!["", "value"]);
    t.add_row(vec![
        "replica movements".into(),
        s.replica_movements.to_string(),
    ]);
    t.add_row(vec![
        "leadership-only moves".into(),
        s.leader_movements.to_string(),
    ]);
    t.add_row(vec!["data to move".into(), mb(s.data_to_move_mb)]);
    if s.intra_broker_replica_movements > 0 {
        t.add_row(vec![
            "intra-broker movements".into(),
            format!(
                "{} ({})",
                s.intra_broker_replica_movements,
                mb(s.intra_broker_data_to_move_mb)
            ),
        ]);
    }
    t.add_row(vec![
        "balancedness before -> after".into(),
        format!(
            "{} -> {}",
            num(s.balancedness_before, 1),
            num(s.balancedness_after, 1)
        ),
    ]);
    t.add_row(vec![
        "monitored partitions".into(),
        s.monitored_partitions_pct
            .map_or_else(|| "-".into(), |v| format!("{v:.1}%")),
    ]);
    if !s.excluded_topics.is_empty() {
        t.add_row(vec!["excluded topics".into(), s.excluded_topics.join(",")]);
    }
    let provisioning = match (&s.provision_status, &s.provision_recommendation) {
        (Some(st), Some(r)) => format!("{st}: {r}"),
        (Some(st), None) => st.clone(),
        (None, _) => "(not reported by this Cruise Control)".into(),
    };
    t.add_row(vec!["provisioning".into(), provisioning]);
    crate::output::fit(t, style, &[])
}

/// Each broker's replicas, leaders and disk before and after.
fn broker_load_table(load: &[BrokerLoadView], style: crate::output::Style) -> String {
    let mut b = crate::output::new_table(style);
    b.set_header(vec!["broker", "replicas", "leaders", "disk"]);
    for l in load {
        b.add_row(vec![
            if l.dead {
                format!("{} (DEAD)", l.broker)
            } else {
                l.broker.to_string()
            },
            format!("{} -> {}", opt(l.replicas_before), opt(l.replicas_after)),
            format!("{} -> {}", opt(l.leaders_before), opt(l.leaders_after)),
            format!("{} -> {}", mb(l.disk_mb_before), mb(l.disk_mb_after)),
        ]);
    }
    crate::output::fit(b, style, &[])
}

/// The partitions that move (the first [`MAX_MOVEMENT_ROWS`]), with a line for the rest.
fn movements_table(p: &ProposalView, style: crate::output::Style) -> String {
    let mut m = crate::output::new_table(style);
    m.set_header(vec!["partition", "replicas", "leader"]);
    // Internal topics (Cruise Control's own sample topics among them) are moved like any
    // other (reference section 13) but rarely what people look for: one line by default.
    let (internal, shown): (Vec<&MovementView>, Vec<&MovementView>) = p
        .movements
        .iter()
        .partition(|mv| !p.show_internal && mv.topic.starts_with("__"));
    for mv in shown.iter().take(MAX_MOVEMENT_ROWS) {
        m.add_row(vec![
            format!("{}-{}", mv.topic, mv.partition),
            format!("{} -> {}", list(&mv.old_replicas), list(&mv.new_replicas)),
            format!("{} -> {}", opt(mv.old_leader), opt(mv.new_leader)),
        ]);
    }
    if !internal.is_empty() {
        let topics: std::collections::BTreeSet<&str> =
            internal.iter().map(|mv| mv.topic.as_str()).collect();
        m.add_row(vec![
            format!(
                "{} internal partition(s) of {} topic(s) (__*)",
                internal.len(),
                topics.len()
            ),
            "--show-internal lists them".into(),
            String::new(),
        ]);
    }
    let mut out = crate::output::fit(m, style, &[]);
    out.push('\n');
    if shown.len() > MAX_MOVEMENT_ROWS {
        out.push_str(&format!(
            "... and {} more (use --output json for all)\n",
            shown.len() - MAX_MOVEMENT_ROWS
        ));
    }
    out
}

/// The summary of a completed execution (pure): the highest counters kafkaops saw; when it saw
/// no partition counters at all (a short execution between two polls, or only the leader phase
/// observed), the executed proposal's replica movements, all of which Cruise Control reported
/// done by completing the task. Never "0/0" after replicas moved.
pub(crate) fn completed_progress(
    seen: Option<ExecutionProgress>,
    executed: &SummaryView,
) -> Option<ExecutionProgress> {
    if executed.replica_movements == 0 && executed.leader_movements == 0 {
        return seen;
    }
    let mut p = seen.unwrap_or_else(|| ExecutionProgress {
        state: "NO_TASK_IN_PROGRESS".into(),
        ..ExecutionProgress::default()
    });
    if p.partitions_total == 0 {
        p.partitions_total = executed.replica_movements;
        p.partitions_finished = executed.replica_movements;
        p.partitions_in_progress = 0;
        p.partitions_pending = 0;
    }
    if p.leaders_total == 0 {
        p.leaders_total = executed.leader_movements;
        p.leaders_finished = executed.leader_movements;
    }
    Some(p)
}

/// The progress bar's message: what is known, an ETA only when the data counters allow one
/// (pure). Cruise Control's counters are coarse (reference section 13): in the leader phase only
/// leadership counts exist, and data figures are 0 when it has no disk load for the partitions.
pub(crate) fn follow_message(
    p: &ExecutionProgress,
    rate_mb_per_s: Option<f64>,
    seconds_left: Option<f64>,
) -> String {
    if p.state == "LEADER_MOVEMENT_TASK_IN_PROGRESS" {
        return format!(
            "partitions; moving leadership {}/{}",
            p.leaders_finished, p.leaders_total
        );
    }
    let counts = if p.partitions_total == 0 && p.partitions_in_progress + p.partitions_pending > 0 {
        format!(
            "{} partition(s) moving, {} pending; ",
            p.partitions_in_progress, p.partitions_pending
        )
    } else {
        String::new()
    };
    if p.data_total_mb <= 0.0 {
        return format!("{counts}partitions (Cruise Control reports no data size for them)");
    }
    let speed = match (rate_mb_per_s, seconds_left) {
        (Some(rate), Some(left)) => format!(
            ", {rate:.1} MB/s, ~{} left",
            humantime::format_duration(Duration::from_secs(left.round() as u64))
        ),
        _ => String::new(),
    };
    format!(
        "{counts}partitions, {:.0}/{:.0} MB{speed}",
        p.data_finished_mb, p.data_total_mb
    )
}

pub(crate) fn render_progress(p: &ExecutionProgress, style: crate::output::Style) -> String {
    let mut t = crate::output::new_table(style);
    t.set_header(vec!["", "value"]);
    t.add_row(vec!["executor state".into(), p.state.clone()]);
    // Only what is known: no "0 in progress" when Cruise Control reported none.
    let mut moved = if p.partitions_total == 0 && p.state == "LEADER_MOVEMENT_TASK_IN_PROGRESS" {
        "replica phase over (Cruise Control reports no partition counters now)".to_string()
    } else {
        format!("{}/{}", p.partitions_finished, p.partitions_total)
    };
    if p.partitions_in_progress + p.partitions_pending > 0 {
        moved.push_str(&format!(
            " ({} in progress, {} pending)",
            p.partitions_in_progress, p.partitions_pending
        ));
    }
    t.add_row(vec!["partitions moved".into(), moved]);
    t.add_row(vec![
        "leadership moves (executor's count)".into(),
        format!("{}/{}", p.leaders_finished, p.leaders_total),
    ]);
    t.add_row(vec![
        "data moved".into(),
        if p.data_total_mb > 0.0 {
            format!(
                "{}/{}",
                crate::output::human_mb(p.data_finished_mb),
                crate::output::human_mb(p.data_total_mb)
            )
        } else {
            "not reported".into()
        },
    ]);
    format!("{}\n", crate::output::fit(t, style, &[]))
}

pub(crate) fn render_execution(v: &ExecutionView, style: crate::output::Style) -> String {
    let mut out = String::new();
    let e = &v.execution;
    let task = v.task_id.as_deref().unwrap_or("-");
    out.push_str(&match e.status {
        "completed" => format!("Execution completed (task {task}).\n"),
        "started" => format!(
            "Execution started (task {task}); follow it with `kafkaops rebalance status --task {task} --follow`.\n"
        ),
        "nothing-to-do" => "Nothing to execute.\n".to_string(),
        "drifted" => {
            "Nothing was executed: the proposal changed since it was approved.\n".to_string()
        }
        "stopped" => format!("Execution stopped by a stop request (task {task}).\n"),
        "running" => format!(
            "Execution still running (task {task}); follow it with `kafkaops rebalance status --task {task} --follow`.\n"
        ),
        "stopping" => format!("Execution stopping (task {task}): a stop was requested.\n"),
        _ => format!("Execution ended with an error or was stopped (task {task}).\n"),
    });
    if let Some(k) = &e.placement_in_kafka {
        out.push_str(&format!(
            "Kafka shows {} partition(s) with new replicas and {} with a new leader.\n",
            k.partitions_moved, k.leaders_changed
        ));
    }
    if let Some(p) = &e.progress {
        out.push_str(&render_progress(p, style));
        let reorders = v
            .proposal
            .movements
            .iter()
            .filter(|m| {
                let (mut a, mut b) = (m.old_replicas.clone(), m.new_replicas.clone());
                a.sort_unstable();
                b.sort_unstable();
                a == b && m.old_replicas != m.new_replicas
            })
            .count() as u64;
        if let Some(note) = count_note(
            v.proposal.summary.replica_movements,
            reorders,
            Some(p.partitions_total),
        ) {
            out.push_str(&note);
        }
        if e.status == "completed" && p.leaders_total > 0 {
            out.push_str(
                "Leadership moves are the executor's own count: it includes leaders that change together with their replicas, which the proposal counts as replica movements.\n",
            );
        }
    }
    crate::output::wrap_prose(&out, style)
}

pub(crate) fn render_status(s: &StatusView, style: crate::output::Style) -> String {
    let mut out = executor_lines(s, style);
    out.push_str(&throttle_line(s));
    let mut t = crate::output::new_table(style);
    t.set_header(vec!["", "value"]);
    t.add_row(vec!["load monitor".into(), opt(s.monitor_state.clone())]);
    t.add_row(vec![
        "ready for proposals".into(),
        match (&s.ready, &s.not_ready_reason) {
            (true, _) => "yes".into(),
            (false, Some(r)) => format!("no: {r}"),
            (false, None) => "no".into(),
        },
    ]);
    t.add_row(vec![
        "cached proposal ready".into(),
        opt(s.proposal_ready.map(|b| if b { "yes" } else { "no" })),
    ]);
    out.push_str(&format!("{}\n", crate::output::fit(t, style, &[])));
    crate::output::wrap_prose(&out, style)
}

/// What the executor does, for `render_status` (pure): the task, its reason, progress and
/// details, or that nothing executes.
fn executor_lines(s: &StatusView, style: crate::output::Style) -> String {
    let mut out = String::new();
    if s.executing {
        out.push_str(&format!(
            "Cruise Control is executing: {}{}\n",
            s.executor_state,
            s.task_id
                .as_deref()
                .map(|t| format!(" (task {t})"))
                .unwrap_or_default()
        ));
        if let Some(r) = &s.reason {
            out.push_str(&format!("Reason: {r}\n"));
        }
        if let Some(p) = &s.progress {
            out.push_str(&render_progress(p, style));
        }
        if let Some(d) = &s.details {
            let dur =
                |ms: u64| humantime::format_duration(Duration::from_secs(ms / 1000)).to_string();
            out.push_str(&format!(
                "Task: {}; running for {}; {}\n",
                d.task_kind.unwrap_or("unknown kind"),
                d.elapsed_ms.map_or_else(|| "-".into(), dur),
                d.eta_ms
                    .map_or_else(|| "no ETA yet".into(), |s| format!("about {} left", dur(s)))
            ));
            if d.intra_broker_movements_total > 0 || d.aborting_partitions > 0 {
                out.push_str(&format!(
                    "Intra-broker movements {}/{}, aborting partitions {}\n",
                    d.intra_broker_movements_finished,
                    d.intra_broker_movements_total,
                    d.aborting_partitions
                ));
            }
            if !d.concurrency.is_empty() {
                out.push_str(&format!(
                    "Concurrency caps: {}\n",
                    d.concurrency
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    } else {
        out.push_str("Cruise Control is not executing anything.\n");
    }
    out
}

/// The replication throttles in force, for `render_status` (pure): a line, or nothing when
/// they were not read.
fn throttle_line(s: &StatusView) -> String {
    match &s.throttles {
        Some(t) if t.is_empty() => "Replication throttle: none set on the brokers\n".into(),
        Some(t) => format!(
            "Replication throttle in force: {}\n",
            t.iter()
                .map(|t| format!(
                    "broker {} leader {} follower {}",
                    t.broker,
                    rate(t.leader_bytes_per_second),
                    rate(t.follower_bytes_per_second)
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        None => String::new(),
    }
}
