//! The idle cost of `kafkaops operate` (issue #13: 1,000 topics, a 30 s resync, resident memory
//! and CPU per hour; target under 30 MB resident). A benchmark, so it is `#[ignore]`d and only
//! reports figures (no wall-clock assertion); `benches/README.md` records the runs.
//!
//! A real KRaft cluster (3 combined nodes) with 1,000 topics (3 partitions, RF 2, placed by
//! Kafka, so nothing is to be rebalanced), the Cruise Control double, and `operate` with every
//! auto-rebalance mode enabled. After a warm-up (the first loops), it samples `/proc/PID/stat`
//! (user + system CPU ticks) and `/proc/PID/status` (VmRSS, VmHWM) for the measured period, and
//! checks through `/metrics` that the loops did run.
//!
//! ```text
//! cargo build --release && KAFKAOPS_TEST_BIN=$CARGO_TARGET_DIR/release/kafkaops \
//!   KAFKAOPS_BENCH_SECONDS=900 cargo test --test cluster operate_idle:: -- --ignored --nocapture
//! ```
//! `KAFKAOPS_BENCH_TOPICS` (default 1000) and `KAFKAOPS_BENCH_RESYNC` (default `30s`) change the
//! set-up; `KAFKAOPS_BENCH_ARGS` adds `operate` arguments (e.g. `-vv`).

use crate::support;

use std::time::{Duration, Instant};

use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::config::ClientConfig;
use support::bin::kafkaops_bin;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, http_get, wait_for};
use support::operate::{Operate, OperateOptions, http_port, last_loop, write_policy};

fn env_or<T: std::str::FromStr>(key: &str, default: T) -> T {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One sample of the process: CPU seconds (user + system) and VmRSS / VmHWM in KiB.
#[derive(Debug, Clone, Copy)]
struct Sample {
    at: Instant,
    cpu_seconds: f64,
    rss_kib: u64,
    hwm_kib: u64,
    /// The heap and other private memory (VmRSS = RssAnon + RssFile + RssShmem).
    anon_kib: u64,
    /// Pages of the binary and the shared libraries in memory.
    file_kib: u64,
    threads: u64,
}

fn sample(pid: u32) -> Sample {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    // Fields after the `(comm)`: state is field 3, utime 14, stime 15 (1-based).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    let kib = |key: &str| -> u64 {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    Sample {
        at: Instant::now(),
        cpu_seconds: ticks as f64 / hz,
        rss_kib: kib("VmRSS:"),
        hwm_kib: kib("VmHWM:"),
        anon_kib: kib("RssAnon:"),
        file_kib: kib("RssFile:"),
        threads: kib("Threads:"),
    }
}

fn create_topics(bootstrap: &str, count: usize) {
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("log_level", "3")
        .create()
        .unwrap();
    let opts = AdminOptions::new().operation_timeout(Some(Duration::from_secs(60)));
    let names: Vec<String> = (0..count).map(|i| format!("idle-{i:04}")).collect();
    for chunk in names.chunks(100) {
        let topics: Vec<NewTopic> = chunk
            .iter()
            .map(|n| NewTopic::new(n, 3, TopicReplication::Fixed(2)))
            .collect();
        for r in futures::executor::block_on(admin.create_topics(&topics, &opts)).unwrap() {
            r.unwrap_or_else(|(t, e)| panic!("create {t}: {e:?}"));
        }
    }
}

#[test]
#[ignore = "benchmark: minutes of a real cluster; run it by hand (see the module doc)"]
fn operate_idle_cost_with_1000_topics() {
    let bin = kafkaops_bin();
    let topics: usize = env_or("KAFKAOPS_BENCH_TOPICS", 1000);
    let seconds: u64 = env_or("KAFKAOPS_BENCH_SECONDS", 600);
    let resync: String = env_or("KAFKAOPS_BENCH_RESYNC", "30s".to_string());
    eprintln!("binary under test: {}", bin.display());

    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("cluster");
    let bootstrap = cluster.bootstrap_servers();
    let t = Instant::now();
    create_topics(&bootstrap, topics);
    eprintln!("{topics} topics created in {:?}", t.elapsed());
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            ..Default::default()
        },
    )
    .expect("cc-double");
    let dir = tempfile::tempdir().unwrap();
    let policy = write_policy(
        dir.path(),
        "policy.yaml",
        "autoRebalance:\n  - mode: add-brokers\n    template: { name: t }\n  - mode: remove-brokers\n    template: { name: t }\n  - mode: imbalance\n    template: { name: t }\ntemplates:\n  t: {}\n",
    );
    let mut o = OperateOptions::new(&cc.url(), &bootstrap, &policy, &dir.path().join("state"));
    o.resync = resync.clone();
    // More `operate` arguments for a diagnosis (e.g. `-v --action-timeout 60s`).
    o.extra_args = std::env::var("KAFKAOPS_BENCH_ARGS")
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut op = Operate::start(&o).expect("operate");
    let pid = op.pid().unwrap();
    let port = wait_for("operate to serve /metrics", Duration::from_secs(60), || {
        Ok(http_port(&op))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    // Warm-up: the first loop as the leader (state file, clients, first describe of every
    // topic). The state gauge is set only at the end of such a loop (a standby's wait also
    // counts as a "successful loop" for /healthz, so that metric alone does not say it).
    wait_for("the first loop", Duration::from_secs(120), || {
        Ok(http_get(port, "/metrics")
            .ok()
            .filter(|m| m.contains("kafkaops_operate_state{"))
            .map(|_| ()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", op.log()));
    let start = sample(pid);
    let start_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    eprintln!("after the first loop: {start:?}");
    let mut peak_rss = start.rss_kib;
    // Every distinct "last successful loop" seen while measuring: the loops that completed (a
    // read that fails under load is only a missed sample, never "no loop").
    let mut loops_seen = std::collections::BTreeSet::new();
    let mut failed_reads = 0u32;
    let deadline = start.at + Duration::from_secs(seconds);
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_secs(5).min(deadline - Instant::now()));
        assert!(op.exited().is_none(), "operate exited:\n{}", op.log());
        peak_rss = peak_rss.max(sample(pid).rss_kib);
        match last_loop(port) {
            Some(t) if t > start_epoch => {
                loops_seen.insert(t.to_bits());
            }
            Some(_) => {}
            None => failed_reads += 1,
        }
    }
    let end = sample(pid);
    let metrics = http_get(port, "/metrics").unwrap_or_default();
    let healthz = http_get(port, "/healthz").unwrap_or_default();
    let elapsed = end.at.duration_since(start.at).as_secs_f64();
    let cpu = end.cpu_seconds - start.cpu_seconds;
    eprintln!("--- operate idle cost ---");
    eprintln!(
        "topics {topics} (3 partitions, RF 2), resync {resync}, measured {elapsed:.0} s after the first loop"
    );
    eprintln!(
        "CPU: {cpu:.2} s in {elapsed:.0} s = {:.1} CPU seconds per hour ({:.3} % of one core); start-up and first loop: {:.2} s",
        cpu / elapsed * 3600.0,
        cpu / elapsed * 100.0,
        start.cpu_seconds
    );
    eprintln!(
        "memory: VmRSS {:.1} MiB at the end (sampled peak {:.1} MiB), VmHWM {:.1} MiB",
        end.rss_kib as f64 / 1024.0,
        peak_rss as f64 / 1024.0,
        end.hwm_kib as f64 / 1024.0
    );
    eprintln!(
        "of which RssAnon {:.1} MiB (heap, stacks), RssFile {:.1} MiB (binary and libraries); {} threads",
        end.anon_kib as f64 / 1024.0,
        end.file_kib as f64 / 1024.0,
        end.threads
    );
    eprintln!(
        "loops completed while measuring: {} seen ({failed_reads} reads of /metrics failed)",
        loops_seen.len()
    );
    eprintln!("healthz: {}", healthz.trim());
    for l in metrics.lines().filter(|l| {
        l.starts_with("kafkaops_operate_state{")
            || l.starts_with("kafkaops_operate_errors_total")
            || l.starts_with("kafkaops_operate_actions_total")
    }) {
        eprintln!("metrics: {l}");
    }
    // The loops ran through the measured period (not a stalled process measured idle): with
    // samples every 5 s, each loop of the resync interval is seen unless its reads failed;
    // half of them is the floor (the interval may be shorter than a sample on a short run).
    let resync_secs = humantime::parse_duration(&resync).map_or(30, |d| d.as_secs().max(1));
    let expected = seconds / resync_secs;
    assert!(
        loops_seen.len() as u64 * 2 >= expected,
        "{} loops seen during the measurement, {expected} expected at a {resync} resync:\n{}",
        loops_seen.len(),
        op.log()
    );
    assert!(
        !metrics.contains("kafkaops_operate_actions_total"),
        "an idle cluster needs no action:\n{metrics}\n{}",
        op.log()
    );
    op.terminate().unwrap();
    drop(cc);
    drop(cluster);
}
