//! The kafkaops binary under test, as the integration tests run it, and what a run gave back.
//!
//! One copy for every test binary (each used to carry its own launcher, environment scrub and
//! `Out`): [`kafkaops`] builds the command, [`run`] runs it to its end. A test adds only what it
//! means to pass (connection flags, `KAFKAOPS_*` settings, a state directory).
#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long one kafkaops run may take before the test gives up on it and kills it (a roll of a
/// whole cluster on a loaded host takes minutes). Only a failing test waits this long.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(600);

/// What is kept of the test's own `KAFKAOPS_*` environment: the marker by which
/// `tests/env/test-all.sh` finds processes the suite left running (kafkaops reads none of it).
const KEPT: &[&str] = &["KAFKAOPS_TEST_RUN_ID"];

/// `kafkaops` (the private copy, [`kafkaops_bin`]) with nothing of the developer's or CI's
/// environment that it reads: no `KAFKAOPS_*` setting, no `KUBECONFIG`, no in-cluster hint
/// (`KUBERNETES_SERVICE_HOST`/`_PORT`), no config file (`XDG_CONFIG_HOME` points nowhere), no
/// colour, stdin closed, and its default state directory in the test process's
/// ([`default_state_home`]).
pub fn kafkaops() -> Command {
    let mut cmd = Command::new(kafkaops_bin());
    for (key, _) in std::env::vars_os() {
        let name = key.to_string_lossy();
        if name.starts_with("KAFKAOPS_") && !KEPT.contains(&name.as_ref()) {
            cmd.env_remove(&key);
        }
    }
    cmd.env_remove("KUBECONFIG")
        .env_remove("KUBERNETES_SERVICE_HOST")
        .env_remove("KUBERNETES_SERVICE_PORT")
        .env("XDG_CONFIG_HOME", "/nonexistent-kafkaops-test")
        .env("XDG_STATE_HOME", default_state_home())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null());
    cmd
}

/// Runs `cmd` to its end (killed after [`RUN_TIMEOUT`]) and logs it in the test's output:
/// `$ kafkaops ARGS -> exit N in T`, then its stderr.
pub fn run(cmd: &mut Command) -> Out {
    let started = Instant::now();
    let arg_list = cmd
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>();
    let args = arg_list.join(" ");
    let out = assert_cmd::Command::from_std(std::mem::replace(cmd, Command::new("kafkaops")))
        .timeout(RUN_TIMEOUT)
        .output()
        .expect("run kafkaops");
    let o = Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        args: arg_list,
    };
    eprintln!(
        "$ kafkaops {args} -> exit {} in {:.1?}\n{}",
        o.code,
        started.elapsed(),
        o.stderr
    );
    o
}

/// [`run`] on a blocking thread, for async tests whose doubles (wiremock) answer on the same
/// runtime.
pub async fn run_async(mut cmd: Command) -> Out {
    tokio::task::spawn_blocking(move || run(&mut cmd))
        .await
        .expect("kafkaops run")
}

/// Where this process keeps its copy of the binary and kafkaops' default state directory:
/// `$TMPDIR/kafkaops-bin-<pid>-XXXXXX`. Statics are never dropped, so an `atexit` handler removes
/// it when the test process exits (the copy is the size of the debug binary, ~180 MB; one leaked
/// per test binary run filled the disk); the next test process removes those of processes that
/// were killed.
const PROCESS_DIR_PREFIX: &str = "kafkaops-bin-";

fn process_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    extern "C" fn remove_dir() {
        if let Some(dir) = DIR.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    DIR.get_or_init(|| {
        prune_dirs_of_dead_processes();
        let dir = tempfile::Builder::new()
            .prefix(&format!("{PROCESS_DIR_PREFIX}{}-", std::process::id()))
            .tempdir()
            .expect("a temporary directory")
            .keep();
        // SAFETY: registers a plain function with no arguments, run once by libc at exit.
        unsafe { libc::atexit(remove_dir) };
        dir
    })
}

fn prune_dirs_of_dead_processes() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let owner = name
            .strip_prefix(PROCESS_DIR_PREFIX)
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = owner
            && !Path::new("/proc").join(pid.to_string()).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// kafkaops' default state directory for runs without `--state-dir` (`XDG_STATE_HOME`): one
/// per test process, never the developer's `~/.local/state`. Saved rolls are per cluster, and
/// every test has its own cluster.
pub fn default_state_home() -> PathBuf {
    let dir = process_dir().join("state");
    std::fs::create_dir_all(&dir).expect("the default state directory");
    dir
}

/// A state directory of the calling test, `$TMPDIR/<prefix>-<pid>-<test name>`, for tests that
/// look at what kafkaops saved (tests of a binary run in parallel, so one per process is not
/// enough). Call it from the test's own thread: libtest names that thread after the test.
pub fn test_state_dir(prefix: &str) -> PathBuf {
    let test: String = std::thread::current()
        .name()
        .unwrap_or("main")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    std::env::temp_dir().join(format!("{prefix}-{}-{test}", std::process::id()))
}

/// A private copy of the binary under test, taken the first time it is asked for: the shared
/// cargo target directory's `kafkaops` may be rebuilt from another worktree while the tests run.
/// `KAFKAOPS_TEST_BIN` names another binary to test instead.
///
/// It lives in the process's directory ([`process_dir`]), removed when the process exits.
pub fn kafkaops_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let path = process_dir().join("kafkaops");
        // `option_env!`: cargo sets it for integration tests, not for the example that also
        // includes this support code (and never calls this).
        let source = std::env::var_os("KAFKAOPS_TEST_BIN")
            .map(PathBuf::from)
            .or_else(|| option_env!("CARGO_BIN_EXE_kafkaops").map(PathBuf::from))
            .expect("no kafkaops binary: set KAFKAOPS_TEST_BIN");
        std::fs::copy(&source, &path).unwrap();
        path
    })
}

/// The exit code and output of one kafkaops run.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// The arguments it ran with (which command's output schema [`Out::json`] checks).
    pub args: Vec<String>,
}

impl Out {
    /// Stdout as JSON, checked against its command's published schema
    /// ([`super::schema::check`]); panics with both streams when it is not JSON or does not
    /// conform.
    pub fn json(&self) -> serde_json::Value {
        let v = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr));
        super::schema::check(&self.args, &v);
        v
    }

    /// The nodes a `roll --output json` plan restarts or reconfigures, sorted.
    pub fn planned_roll_nodes(&self) -> Vec<i64> {
        let plan = self.json();
        let mut nodes: Vec<i64> = plan["plan"]["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|s| s["nodes"].as_array().cloned().unwrap_or_default())
            .filter_map(|n| n["node"].as_i64())
            .collect();
        nodes.sort_unstable();
        nodes
    }
}
