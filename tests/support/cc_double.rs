//! A Cruise Control stand-in for integration tests: starts the Java test double
//! (`tests/env/cc-double`, see its README) against a real Kafka cluster and stops it again.
//!
//! Why a double: Cruise Control is published only on LinkedIn's Artifactory, which tests cannot
//! reach. The double speaks CC's REST API (shapes, errors, 202 + `User-Task-ID`, task limits) and
//! does the real work on the cluster with partition reassignments, so kafkaops' client and its
//! end-to-end flows run against real replica movement.
//!
//! # Design
//! - **Synchronous**, like [`super::kafka`]: `std::process` and blocking reads, usable from `#[test]`
//!   and `#[tokio::test]`.
//! - **Built once per source version**: `tests/env/cc-double/build.sh` (Maven, cached by content
//!   hash under `~/.cache/kafkaops-testenv/cc-double`; a warm call takes ~0.2 s) runs before each
//!   start, so a build another checkout removed is simply rebuilt.
//! - **No orphan JVMs**: spawned through [`super::kafka::spawn_tied`] (`PR_SET_PDEATHSIG`), killed
//!   on `Drop` and on [`CcDouble::restart`].
//! - **Restart keeps the port**, so a client's URL stays valid while the double forgets every user
//!   task and warms up again, like a restarted CC.
//! - **TLS**: [`CcDoubleOptions::tls`] generates a throw-away CA and server certificate with the
//!   JDK's `keytool` (`gen-tls.sh`); [`CcDouble::ca_pem_path`] is the CA to trust.
//! - **Roles**: [`CcDoubleOptions::users`] are Basic-auth users with Cruise Control's roles
//!   (VIEWER/USER/ADMIN); [`strimzi_api_users`] are the two Strimzi generates (an ADMIN operator user
//!   and the USER-role `healthcheck`).
#![allow(dead_code)] // Shared by several test binaries; each uses a subset.

use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use super::kafka::spawn_tied;

/// How long a start may take until the `CC-DOUBLE LISTENING` line (JVM start on a busy 2-core host).
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// Cruise Control's roles (`DefaultRoleSecurityProvider`): VIEWER may call `kafka_cluster_state`,
/// `user_tasks`, `review_board`; USER every GET endpoint but `bootstrap` and `train`; ADMIN all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcRole {
    Viewer,
    User,
    Admin,
}

impl CcRole {
    fn name(self) -> &'static str {
        match self {
            CcRole::Viewer => "VIEWER",
            CcRole::User => "USER",
            CcRole::Admin => "ADMIN",
        }
    }
}

/// One line of Cruise Control's Basic-auth credentials file (`user: password, ROLE`).
#[derive(Clone, Debug)]
pub struct CcApiUser {
    pub name: String,
    pub password: String,
    pub role: CcRole,
}

impl CcApiUser {
    pub fn new(name: &str, password: &str, role: CcRole) -> Self {
        Self {
            name: name.into(),
            password: password.into(),
            role,
        }
    }
}

/// The users Strimzi writes into Cruise Control's credentials file (reference section 7): its
/// operator's ADMIN user `rebalance-operator` and the USER-role `healthcheck` user.
pub fn strimzi_api_users(admin_password: &str, healthcheck_password: &str) -> Vec<CcApiUser> {
    vec![
        CcApiUser::new("rebalance-operator", admin_password, CcRole::Admin),
        CcApiUser::new("healthcheck", healthcheck_password, CcRole::User),
    ]
}

/// Settings of one double; `None` keeps the double's default (named after CC's config key).
#[derive(Clone, Debug, Default)]
pub struct CcDoubleOptions {
    /// Seconds after (re)start during which goal-based requests fail with NotEnoughValidWindows.
    pub warmup_seconds: u64,
    /// HTTP Basic credentials of one ADMIN user the double demands (`webserver.security.enable`).
    pub basic_auth: Option<(String, String)>,
    /// More Basic-auth users, each with a role (see [`strimzi_api_users`]). Any user, or
    /// `basic_auth`, turns security on: no or wrong credentials answer 401, a role too low 403.
    pub users: Vec<CcApiUser>,
    /// Serve HTTPS with a generated certificate.
    pub tls: bool,
    /// The certificate's subject alternative names in keytool's syntax (`dns:NAME,ip:ADDR`);
    /// default `dns:localhost,ip:127.0.0.1`.
    pub tls_names: Option<String>,
    /// `max.active.user.tasks` (default 5).
    pub max_active_tasks: Option<usize>,
    /// `completed.user.task.retention.time.ms`, in seconds (default 24 h).
    pub task_retention_seconds: Option<u64>,
    /// Period of the user-task scanner that frees slots (CC: 5 s).
    pub task_scan_millis: Option<u64>,
    /// `webserver.request.maxBlockTimeMs` (default 10 s): longer requests answer 202.
    pub max_block_millis: Option<u64>,
    /// Minimum time a proposal computation takes, to exercise the 202 flow.
    pub min_compute_millis: Option<u64>,
    /// Replica/leader count skew that the anomaly detector reports as a goal violation.
    pub anomaly_skew_threshold: Option<f64>,
    /// `anomaly.detection.interval.ms`, in seconds (default 10).
    pub anomaly_interval_seconds: Option<u64>,
    /// Goal violations start a rebalance (`self.healing.goal.violation.enabled`).
    pub self_healing: bool,
    /// `anomaly.detection.goals`: the goals the detector checks (default, as Cruise Control's
    /// shipped configuration: RackAwareGoal and the capacity goals, so replica skew raises nothing
    /// until the distribution goals are listed).
    pub anomaly_detection_goals: Option<Vec<String>>,
    /// Kafka client properties of the double's admin client (`security.protocol`, `sasl.*`,
    /// `ssl.*`), as Cruise Control passes its Kafka client settings through.
    pub kafka_properties: Vec<(String, String)>,
    /// After `stop_proposal_execution`, how long the executor stays in `STOPPING_EXECUTION`
    /// before it is idle and the task ends (a real CC: ~45 s; default 0).
    pub stop_linger: Option<Duration>,
    /// How long an execution stays in `STARTING_EXECUTION` before its first move (a real CC:
    /// 10-45 s; default 0).
    pub first_move_delay: Option<Duration>,
    /// Anything else, passed through to `Main`.
    pub extra_args: Vec<String>,
}

/// The double's Kafka client properties for a SASL_SSL listener: SCRAM-SHA-512 as `user`,
/// trusting the CA certificate `ca_pem` (PEM), the way Cruise Control is given its Kafka client
/// settings.
#[allow(dead_code)] // Only the secured-cluster tests use it.
pub fn sasl_ssl_kafka_properties(
    user: &str,
    password: &str,
    ca_pem: &Path,
) -> Vec<(String, String)> {
    let jaas = format!(
        "org.apache.kafka.common.security.scram.ScramLoginModule required \
         username=\"{user}\" password=\"{password}\";"
    );
    [
        ("security.protocol", "SASL_SSL".to_string()),
        ("sasl.mechanism", "SCRAM-SHA-512".to_string()),
        ("sasl.jaas.config", jaas),
        ("ssl.truststore.type", "PEM".to_string()),
        ("ssl.truststore.location", ca_pem.display().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// The directory `build.sh` produced (`cc-double.jar` plus `libs/`). Cheap when warm (~0.2 s), so it
/// runs before every start: the cache is shared with other checkouts, whose builds come and go.
pub fn ensure_cc_double_built() -> Result<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/env/cc-double/build.sh");
    let out = Command::new("bash")
        .arg(&script)
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("cannot run {}", script.display()))?;
    if !out.status.success() {
        bail!("{} failed ({})", script.display(), out.status);
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let dir = stdout.lines().last().unwrap_or("").trim().to_string();
    if dir.is_empty() || !Path::new(&dir).join("cc-double.jar").exists() {
        bail!("build.sh printed no build directory: {stdout:?}");
    }
    Ok(PathBuf::from(dir))
}

/// A running Cruise Control test double. Dropping it kills the JVM.
pub struct CcDouble {
    bootstrap: String,
    opts: CcDoubleOptions,
    build_dir: PathBuf,
    work: tempfile::TempDir,
    child: Option<Child>,
    port: u16,
    starts: u32,
}

impl CcDouble {
    /// Builds the double if needed, starts it against `bootstrap` and waits until it listens.
    pub fn start(bootstrap: &str, opts: CcDoubleOptions) -> Result<Self> {
        let work = tempfile::Builder::new()
            .prefix("cc-double-")
            .tempdir()
            .context("cannot create a work dir for the cc-double")?;
        if opts.tls {
            let script =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/env/cc-double/gen-tls.sh");
            let status = Command::new("bash")
                .arg(&script)
                .arg(work.path().join("tls"))
                .arg(TLS_PASSWORD)
                .args(opts.tls_names.as_deref())
                .status()
                .with_context(|| format!("cannot run {}", script.display()))?;
            if !status.success() {
                bail!("{} failed ({status})", script.display());
            }
        }
        let mut cc = Self {
            bootstrap: bootstrap.to_string(),
            opts,
            build_dir: PathBuf::new(), // set by spawn()
            work,
            child: None,
            port: 0,
            starts: 0,
        };
        cc.spawn()?;
        Ok(cc)
    }

    /// Base URL, e.g. `http://127.0.0.1:41234/kafkacruisecontrol` (no trailing slash).
    pub fn url(&self) -> String {
        let scheme = if self.opts.tls { "https" } else { "http" };
        format!("{scheme}://127.0.0.1:{}/kafkacruisecontrol", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The CA certificate (PEM) to trust when [`CcDoubleOptions::tls`] is set.
    pub fn ca_pem_path(&self) -> Option<PathBuf> {
        self.opts.tls.then(|| self.work.path().join("tls/ca.pem"))
    }

    /// Kills the process and starts it again on the same port: every user task is forgotten and
    /// the warm-up starts over, as after a real Cruise Control restart.
    pub fn restart(&mut self) -> Result<()> {
        self.kill();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match self.spawn() {
                Ok(()) => return Ok(()),
                // The old socket may linger for a moment; binding the same port then fails.
                Err(e) if Instant::now() < deadline => {
                    eprintln!("cc-double restart retry: {e:#}");
                    thread::sleep(Duration::from_millis(300));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Kills the process (Cruise Control down); [`CcDouble::restart`] starts it again on the
    /// same port.
    pub fn stop(&mut self) {
        self.kill();
    }

    /// The double's stderr so far (for failure messages).
    pub fn log(&self) -> String {
        fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    /// The stderr of every start so far, oldest first (a restart begins a new log): with the
    /// request log (`cc-double: request <ms> <task> <METHOD> <url>`) and the executions' status
    /// lines (`cc-double: task <ms> <task> <status>`), what reached the double across restarts.
    pub fn logs(&self) -> Vec<String> {
        (1..=self.starts)
            .map(|n| {
                fs::read_to_string(self.work.path().join(format!("cc-double-{n}.log")))
                    .unwrap_or_default()
            })
            .collect()
    }

    /// Process id of the running JVM.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    fn log_path(&self) -> PathBuf {
        self.work
            .path()
            .join(format!("cc-double-{}.log", self.starts))
    }

    fn args(&self) -> Vec<String> {
        let o = &self.opts;
        let mut a: Vec<String> = vec![
            "--bootstrap-servers".into(),
            self.bootstrap.clone(),
            "--port".into(),
            self.port.to_string(),
            "--warmup-seconds".into(),
            o.warmup_seconds.to_string(),
        ];
        let mut opt = |flag: &str, v: Option<String>| {
            if let Some(v) = v {
                a.push(flag.into());
                a.push(v);
            }
        };
        opt(
            "--basic-auth",
            o.basic_auth.as_ref().map(|(u, p)| format!("{u}:{p}")),
        );
        opt(
            "--max-active-tasks",
            o.max_active_tasks.map(|v| v.to_string()),
        );
        opt(
            "--task-retention-seconds",
            o.task_retention_seconds.map(|v| v.to_string()),
        );
        opt(
            "--task-scan-millis",
            o.task_scan_millis.map(|v| v.to_string()),
        );
        opt(
            "--max-block-millis",
            o.max_block_millis.map(|v| v.to_string()),
        );
        opt(
            "--min-compute-millis",
            o.min_compute_millis.map(|v| v.to_string()),
        );
        opt(
            "--anomaly-skew-threshold",
            o.anomaly_skew_threshold.map(|v| v.to_string()),
        );
        opt(
            "--anomaly-interval-seconds",
            o.anomaly_interval_seconds.map(|v| v.to_string()),
        );
        opt(
            "--anomaly-detection-goals",
            o.anomaly_detection_goals.as_ref().map(|g| g.join(",")),
        );
        opt(
            "--stop-linger-millis",
            o.stop_linger.map(|d| d.as_millis().to_string()),
        );
        opt(
            "--first-move-delay-millis",
            o.first_move_delay.map(|d| d.as_millis().to_string()),
        );
        for u in &o.users {
            a.push("--user".into());
            a.push(format!("{}:{}:{}", u.name, u.password, u.role.name()));
        }
        if o.tls {
            let tls = self.work.path().join("tls");
            a.push("--tls-keystore".into());
            a.push(tls.join("server.p12").display().to_string());
            a.push("--tls-password".into());
            a.push(TLS_PASSWORD.into());
        }
        if o.self_healing {
            a.push("--self-healing".into());
        }
        for (k, v) in &o.kafka_properties {
            a.push("--kafka-property".into());
            a.push(format!("{k}={v}"));
        }
        a.extend(o.extra_args.iter().cloned());
        a
    }

    fn spawn(&mut self) -> Result<()> {
        let began = Instant::now();
        self.build_dir = ensure_cc_double_built()?;
        self.starts += 1;
        let log = File::create(self.log_path()).context("cannot create the cc-double log")?;
        let cp = format!(
            "{}:{}/*",
            self.build_dir.join("cc-double.jar").display(),
            self.build_dir.join("libs").display()
        );
        let mut cmd = Command::new("java");
        cmd.args([
            "-Xms32m",
            "-Xmx192m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xss512k",
            "-cp",
            &cp,
            "dev.kafkaops.ccdouble.Main",
        ])
        .args(self.args())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(log));
        let mut child = spawn_tied(cmd).context("cannot start the cc-double JVM")?;
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(port) = line.strip_prefix("CC-DOUBLE LISTENING ") {
                    let _ = tx.send(port.trim().parse::<u16>().ok());
                }
            }
            // Read until EOF so the double never blocks on a full pipe; EOF before the line means
            // the JVM died, which must not cost the whole start timeout.
            let _ = tx.send(None);
        });
        self.child = Some(child);
        match rx.recv_timeout(START_TIMEOUT) {
            Ok(Some(port)) => {
                self.port = port;
                super::timing::record("cc_double_start", began.elapsed(), "");
                Ok(())
            }
            _ => {
                self.kill();
                bail!(
                    "cc-double exited or did not report LISTENING within {START_TIMEOUT:?}; log:\n{}",
                    self.log()
                )
            }
        }
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for CcDouble {
    fn drop(&mut self) {
        self.kill();
    }
}

const TLS_PASSWORD: &str = "cc-double-test";
