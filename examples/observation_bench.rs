//! Benchmark: what observing a large cluster costs kafkaops (issue #27), against the synthetic
//! Kafka (`tests/support/synthetic_kafka/`), served from this process.
//!
//! For each size (brokers x partitions in topics of 100, RF 3, rack-aware in 3 racks,
//! `min.insync.replicas` 2, 3 controllers; bootstrap list: the first three brokers, and
//! `bootstrap.controllers` the three controllers):
//! 1. `kafkaops roll --dry-run --all` end to end (connect, one observation, plan, print), as a
//!    child process: wall time, peak RSS (`wait4`), CPU, and the requests and bytes the cluster
//!    served it, per API;
//! 2. the library's observation alone (`KafkaClient::observe`, what a roll repeats every poll),
//!    in a child process (this binary in `observe` mode): the first observation (fresh
//!    connections, as in the dry run) and the next ones (connections kept, as in a roll), each
//!    with its wall time, the peak RSS so far and the requests and bytes it cost; once reading
//!    every broker's configs (a roll) and once only those a decision needs (the dry run).
//!
//! A child that grows past `--rss-limit-mib` or runs past `--timeout` is killed and the row says
//! how far it got (requests answered before). Prints JSON lines on stderr as it goes and the
//! Markdown tables of `benches/README.md` on stdout. Run it through `benches/observation.sh`.

#[path = "../tests/support/synthetic_kafka/mod.rs"]
mod synthetic_kafka;

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use kafkaops::kafka::client::{BrokerConfigReads, ClusterObserver, KafkaClient};
use kafkaops::kafka::config::ConnectionConfig;
use synthetic_kafka::{Spec, Stats, SyntheticKafka};

#[derive(Parser, Debug)]
#[command(about = "Measure kafkaops' observation of large synthetic clusters")]
struct Args {
    #[command(subcommand)]
    mode: Option<Mode>,
    /// Sizes as BROKERSxPARTITIONS, comma-separated
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "100x10000,500x50000,1000x100000"
    )]
    sizes: Vec<String>,
    /// Observations in the observation run (the first one opens the connections)
    #[arg(long, default_value_t = 3)]
    observations: usize,
    /// Kill a child whose resident size passes this
    #[arg(long, default_value_t = 8192)]
    rss_limit_mib: u64,
    /// Kill a child that runs longer than this many seconds
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    /// Skip the dry runs or the observation runs
    #[arg(long)]
    skip: Option<String>,
    /// The kafkaops binary [default: next to this example's directory]
    #[arg(long)]
    kafkaops: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Mode {
    /// (child) Observe `count` times and print one JSON line per observation
    Observe {
        #[arg(long)]
        bootstrap: String,
        #[arg(long)]
        stats_url: String,
        #[arg(long)]
        count: usize,
        /// `bootstrap.controllers`
        #[arg(long)]
        controllers: String,
        /// Read only the broker configs a decision needs (`BrokerConfigReads::Needed`, what
        /// `roll --dry-run` reads) instead of every broker's
        #[arg(long)]
        needed: bool,
    },
}

fn main() -> Result<()> {
    let args = Args::parse();
    if let Some(Mode::Observe {
        bootstrap,
        stats_url,
        count,
        controllers,
        needed,
    }) = &args.mode
    {
        return observe_child(bootstrap, controllers, stats_url, *count, *needed);
    }
    let kafkaops = match args.kafkaops.clone() {
        Some(p) => p,
        None => std::env::current_exe()?
            .parent()
            .and_then(|p| p.parent())
            .context("no parent dir")?
            .join("kafkaops"),
    };
    let mut dry_rows = Vec::new();
    let mut observe_rows = Vec::new();
    for size in &args.sizes {
        let (b, p) = size
            .split_once('x')
            .and_then(|(b, p)| Some((b.parse::<usize>().ok()?, p.parse::<usize>().ok()?)))
            .with_context(|| format!("bad size {size:?} (BROKERSxPARTITIONS)"))?;
        let spec = Spec::new(b, p);
        let started = Instant::now();
        let kafka = SyntheticKafka::start(&spec)?;
        eprintln!(
            "== {b} brokers, {p} partitions: serving after {:.1?}",
            started.elapsed()
        );
        if args.skip.as_deref() != Some("dry-run") {
            let row = dry_run(&args, &kafkaops, &kafka)?;
            eprintln!("{}", serde_json::to_string(&row)?);
            dry_rows.push((b, p, row));
        }
        if args.skip.as_deref() != Some("observe") {
            for needed in [false, true] {
                let rows = observations(&args, &kafka, needed)?;
                for r in &rows {
                    eprintln!("{}", serde_json::to_string(r)?);
                }
                observe_rows.push((b, p, rows));
            }
        }
    }
    print_tables(&dry_rows, &observe_rows);
    Ok(())
}

/// What a child process cost.
#[derive(Debug, Default, serde::Serialize)]
struct Run {
    exit: Option<i32>,
    /// "rss" or "timeout" when the bench killed it.
    killed: Option<&'static str>,
    wall_s: f64,
    max_rss_mib: f64,
    cpu_s: f64,
    /// CPU this process (the synthetic cluster) used meanwhile.
    server_cpu_s: f64,
    stdout: String,
    stderr_tail: String,
    #[serde(skip)]
    stderr: String,
}

/// Runs `cmd`, killing it past the RSS limit or the timeout.
/// CPU seconds (user + system) this process used so far.
fn own_cpu_s() -> f64 {
    // SAFETY: zeroed rusage is a valid value; getrusage only writes into it.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &raw mut usage);
        usage
    };
    #[allow(clippy::cast_precision_loss)]
    let s = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) as f64
        + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) as f64 / 1e6;
    s
}

fn run_child(mut cmd: Command, rss_limit_mib: u64, timeout: Duration) -> Result<Run> {
    let started = Instant::now();
    let server_cpu = own_cpu_s();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let pid = i32::try_from(child.id())?;
    let mut out = child.stdout.take().context("stdout")?;
    let mut err = child.stderr.take().context("stderr")?;
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut run = Run::default();
    loop {
        let mut status = 0;
        // SAFETY: zeroed rusage is a valid value; wait4 only writes into the two locals.
        #[allow(unsafe_code)]
        let (done, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let r = libc::wait4(pid, &raw mut status, libc::WNOHANG, &raw mut usage);
            (r == pid, usage)
        };
        if done {
            run.wall_s = started.elapsed().as_secs_f64();
            #[allow(clippy::cast_precision_loss)]
            {
                run.max_rss_mib = usage.ru_maxrss as f64 / 1024.0;
                run.cpu_s = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) as f64
                    + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) as f64 / 1e6;
            }
            run.exit = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            run.server_cpu_s = own_cpu_s() - server_cpu;
            break;
        }
        if run.killed.is_none() {
            let rss_kib = std::fs::read_to_string(format!("/proc/{pid}/status"))
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find(|l| l.starts_with("VmRSS:"))
                        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                });
            let why = if rss_kib.is_some_and(|k| k > rss_limit_mib * 1024) {
                Some("rss")
            } else if started.elapsed() > timeout {
                Some("timeout")
            } else {
                None
            };
            if let Some(why) = why {
                run.killed = Some(why);
                let _ = child.kill();
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    run.stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let lines: Vec<&str> = stderr.lines().collect();
    run.stderr_tail = lines[lines.len().saturating_sub(5)..].join("\n");
    run.stderr = stderr;
    Ok(run)
}

#[derive(Debug, serde::Serialize)]
struct DryRunRow {
    run: Run,
    /// Brokers whose DescribeTopics failed or timed out (kafkaops skips their view).
    views_skipped: usize,
    /// The notes of the JSON plan (unreachable brokers, inferred roles, ...).
    notes: Vec<String>,
    stats: Stats,
}

/// The first three brokers, as a real client's bootstrap list would name a few (librdkafka
/// keeps a connection and a thread per bootstrap address).
fn bootstrap(kafka: &SyntheticKafka) -> String {
    kafka
        .bootstrap_servers()
        .split(',')
        .take(3)
        .collect::<Vec<_>>()
        .join(",")
}

/// A note listing many node ids, shortened to its start and the number of ids.
fn shorten(note: &str) -> String {
    if note.len() <= 200 {
        return note.to_string();
    }
    let ids = note
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .count();
    format!(
        "{}... ({ids} numbers)",
        note.chars().take(120).collect::<String>()
    )
}

fn dry_run(args: &Args, kafkaops: &PathBuf, kafka: &SyntheticKafka) -> Result<DryRunRow> {
    let state = tempfile::tempdir()?;
    let _ = kafka.take_stats();
    let mut cmd = Command::new(kafkaops);
    cmd.args(["--bootstrap-servers", &bootstrap(kafka), "--output", "json"])
        .args([
            "-X",
            &format!("bootstrap.controllers={}", kafka.bootstrap_controllers()),
        ])
        .args(["roll", "--dry-run", "--all", "--state-dir"])
        .arg(state.path())
        // Views a broker failed to give are logged at debug level only.
        .env("RUST_LOG", "warn,kafkaops::kafka::client=debug");
    let mut run = run_child(cmd, args.rss_limit_mib, Duration::from_secs(args.timeout))?;
    let stats = kafka.take_stats();
    let views_skipped = run.stderr.matches("did not describe the topics").count();
    let notes = serde_json::from_str::<serde_json::Value>(&run.stdout)
        .ok()
        .and_then(|v| v["notes"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.as_str().map(shorten))
        .collect();
    // The plan itself is long at 1,000 brokers: keep its size only.
    run.stdout = format!("{} bytes", run.stdout.len());
    Ok(DryRunRow {
        run,
        views_skipped,
        notes,
        stats,
    })
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct ObservationLine {
    n: usize,
    ok: bool,
    error: Option<String>,
    wall_s: f64,
    /// Brokers whose partition metadata went into the observation (`metadata_from`); the
    /// others' DescribeTopics failed or timed out and were skipped.
    views_used: usize,
    /// Brokers whose DescribeConfigs failed or timed out (`unreachable_brokers`).
    unreachable: usize,
    /// VmHWM after this observation (the process's peak so far).
    hwm_mib: f64,
    rss_mib: f64,
    stats: Stats,
}

#[derive(Debug, serde::Serialize)]
struct ObserveRow {
    /// Which broker configs the observations read: `every` (a roll) or `needed` (a dry run).
    reads: &'static str,
    run_exit: Option<i32>,
    killed: Option<&'static str>,
    run_max_rss_mib: f64,
    line: Option<ObservationLine>,
    /// When the child was killed: what the cluster had served it by then.
    partial: Option<Stats>,
}

fn observations(args: &Args, kafka: &SyntheticKafka, needed: bool) -> Result<Vec<ObserveRow>> {
    let _ = kafka.take_stats();
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.args(["observe", "--bootstrap", &bootstrap(kafka)])
        .args(["--controllers", &kafka.bootstrap_controllers()])
        .args(["--stats-url", &kafka.stats_url()])
        .args(["--count", &args.observations.to_string()])
        .env("RUST_LOG", "warn");
    if needed {
        cmd.arg("--needed");
    }
    let reads = if needed { "needed" } else { "every" };
    let run = run_child(cmd, args.rss_limit_mib, Duration::from_secs(args.timeout))?;
    let lines: Vec<ObservationLine> = run
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let partial = (lines.len() < args.observations).then(|| kafka.take_stats());
    let mut rows: Vec<ObserveRow> = lines
        .into_iter()
        .map(|line| ObserveRow {
            reads,
            run_exit: run.exit,
            killed: run.killed,
            run_max_rss_mib: run.max_rss_mib,
            line: Some(line),
            partial: None,
        })
        .collect();
    if partial.is_some() {
        rows.push(ObserveRow {
            reads,
            run_exit: run.exit,
            killed: run.killed,
            run_max_rss_mib: run.max_rss_mib,
            line: None,
            partial,
        });
        eprintln!("observation run ended early: {}", run.stderr_tail);
    }
    Ok(rows)
}

fn status_kib(key: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .unwrap_or(0.0)
}

/// `GET url` (HTTP/1.1, the synthetic cluster's stats endpoint).
fn http_get(url: &str) -> Result<String> {
    let rest = url.strip_prefix("http://").context("http:// URL")?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut s = std::net::TcpStream::connect(host)?;
    write!(
        s,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )?;
    let mut reader = std::io::BufReader::new(s);
    let mut line = String::new();
    let mut length = 0usize;
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse()?;
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    Ok(String::from_utf8(body)?)
}

fn observe_child(
    bootstrap: &str,
    controllers: &str,
    stats_url: &str,
    count: usize,
    needed: bool,
) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let reset = format!("{stats_url}?reset=1&nodes=0");
        let _ = http_get(&reset)?;
        let mut config = ConnectionConfig::new(bootstrap);
        config.bootstrap_controllers = Some(controllers.to_string());
        let client = KafkaClient::connect(config).await?;
        if needed {
            client.read_broker_configs(BrokerConfigReads::Needed);
        }
        for n in 1..=count {
            let started = Instant::now();
            let result = client.observe().await;
            let wall_s = started.elapsed().as_secs_f64();
            let stats: Stats = serde_json::from_str(&http_get(&reset)?)?;
            let line = ObservationLine {
                n,
                ok: result.is_ok(),
                error: result.as_ref().err().map(ToString::to_string),
                views_used: result.as_ref().map_or(0, |o| o.metadata_from.len()),
                unreachable: result.as_ref().map_or(0, |o| o.unreachable_brokers.len()),
                wall_s,
                hwm_mib: status_kib("VmHWM:") / 1024.0,
                rss_mib: status_kib("VmRSS:") / 1024.0,
                stats,
            };
            println!("{}", serde_json::to_string(&line)?);
            std::io::stdout().flush()?;
            if result.is_err() {
                bail!("observation {n} failed");
            }
        }
        Ok(())
    })
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[allow(clippy::cast_precision_loss)]
fn mib(bytes: u64) -> String {
    let m = bytes as f64 / (1024.0 * 1024.0);
    if m >= 100.0 {
        format!("{m:.0} MiB")
    } else {
        format!("{m:.1} MiB")
    }
}

/// `Metadata 1,001 (1,000 nodes), ...`, largest first.
fn by_api(stats: &Stats) -> String {
    let mut apis: Vec<_> = stats.by_api.iter().collect();
    apis.sort_by_key(|(_, c)| std::cmp::Reverse(c.requests));
    apis.iter()
        .map(|(name, c)| {
            format!(
                "{name} {} ({} node{}, {})",
                thousands(c.requests),
                thousands(c.nodes),
                if c.nodes == 1 { "" } else { "s" },
                mib(c.bytes_out)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `1,515`, or `1,902 (1,500 answered)` when some were not answered in full.
fn requests(stats: &Stats) -> String {
    if stats.answered == stats.requests {
        thousands(stats.requests)
    } else {
        format!(
            "{} ({} answered)",
            thousands(stats.requests),
            thousands(stats.answered)
        )
    }
}

fn outcome(exit: Option<i32>, killed: Option<&str>) -> String {
    match (killed, exit) {
        (Some("rss"), _) => "killed (RSS limit)".into(),
        (Some(_), _) => "killed (timeout)".into(),
        (None, Some(c)) => format!("exit {c}"),
        (None, None) => "signal".into(),
    }
}

fn print_tables(dry: &[(usize, usize, DryRunRow)], observe: &[(usize, usize, Vec<ObserveRow>)]) {
    if !dry.is_empty() {
        println!("`kafkaops roll --dry-run --all`, end to end:\n");
        println!(
            "| brokers | partitions | result | wall time | peak RSS | CPU | CPU of the synthetic cluster | requests | bytes to kafkaops | bytes from kafkaops | views skipped | requests by API (nodes asked, bytes to kafkaops) |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (b, p, r) in dry {
            println!(
                "| {} | {} | {} | {:.2} s | {:.0} MiB | {:.1} s | {:.1} s | {} | {} | {} | {} | {} |",
                thousands(*b as u64),
                thousands(*p as u64),
                outcome(r.run.exit, r.run.killed),
                r.run.wall_s,
                r.run.max_rss_mib,
                r.run.cpu_s,
                r.run.server_cpu_s,
                requests(&r.stats),
                mib(r.stats.bytes_out),
                mib(r.stats.bytes_in),
                r.views_skipped,
                by_api(&r.stats)
            );
        }
        println!();
    }
    if !observe.is_empty() {
        println!(
            "One observation (`KafkaClient::observe` with `bootstrap.controllers`; #1 opens the connections, later ones reuse them as a roll's polls do; configs read: `every` broker's as a roll, or only the `needed` ones as `roll --dry-run`):\n"
        );
        println!(
            "| brokers | partitions | observation | result | wall time | peak RSS so far | requests | bytes to kafkaops | bytes from kafkaops | broker views used | brokers unreachable | requests by API (nodes asked, bytes to kafkaops) |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (b, p, rows) in observe {
            for r in rows {
                match &r.line {
                    Some(l) => println!(
                        "| {} | {} | #{} ({}) | {} | {:.2} s | {:.0} MiB | {} | {} | {} | {} | {} | {} |",
                        thousands(*b as u64),
                        thousands(*p as u64),
                        l.n,
                        r.reads,
                        if l.ok { "ok" } else { "failed" },
                        l.wall_s,
                        l.hwm_mib,
                        requests(&l.stats),
                        mib(l.stats.bytes_out),
                        mib(l.stats.bytes_in),
                        l.views_used,
                        l.unreachable,
                        by_api(&l.stats)
                    ),
                    None => {
                        let s = r.partial.clone().unwrap_or_default();
                        println!(
                            "| {} | {} | (unfinished) | {} | | {:.0} MiB | {} | {} | {} | | | {} |",
                            thousands(*b as u64),
                            thousands(*p as u64),
                            outcome(r.run_exit, r.killed),
                            r.run_max_rss_mib,
                            requests(&s),
                            mib(s.bytes_out),
                            mib(s.bytes_in),
                            by_api(&s)
                        );
                    }
                }
            }
        }
        println!();
    }
}
