//! Issue #26: the roll plan's prose (reasons, notes, summaries) fits the terminal as tables do,
//! and is never cut when stdout is piped without `COLUMNS`: `roll --dry-run` against the
//! synthetic Kafka (no real cluster needed for a plan).

use crate::support::{bin, synthetic_kafka};
use synthetic_kafka::{Spec, SyntheticKafka};

fn dry_run(kafka: &SyntheticKafka, columns: Option<&str>) -> bin::Out {
    let state = tempfile::tempdir().unwrap();
    let mut cmd = bin::kafkaops();
    cmd.args(["--bootstrap-servers", &kafka.bootstrap_servers()])
        .args(["roll", "--dry-run", "--all", "--state-dir"])
        .arg(state.path());
    match columns {
        Some(c) => cmd.env("COLUMNS", c),
        None => cmd.env_remove("COLUMNS"),
    };
    bin::run(&mut cmd)
}

#[test]
fn the_roll_plan_fits_80_and_40_columns_and_piped_lines_stay_whole() {
    let mut spec = Spec::new(4, 40);
    spec.host = Some("127.0.0.1".into());
    let kafka = SyntheticKafka::start(&spec).unwrap();
    let piped = dry_run(&kafka, None);
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(piped.stdout.starts_with("Plan: "), "{}", piped.stdout);
    let longest = piped.stdout.lines().map(|l| l.chars().count()).max();
    assert!(
        longest > Some(40),
        "a plan with lines to wrap:\n{}",
        piped.stdout
    );
    let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    for width in [80usize, 40] {
        let fitted = dry_run(&kafka, Some(&width.to_string()));
        assert_eq!(fitted.code, 0, "{}", fitted.stderr);
        for line in fitted.stdout.lines() {
            assert!(
                line.chars().count() <= width,
                "over {width} columns: {line:?}\n{}",
                fitted.stdout
            );
        }
        // Only the line breaks differ: the same words in the same order.
        assert_eq!(words(&fitted.stdout), words(&piped.stdout), "at {width}");
        if width == 40 {
            assert!(
                fitted.stdout.lines().count() > piped.stdout.lines().count(),
                "wrapped at 40:\n{}",
                fitted.stdout
            );
        }
    }
}
