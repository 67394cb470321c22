//! Command-line checks that need a real cluster but no Cruise Control (issue #26): a command
//! naming a broker the cluster does not have fails at once with a usage error, as `roll --nodes`
//! does, instead of asking a missing broker and waiting for the request timeout.
//!
//! Run with `cargo test --test cluster cli_checks::`.

use crate::support;

use std::time::Instant;

use support::bin::{kafkaops_bin, run};
use support::kafka::{ClusterSpec, KafkaCluster};

#[test]
fn cordon_of_an_unknown_broker_is_a_usage_error_at_once() {
    let _ = kafkaops_bin();
    let cluster = KafkaCluster::start(ClusterSpec::combined(1)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    for verb in ["cordon", "uncordon"] {
        let started = Instant::now();
        let o = run(support::bin::kafkaops()
            .env("KAFKAOPS_BOOTSTRAP_SERVERS", &bootstrap)
            .args([
                "broker",
                verb,
                "--brokers",
                "1,9",
                "--yes",
                "--request-timeout",
                "20s",
            ]));
        let took = started.elapsed();
        assert_eq!(o.code, 2, "{verb}: {}", o.stderr);
        assert!(
            o.stderr.contains("unknown broker id(s) 9")
                && o.stderr.contains("the cluster has brokers 1"),
            "{verb}: {}",
            o.stderr
        );
        assert!(
            !o.stderr.to_lowercase().contains("timed out"),
            "{verb}: {}",
            o.stderr
        );
        eprintln!("{verb} --brokers 1,9 refused in {took:?}");
    }
    // Nothing changed on broker 1.
    assert_eq!(
        support::kafka::broker_config(&bootstrap, 1, "cordoned.log.dirs")
            .unwrap()
            .filter(|v| !v.is_empty()),
        None
    );
}
