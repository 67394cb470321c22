//! The main tables of `rebalance` (status, proposals, the review board) at 80 and 160 columns (issue #26): no line wider than the terminal, no
//! broken border, the same layout with and without colour. Snapshots of what people see.

use super::review::{ReviewView, render as render_review};
use super::status_view;
use crate::commands::shared::cc_flow::status_extra::{ExecutionDetails, ThrottleView};
use crate::commands::shared::cc_flow::{ProposalView, render_proposal, render_status};
use crate::cruise_control::lenient::from_str;
use crate::cruise_control::model::{CruiseControlState, OptimizationResult};
use crate::cruise_control::params::RebalanceKind;
use crate::output::Style;
use crate::output::table::{assert_fits, at};

fn fixture(name: &str) -> String {
    let p = format!(
        "{}/tests/fixtures/cruise_control/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn status() -> String {
    fixture("state_executing.json")
}

fn status_text(style: Style) -> String {
    let state: CruiseControlState = from_str(&status()).unwrap();
    let mut v = status_view(&state);
    v.details = Some(ExecutionDetails {
        task_kind: Some("user"),
        started_ms: Some(1_795_356_000_000),
        elapsed_seconds: Some(754),
        eta_seconds: Some(125),
        intra_broker_movements_total: 0,
        intra_broker_movements_finished: 0,
        aborting_partitions: 0,
        concurrency: [
            ("averageConcurrentPartitionMovementsPerBroker", 5.0),
            ("maximumConcurrentPartitionMovementsPerBroker", 5.0),
            ("minimumConcurrentPartitionMovementsPerBroker", 5.0),
        ]
        .into_iter()
        .collect(),
    });
    v.throttles = Some(
        (1..=4)
            .map(|b| ThrottleView {
                broker: b,
                leader_rate: Some(50_000_000),
                follower_rate: Some(50_000_000),
            })
            .collect(),
    );
    render_status(&v, style)
}

fn proposal_text(style: Style) -> String {
    let r: OptimizationResult = from_str(&fixture("add_broker_verbose.json")).unwrap();
    let v = ProposalView::new(&RebalanceKind::AddBrokers(vec![4]), &r, true);
    render_proposal(&v, style, false)
}

fn review_text(style: Style) -> String {
    let views = vec![ReviewView {
        id: 12,
        status: "PENDING_REVIEW".into(),
        endpoint: "REMOVE_BROKER".into(),
        execution: true,
        request: "POST /kafkacruisecontrol/remove_broker?brokerid=5&dryrun=false&json=true&reason=kafkaops%20remove%20brokers%205".into(),
        submitter: "10.0.0.7".into(),
        submitted_ms: Some(1_795_356_000_000),
        reason: "kafkaops: remove brokers 5 (scale-down of node pool brokers)".into(),
    }];
    render_review(&views, style)
}

/// A table's name and how it is rendered.
type Render = (&'static str, fn(Style) -> String);

/// The main tables at 80 and 160 columns: within the width, borders whole; snapshots.
#[test]
fn main_tables_fit_80_and_160_columns() {
    let tables: [Render; 3] = [
        ("status", status_text),
        ("proposal", proposal_text),
        ("review", review_text),
    ];
    for (name, render) in tables {
        for width in [80, 160] {
            let text = render(at(width));
            assert_fits(&text, width);
            insta::assert_snapshot!(format!("{name}_{width}"), text);
        }
        // -o wide: every column, nothing shortened, whatever the terminal.
        let wide = render(Style {
            wide: true,
            ..at(80)
        });
        assert_eq!(
            wide,
            render(Style::PLAIN),
            "{name}: -o wide is the whole table"
        );
    }
}

/// `--color always` colours the status words; `NO_COLOR` (colour off) is the same layout.
#[test]
fn colour_changes_colour_only_not_the_layout() {
    let coloured = proposal_text(Style {
        color: true,
        ..at(80)
    });
    let plain = proposal_text(at(80));
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let stripped = strip_ansi(&coloured);
    assert_eq!(stripped, plain, "the same layout, colour aside");
    insta::assert_snapshot!("proposal_80_color", coloured);
    // The status words carry a colour sequence right before them.
    for word in ["VIOLATED", "FIXED"] {
        let i = coloured
            .find(word)
            .unwrap_or_else(|| panic!("{word}: {coloured}"));
        let before = &coloured[..i];
        assert!(
            before.trim_end_matches(' ').ends_with('m')
                && before.rfind('\u{1b}').is_some_and(|j| i - j < 16),
            "{word} is not coloured: {coloured}"
        );
    }
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) && c != '[' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
