//! `kafkaops operate` as the end-to-end tests run it: a child process with a policy file and a
//! state directory, stopped in every case (SIGTERM, SIGKILL, or on `Drop`), its stderr kept in
//! a file for failure messages; and the ground truth the tests judge it by: replicas per broker
//! from Kafka's metadata, and the Cruise Control double's own `user_tasks` (which requests
//! reached it, as dry runs or executions, and when).
//!
//! Synchronous like the rest of `support`.
#![allow(dead_code)] // Shared by several test binaries; each uses a subset.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use rdkafka::config::ClientConfig;
use rdkafka::producer::{BaseProducer, Producer};

use super::kafka::spawn_tied;

/// How to start one operate process.
#[derive(Debug, Clone)]
pub struct OperateOptions {
    pub cc_url: String,
    pub bootstrap: String,
    pub policy: PathBuf,
    pub state_dir: PathBuf,
    /// e.g. `1s`: loops follow quickly in tests.
    pub resync: String,
    /// More arguments after `operate` (e.g. `--dry-run`).
    pub extra_args: Vec<String>,
    /// More environment variables.
    pub env: Vec<(String, String)>,
    /// Global connection arguments instead of `--bootstrap-servers BOOTSTRAP` (e.g.
    /// `support::control::connection_args`, which a roll needs).
    pub connection: Option<Vec<String>>,
}

impl OperateOptions {
    #[must_use]
    pub fn new(cc_url: &str, bootstrap: &str, policy: &Path, state_dir: &Path) -> Self {
        OperateOptions {
            cc_url: cc_url.into(),
            bootstrap: bootstrap.into(),
            policy: policy.into(),
            state_dir: state_dir.into(),
            resync: "1s".into(),
            extra_args: Vec::new(),
            env: Vec::new(),
            connection: None,
        }
    }
}

/// A running `kafkaops operate`. Dropping it kills the process.
pub struct Operate {
    child: Option<Child>,
    log: PathBuf,
    _log_dir: tempfile::TempDir,
}

fn command(o: &OperateOptions) -> Command {
    let mut cmd = super::bin::kafkaops();
    // Empty: not given (with --strimzi, discovered from the cluster's resources).
    if !o.cc_url.is_empty() {
        cmd.env("KAFKAOPS_CRUISE_CONTROL_URL", &o.cc_url);
    }
    match &o.connection {
        Some(args) => cmd.args(args),
        None => cmd.args(["--bootstrap-servers", &o.bootstrap]),
    };
    cmd.args(["operate", "--policy"])
        .arg(&o.policy)
        .arg("--state-dir")
        .arg(&o.state_dir)
        .args(["--resync", &o.resync, "--listen", "127.0.0.1:0"])
        .args(&o.extra_args);
    for (k, v) in &o.env {
        cmd.env(k, v);
    }
    cmd
}

impl Operate {
    /// Starts `kafkaops operate` in the background.
    pub fn start(o: &OperateOptions) -> Result<Operate> {
        let dir = tempfile::Builder::new().prefix("operate-log-").tempdir()?;
        let log = dir.path().join("operate.log");
        let mut cmd = command(o);
        // stdout and stderr into one file, appended in order.
        let f = File::create(&log)?;
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(f.try_clone()?))
            .stderr(Stdio::from(f));
        let child = spawn_tied(cmd).context("cannot start kafkaops operate")?;
        eprintln!("started kafkaops operate (pid {})", child.id());
        Ok(Operate {
            child: Some(child),
            log,
            _log_dir: dir,
        })
    }

    /// Runs one loop (`--once`) to its end: exit code and output.
    pub fn once(o: &OperateOptions) -> Result<(i32, String)> {
        let mut cmd = command(o);
        cmd.arg("--once");
        let out = cmd.output().context("cannot run kafkaops operate --once")?;
        Ok((
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        ))
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Its output so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends `signal` (`TERM`, `KILL`, `INT`) and waits for the exit; the exit code (`None`:
    /// killed by the signal).
    pub fn signal(&mut self, signal: &str, deadline: Duration) -> Result<Option<i32>> {
        let Some(mut child) = self.child.take() else {
            bail!("operate is not running");
        };
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()?;
        if !status.success() {
            bail!("kill -{signal} {} failed", child.id());
        }
        let start = Instant::now();
        loop {
            if let Some(s) = child.try_wait()? {
                return Ok(s.code());
            }
            if start.elapsed() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "operate did not exit within {deadline:?} after SIG{signal}; log:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGTERM and the exit code.
    pub fn terminate(&mut self) -> Result<Option<i32>> {
        self.signal("TERM", Duration::from_secs(30))
    }

    /// SIGKILL (a crash).
    pub fn kill(&mut self) -> Result<()> {
        self.signal("KILL", Duration::from_secs(10)).map(|_| ())
    }

    /// Whether it exited on its own (with its code).
    pub fn exited(&mut self) -> Option<Option<i32>> {
        let child = self.child.as_mut()?;
        child.try_wait().ok().flatten().map(|s| s.code())
    }
}

impl Drop for Operate {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Writes a policy file (YAML) and returns its path.
pub fn write_policy(dir: &Path, name: &str, yaml: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, yaml).expect("write the policy");
    p
}

/// Replicas per broker over every topic (internal ones included), from Kafka's metadata.
pub fn replicas_per_broker(bootstrap: &str) -> Result<BTreeMap<i32, usize>> {
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("log_level", "3")
        .create()
        .context("a Kafka client")?;
    let md = producer
        .client()
        .fetch_metadata(None, Duration::from_secs(10))
        .context("metadata")?;
    let mut m: BTreeMap<i32, usize> = md.brokers().iter().map(|b| (b.id(), 0)).collect();
    for t in md.topics() {
        for p in t.partitions() {
            for r in p.replicas() {
                *m.entry(*r).or_insert(0) += 1;
            }
        }
    }
    Ok(m)
}

/// One entry of the double's `user_tasks`.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: String,
    /// `POST /kafkacruisecontrol/add_broker?...`.
    pub url: String,
    pub start_ms: i64,
    pub status: String,
}

impl Task {
    /// The endpoint (`add_broker`, `remove_broker`, `rebalance`, ...).
    #[must_use]
    pub fn endpoint(&self) -> String {
        let path = self.url.split_whitespace().last().unwrap_or("");
        let path = path.split('?').next().unwrap_or("");
        path.rsplit('/').next().unwrap_or("").to_string()
    }

    /// An execution request (`dryrun=false`); Cruise Control's default is a dry run.
    #[must_use]
    pub fn executes(&self) -> bool {
        self.url.to_ascii_lowercase().contains("dryrun=false")
    }
}

/// The double's user tasks (its own record of every request it got), oldest first.
pub fn user_tasks(cc_url: &str) -> Result<Vec<Task>> {
    let rest = cc_url
        .strip_prefix("http://")
        .ok_or_else(|| anyhow!("not an http URL: {cc_url}"))?;
    let (hostport, base) = rest.split_once('/').unwrap_or((rest, ""));
    let port: u16 = hostport
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .ok_or_else(|| anyhow!("no port in {cc_url}"))?;
    let body = super::kafka::http_get(port, &format!("/{base}/user_tasks?json=true"))?;
    parse_user_tasks(&body)
}

/// The double's user tasks over HTTPS with Basic auth (`curl`), oldest first.
pub fn user_tasks_tls(cc_url: &str, ca: &Path, user: &str, password: &str) -> Result<Vec<Task>> {
    let out = Command::new("curl")
        .args(["-sS", "--fail", "--max-time", "20", "--cacert"])
        .arg(ca)
        .args(["-u", &format!("{user}:{password}")])
        .arg(format!(
            "{}/user_tasks?json=true",
            cc_url.trim_end_matches('/')
        ))
        .output()
        .context("cannot run curl")?;
    if !out.status.success() {
        bail!("curl: {}", String::from_utf8_lossy(&out.stderr));
    }
    parse_user_tasks(&String::from_utf8_lossy(&out.stdout))
}

/// A `user_tasks` answer, oldest first.
pub fn parse_user_tasks(body: &str) -> Result<Vec<Task>> {
    let v: serde_json::Value = serde_json::from_str(body).with_context(|| body.to_string())?;
    let mut out: Vec<Task> = v["userTasks"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|t| Task {
            id: t["UserTaskId"].as_str().unwrap_or("").to_string(),
            url: t["RequestURL"].as_str().unwrap_or("").to_string(),
            start_ms: t["StartMs"]
                .as_str()
                .and_then(|s| s.parse().ok())
                .or_else(|| t["StartMs"].as_i64())
                .unwrap_or(0),
            status: t["Status"].as_str().unwrap_or("").to_string(),
        })
        .collect();
    out.sort_by_key(|t| t.start_ms);
    Ok(out)
}

/// The double's execution requests (`dryrun=false`) to `endpoint` started at or after `since_ms`.
pub fn executions(cc_url: &str, endpoint: &str, since_ms: i64) -> Result<Vec<Task>> {
    Ok(user_tasks(cc_url)?
        .into_iter()
        .filter(|t| t.endpoint() == endpoint && t.executes() && t.start_ms >= since_ms)
        .collect())
}

/// The saved operate state (the file in `state_dir`), if any.
pub fn saved_state(state_dir: &Path) -> Option<serde_json::Value> {
    let entry = std::fs::read_dir(state_dir).ok()?.flatten().find(|e| {
        let n = e.file_name().to_string_lossy().into_owned();
        n.starts_with("operate-") && n.ends_with(".json")
    })?;
    serde_json::from_str(&std::fs::read_to_string(entry.path()).ok()?).ok()
}

/// Epoch milliseconds now (to compare with the double's `StartMs`).
#[must_use]
pub fn epoch_ms() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// The port of `/metrics`, `/healthz` and `/readyz` that operate printed at start (the tests
/// pass `--listen 127.0.0.1:0`).
pub fn http_port(op: &Operate) -> Option<u16> {
    let log = op.log();
    let marker = "on http://127.0.0.1:";
    let at = log.find(marker)? + marker.len();
    log[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

/// The value of an unlabelled metric in a `/metrics` text (`None`: absent).
pub fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

/// When operate's last reconcile loop completed (epoch seconds, from its `/metrics`).
pub fn last_loop(port: u16) -> Option<f64> {
    let text = super::kafka::http_get(port, "/metrics").ok()?;
    metric(
        &text,
        "kafkaops_operate_last_successful_loop_timestamp_seconds",
    )
}

/// Writes `bytes` into each partition of `topic` (acks=all), so moving it takes time.
pub fn fill(bootstrap: &str, topic: &str, partitions: i32, bytes: usize) -> Result<()> {
    use rdkafka::producer::BaseRecord;
    let producer: BaseProducer = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("acks", "all")
        .set("linger.ms", "20")
        .set("log_level", "3")
        .create()?;
    let payload = vec![b'x'; 10_000];
    for p in 0..partitions {
        for _ in 0..bytes / payload.len() {
            loop {
                let rec = BaseRecord::<(), [u8]>::to(topic)
                    .partition(p)
                    .payload(&payload[..]);
                match producer.send(rec) {
                    Ok(()) => break,
                    Err(_) => {
                        producer.poll(Duration::from_millis(50));
                    }
                }
            }
            producer.poll(Duration::ZERO);
        }
    }
    producer.flush(Duration::from_secs(60))?;
    Ok(())
}

/// Throttles replication: every replica of `topics` (`*`) and the rate on `brokers` (`None`:
/// the rate removed), so a reassignment is slow until the throttle is lifted.
pub fn throttle(
    bootstrap: &str,
    topics: &[&str],
    brokers: &[i32],
    rate: Option<u64>,
) -> Result<()> {
    use rdkafka::admin::{AdminClient, AdminOptions, AlterConfig, ResourceSpecifier};
    use rdkafka::client::DefaultClientContext;
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", bootstrap)
        .set("log_level", "3")
        .create()?;
    let opts = AdminOptions::new().request_timeout(Some(Duration::from_secs(10)));
    let mut configs = Vec::new();
    for t in topics {
        configs.push(
            AlterConfig::new(ResourceSpecifier::Topic(t))
                .set("leader.replication.throttled.replicas", "*")
                .set("follower.replication.throttled.replicas", "*"),
        );
    }
    let value = rate.map(|r| r.to_string());
    for b in brokers {
        let c = AlterConfig::new(ResourceSpecifier::Broker(*b));
        configs.push(match &value {
            Some(v) => c
                .set("leader.replication.throttled.rate", v)
                .set("follower.replication.throttled.rate", v),
            None => c,
        });
    }
    for c in &configs {
        for r in futures::executor::block_on(admin.alter_configs([c], &opts))? {
            r.map_err(|(res, code)| anyhow!("AlterConfigs {res:?}: {code:?}"))?;
        }
    }
    Ok(())
}
