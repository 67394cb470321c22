//! What ships kafkaops to users, tested with the real tools: the container image
//! (`examples/image/`), the Helm chart for `operate` (`examples/chart/kafkaops-operate/`), the
//! krew plugin manifest and the release archives (`examples/release/`).
//!
//! Tools: `tests/env/ship/build.sh` builds Helm, kubectl, krew and its manifest validator,
//! Prometheus' rule and PromQL parser (`promcheck`) and the Prometheus Operator's CRDs from the
//! Go module proxy (cached; `tests/env/install.sh` runs it). `tests/env/image/base.sh` makes a
//! root filesystem of Debian's glibc packages alone.
//!
//! - `containerfile_builds_from_what_it_copies`: the build stage's `COPY` sources alone load
//!   the crate (the manifest names a bench, so a context without `benches/` fails); the runtime
//!   stage is distroless of the build stage's Debian release, runs as the non-root user the
//!   chart runs it as, with the exec-form entrypoint stage.sh lays out (no shell), and carries
//!   the OCI labels (licence = Cargo.toml's).
//! - `image_layout_runs_as_non_root_from_a_read_only_root`: no base image can be pulled here, so
//!   the runtime layout is built the way the Containerfile builds it (stage.sh on the test
//!   build, onto a glibc-only root from Debian's packages) and run under `unshare` with that
//!   root read-only and a tmpfs on `/tmp`, as uid 65532 with no capabilities (checked in
//!   `/proc`): `--version`; `operate --once --dry-run` against a real KRaft cluster and the
//!   Cruise Control double (it sees the empty broker, says what it would do, sends nothing);
//!   `operate --dry-run` serving `/healthz` and `/metrics` from inside.
//! - `chart_lints_renders_and_alerts_on_real_series`: `helm lint --strict` and `helm template`
//!   (defaults, and every optional part on); the Role equals the one of
//!   `examples/operate/rbac.yaml` that `tests/kube/kube_operate.rs` checks against operate's
//!   requests (the chart reads that file through `files/operate-rbac.yaml`, a link); the
//!   Deployment's arguments parse with the real CLI; the policy ConfigMap parses with operate's
//!   policy parser; bad values are refused naming the value; the alert rules load as Prometheus
//!   loads a rule file, and they and the dashboard's queries name only series and labels
//!   `operate` exports.
//! - `alerts_fire_when_their_condition_holds`: the rendered rules evaluated by Prometheus' own
//!   alerting-rule code over an hour of series (a leader and a standby): a stalled loop, the
//!   first failure of an action kind (a counter that just appeared) and a later one, a mover
//!   lasting past its limit across a state change (not the standby's stale state), dependency
//!   errors, nobody leading; each pending/firing exactly when its condition and `for` say.
//! - `chart_is_accepted_by_the_apiserver_under_restricted_pod_security`: every rendered object
//!   (monitors and rules against the Prometheus Operator's generated CRDs) is accepted by the
//!   real test apiserver in a server-side dry run with strict field validation, in a namespace
//!   enforcing the `restricted` Pod Security level; the Deployment's pod passes that admission,
//!   and the same pod without its security context is refused (the admission is on).
//! - `krew_manifest_validates_and_installs_the_packaged_binary`: `package.sh` packages the
//!   test build (reproducibly); krew's own `validate-krew-manifest` accepts the rendered
//!   manifest, installing it from a local HTTP server; a wrong checksum is refused; the
//!   installed plugin runs as `kubectl kafkaops`.

use crate::support;
use support::WAIT;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use clap::Parser as _;
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use kube::core::GroupVersionKind;
use serde_json::{Value, json};
use support::bin::kafkaops_bin;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster, create_topic, http_get, spawn_tied, wait_for};
use support::kube::KubeEnv;
use support::operate::{epoch_ms, user_tasks, write_policy};

const CHART: &str = "examples/chart/kafkaops-operate";
/// The non-root user of the image (distroless' `nonroot`) and of the chart's pods.
const IMAGE_UID: u32 = 65532;
fn top() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a cache script of `tests/env` once per process; the directory it prints.
fn env_script(script: &str, cell: &'static OnceLock<Result<PathBuf, String>>) -> &'static Path {
    cell.get_or_init(|| {
        let out = Command::new(top().join(script))
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot run {script}: {e}"))?;
        if !out.status.success() {
            return Err(format!("{script} failed ({})", out.status));
        }
        let dir = String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string();
        Ok(PathBuf::from(dir))
    })
    .as_ref()
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Helm, kubectl, krew, validate-krew-manifest, promcheck and `crds/`.
fn tools() -> &'static Path {
    static CELL: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    env_script("tests/env/ship/build.sh", &CELL)
}

/// The glibc-only root filesystem (Debian's packages) the image test starts from.
fn glibc_root() -> &'static Path {
    static CELL: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    env_script("tests/env/image/base.sh", &CELL)
}

fn text(out: &Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `cmd`; its stdout, panicking with both streams unless it succeeded.
fn ok(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n{}",
        out.status,
        text(&out)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `helm` with its own cache/config/data homes (it writes nothing of the user's).
fn helm(args: &[&str]) -> Command {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    let home = HOME.get_or_init(|| tempfile::tempdir().unwrap()).path();
    let mut cmd = Command::new(tools().join("helm"));
    cmd.args(args)
        .current_dir(top())
        .env("HELM_CACHE_HOME", home.join("cache"))
        .env("HELM_CONFIG_HOME", home.join("config"))
        .env("HELM_DATA_HOME", home.join("data"))
        .env("KUBECONFIG", home.join("no-kubeconfig"));
    cmd
}

/// Every optional part of the chart on.
const ALL_ON: &str = "metrics.serviceMonitor.enabled=true,metrics.podMonitor.enabled=true,\
                      prometheusRule.enabled=true,grafanaDashboard.enabled=true";

/// `helm template` of the chart into `namespace`, as parsed objects.
fn render(namespace: &str, set: &[&str]) -> Vec<Value> {
    let mut args = vec!["template", "ship", CHART, "--namespace", namespace];
    for s in set {
        args.extend(["--set", s]);
    }
    let yaml = ok(&mut helm(&args));
    let mut docs = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(&yaml) {
        let v: Value = serde::Deserialize::deserialize(doc).unwrap();
        if !v.is_null() {
            docs.push(v);
        }
    }
    docs
}

fn the<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    let found: Vec<&Value> = docs.iter().filter(|d| d["kind"] == kind).collect();
    assert_eq!(found.len(), 1, "one {kind} expected: {found:?}");
    found[0]
}

fn kinds(docs: &[Value]) -> BTreeSet<String> {
    docs.iter()
        .map(|d| d["kind"].as_str().unwrap().to_string())
        .collect()
}

/// The series `kafkaops operate` exports (names as sampled, counters with `_total`) and their
/// label names, from its own telemetry with every family given a sample.
fn exported() -> (BTreeSet<String>, BTreeSet<String>) {
    use kafkaops::app::operate::telemetry::{ErrorSource, Telemetry};
    let t = Telemetry::new();
    t.state("RebalanceOnScaleUp", "rebalance");
    t.transition("Idle", "RebalanceOnScaleUp");
    t.action("rebalance-add-brokers", "failed");
    t.error(ErrorSource::Kafka);
    t.loop_succeeded(1.0);
    t.leader(true);
    let (mut names, mut labels) = (BTreeSet::new(), BTreeSet::new());
    for line in t.encode().lines().filter(|l| !l.starts_with('#')) {
        let end = line.find(['{', ' ']).unwrap();
        names.insert(line[..end].to_string());
        if let Some(set) = line[end..]
            .strip_prefix('{')
            .and_then(|r| r.split_once('}'))
        {
            for pair in set.0.split(',') {
                labels.insert(pair.split_once('=').unwrap().0.to_string());
            }
        }
    }
    (names, labels)
}

/// Labels Prometheus and the Prometheus Operator's monitors add to every scraped series.
const TARGET_LABELS: [&str; 7] = [
    "namespace",
    "pod",
    "container",
    "job",
    "instance",
    "service",
    "endpoint",
];

/// Checks `promcheck`'s analyses: every expression parsed, and names only exported series and
/// labels.
fn check_series(what: &str, analyses: &Value) {
    let (names, labels) = exported();
    let known_labels: BTreeSet<String> = labels
        .iter()
        .cloned()
        .chain(TARGET_LABELS.map(String::from))
        .collect();
    let list = analyses.as_array().unwrap();
    assert!(!list.is_empty(), "{what}: no expression");
    for a in list {
        assert!(a["error"].is_null(), "{what}: {a}");
        let metrics: Vec<&str> = a["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(!metrics.is_empty(), "{what}: selects no series: {a}");
        for m in &metrics {
            assert!(
                names.contains(*m),
                "{what}: {m} is not a series operate exports ({names:?}): {a}"
            );
        }
        for l in a["labels"].as_array().unwrap() {
            let l = l.as_str().unwrap();
            assert!(
                known_labels.contains(l),
                "{what}: label {l} is neither operate's ({labels:?}) nor a target label: {a}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The image
// ---------------------------------------------------------------------------------------------

/// The Containerfile's stages: (FROM line, the instructions after it).
fn stages(containerfile: &str) -> Vec<(String, Vec<String>)> {
    // Join continuation lines, drop comments.
    let mut lines = Vec::new();
    let mut cur = String::new();
    for l in containerfile.lines() {
        let t = l.trim();
        if cur.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            cur.push_str(head);
            cur.push(' ');
        } else {
            cur.push_str(t);
            lines.push(std::mem::take(&mut cur));
        }
    }
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for l in lines {
        if l.starts_with("FROM ") {
            out.push((l, Vec::new()));
        } else if let Some(s) = out.last_mut() {
            s.1.push(l);
        }
    }
    out
}

/// `ARG NAME=default` before the first stage.
fn global_arg(containerfile: &str, name: &str) -> String {
    let prefix = format!("ARG {name}=");
    containerfile
        .lines()
        .find_map(|l| l.trim().strip_prefix(&prefix).map(str::to_string))
        .unwrap_or_else(|| panic!("no ARG {name} with a default"))
}

/// The chart's Chart.yaml.
fn chart_meta() -> Value {
    serde_yaml::from_str(&fs::read_to_string(top().join(CHART).join("Chart.yaml")).unwrap())
        .unwrap()
}

/// The chart's default values (values.yaml).
fn chart_values() -> Value {
    let text = fs::read_to_string(top().join(CHART).join("values.yaml")).unwrap();
    serde_yaml::from_str(&text).unwrap()
}

#[test]
fn containerfile_builds_from_what_it_copies() {
    let file = fs::read_to_string(top().join("examples/image/Containerfile")).unwrap();
    let st = stages(&file);
    assert_eq!(st.len(), 2, "a build and a runtime stage: {st:?}");
    let (build_from, build) = &st[0];
    let (run_from, run) = &st[1];

    // The runtime base is distroless of the build stage's Debian release (glibc must match).
    let release = global_arg(&file, "DEBIAN_RELEASE");
    let debian = match release.as_str() {
        "bookworm" => "debian12",
        "trixie" => "debian13",
        other => panic!("unknown Debian release {other}"),
    };
    assert!(
        build_from.contains("rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE}"),
        "{build_from}"
    );
    assert!(
        run_from.starts_with(&format!("FROM gcr.io/distroless/cc-{debian}:nonroot")),
        "{run_from} is not distroless/cc of {release}"
    );
    // Rust: at least the crate's rust-version.
    let rust: Vec<u32> = global_arg(&file, "RUST_VERSION")
        .split('.')
        .map(|p| p.parse().unwrap())
        .collect();
    let msrv: Vec<u32> = env!("CARGO_PKG_RUST_VERSION")
        .split('.')
        .map(|p| p.parse().unwrap())
        .collect();
    assert!(
        rust >= msrv,
        "RUST_VERSION {rust:?} < rust-version {msrv:?}"
    );

    // Runtime: labels, the non-root user the chart runs it as, exec-form entrypoint (no shell).
    let labels = run.iter().find(|l| l.starts_with("LABEL ")).expect("LABEL");
    for key in ["version", "revision", "source", "licenses", "title"] {
        assert!(
            labels.contains(&format!("org.opencontainers.image.{key}=")),
            "no {key} label: {labels}"
        );
    }
    assert!(
        labels.contains(&format!(
            "org.opencontainers.image.licenses=\"{}\"",
            env!("CARGO_PKG_LICENSE")
        )),
        "the licence label is not Cargo.toml's {}: {labels}",
        env!("CARGO_PKG_LICENSE")
    );
    assert!(
        top().join("LICENSE").is_file(),
        "the image copies LICENSE from the top"
    );
    let values = chart_values();
    let user = format!("USER {IMAGE_UID}:{IMAGE_UID}");
    assert!(run.contains(&user), "{run:?}");
    assert_eq!(values["podSecurityContext"]["runAsUser"], IMAGE_UID);
    assert_eq!(values["podSecurityContext"]["runAsGroup"], IMAGE_UID);
    let entrypoint = run
        .iter()
        .find_map(|l| l.strip_prefix("ENTRYPOINT "))
        .expect("ENTRYPOINT");
    let argv: Vec<String> =
        serde_json::from_str(entrypoint).expect("ENTRYPOINT in exec form (a JSON array)");
    assert_eq!(argv, ["/usr/local/bin/kafkaops"]);
    assert!(
        fs::read_to_string(top().join("examples/image/stage.sh"))
            .unwrap()
            .contains("$root/usr/local/bin/kafkaops"),
        "stage.sh lays the binary out where the entrypoint runs it"
    );
    assert!(
        run.iter().any(|l| l == "COPY --from=build /out/ /"),
        "{run:?}"
    );

    // The build stage's context: exactly what its COPY lines take, enough to load the crate.
    let ctx = tempfile::tempdir().unwrap();
    let mut copied = Vec::new();
    for l in build.iter().filter(|l| l.starts_with("COPY ")) {
        let parts: Vec<&str> = l.split_whitespace().skip(1).collect();
        assert!(
            !parts[0].starts_with("--"),
            "the build stage copies from the context only: {l}"
        );
        let (dest, sources) = parts.split_last().unwrap();
        for s in sources {
            let s = s.trim_end_matches('/');
            let to = if dest.ends_with('/') && *dest != "./" && !dest.ends_with(&format!("{s}/")) {
                ctx.path().join(dest.trim_start_matches("./")).join(s)
            } else if *dest == "./" {
                ctx.path().join(s)
            } else {
                ctx.path().join(dest.trim_end_matches('/'))
            };
            fs::create_dir_all(to.parent().unwrap()).unwrap();
            ok(Command::new("cp").arg("-R").arg(top().join(s)).arg(&to));
            copied.push(s.to_string());
        }
    }
    assert!(
        copied.contains(&"examples/image/stage.sh".to_string()),
        "{copied:?}"
    );
    assert!(
        build
            .iter()
            .any(|l| l.contains("cargo build --release --locked")
                && l.contains("examples/image/stage.sh target/release/kafkaops /out")),
        "{build:?}"
    );
    // `cargo check --bin <none>` loads the manifest and every target it names, then stops: the
    // only error must be the missing binary, never the manifest.
    let out = Command::new(env!("CARGO"))
        .args(["check", "--locked", "--offline", "--bin", "no-such-bin"])
        .current_dir(ctx.path())
        .env("CARGO_TARGET_DIR", ctx.path().join("target"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no bin target named `no-such-bin`")
            && !err.contains("failed to parse manifest"),
        "the build context of the Containerfile ({copied:?}) does not load:\n{err}"
    );
}

/// Runs a command from `root` (made read-only, a tmpfs on `/tmp`) as uid/gid 65532: in an
/// unprivileged user + mount namespace the outer `sh` sets the mounts up as root of that
/// namespace, then `unshare --map-user` enters a nested user namespace where only 65532 exists
/// and `--root` chroots there before the exec: the command has no capabilities and cannot
/// write its root. Setup failures exit 97.
const IN_IMAGE: &str = r#"
fail() { echo "ship: image setup: $1" >&2; exit 97; }
R=$KAFKAOPS_TEST_ROOT
unset KAFKAOPS_TEST_ROOT
mount --bind "$R" "$R" || fail "bind-mount $R"
mount -t tmpfs -o mode=1777 tmp "$R/tmp" || fail "tmpfs on /tmp"
mount -o remount,bind,ro "$R" || fail "read-only root"
exec unshare --map-user=65532 --map-group=65532 --root="$R" "$@"
"#;

fn in_image(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new("unshare");
    cmd.args(["-rm", "sh", "-c", IN_IMAGE, "sh", "/usr/local/bin/kafkaops"])
        .args(args)
        .env_clear()
        .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
        .env("KAFKAOPS_TEST_ROOT", root)
        .env("NO_COLOR", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

#[test]
fn image_layout_runs_as_non_root_from_a_read_only_root() {
    // The runtime layout: glibc from Debian's packages, then what the Containerfile's build
    // stage adds with stage.sh, then distroless' users.
    let image = tempfile::Builder::new()
        .prefix("kafkaops-image-")
        .tempdir()
        .unwrap();
    let root = image.path().join("root");
    ok(Command::new("cp").arg("-a").arg(glibc_root()).arg(&root));
    let staged = ok(Command::new(top().join("examples/image/stage.sh"))
        .arg(kafkaops_bin())
        .arg(&root));
    eprintln!("stage.sh added:\n{staged}");
    fs::write(
        root.join("etc/passwd"),
        format!(
            "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:{IMAGE_UID}:{IMAGE_UID}:nonroot:/home/nonroot:/sbin/nologin\n"
        ),
    )
    .unwrap();
    fs::write(
        root.join("etc/group"),
        format!("root:x:0:\nnonroot:x:{IMAGE_UID}:\n"),
    )
    .unwrap();
    for shell in [
        "bin/sh",
        "usr/bin/sh",
        "bin/bash",
        "bin/dash",
        "bin/busybox",
    ] {
        assert!(!root.join(shell).exists(), "the image has a shell: {shell}");
    }
    fs::create_dir_all(root.join("etc/kafkaops")).unwrap();

    // --version, from the image.
    let out = in_image(&root, &["--version"], &[]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("kafkaops {}", env!("CARGO_PKG_VERSION")),
    );

    // A real cluster whose broker 3 holds no replica, and the Cruise Control double.
    let cluster = KafkaCluster::start(ClusterSpec::combined(3)).expect("start Kafka");
    let bootstrap = cluster.bootstrap_servers();
    let on_12: Vec<Vec<i32>> = (0..6).map(|i| vec![1 + i % 2, 2 - i % 2]).collect();
    create_topic(&bootstrap, "orders", &on_12, &[]).unwrap();
    let cc = CcDouble::start(&bootstrap, CcDoubleOptions::default()).expect("cc-double");
    let url = cc.url();
    let policy = "autoRebalance:\n  - mode: add-brokers\n    template: { name: t }\n\
                  scaleUpGracePeriod: 0s\ndrain: []\ntemplates:\n  t: {}\n";
    // The policy where the chart mounts it (the root is writable until the run makes it
    // read-only).
    write_policy(&root.join("etc/kafkaops"), "policy.yaml", policy);
    let env = [
        ("KAFKAOPS_BOOTSTRAP_SERVERS", bootstrap.as_str()),
        ("KAFKAOPS_CRUISE_CONTROL_URL", url.as_str()),
    ];
    let operate = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "operate",
            "--policy",
            "/etc/kafkaops/policy.yaml",
            "--state-dir",
            "/tmp/state",
            "--resync",
            "1s",
            "--dry-run",
        ]
        .map(String::from)
        .to_vec();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };

    // operate --once --dry-run: sees the empty broker, says what it would do, sends nothing.
    let since = epoch_ms();
    let args = operate(&["--once", "--listen", "127.0.0.1:0"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = in_image(&root, &args, &env).output().unwrap();
    let log = text(&out);
    eprintln!("--- operate --once --dry-run in the image ---\n{log}");
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(
        log.contains("rebalance-add-brokers brokers 3 dry-run"),
        "{log}"
    );
    let sent: Vec<_> = user_tasks(&url)
        .unwrap()
        .into_iter()
        .filter(|t| t.start_ms >= since && !t.url.starts_with("GET"))
        .collect();
    assert!(sent.is_empty(), "a dry run only reads: {sent:?}");

    // operate running in the image: its HTTP endpoints answer, and /proc shows what it runs as.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let listen = format!("127.0.0.1:{port}");
    let args = operate(&["--listen", &listen]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let log_path = image.path().join("operate.log");
    let log_file = fs::File::create(&log_path).unwrap();
    let mut cmd = in_image(&root, &args, &env);
    cmd.stdin(Stdio::null())
        .stdout(log_file.try_clone().unwrap())
        .stderr(log_file);
    let mut child = spawn_tied(cmd).unwrap();
    let pid = child.id();
    let log = || fs::read_to_string(&log_path).unwrap_or_default();
    wait_for("/healthz and a first loop in /metrics", WAIT, || {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(support::kafka::fatal(format!("operate exited ({status})")));
        }
        let healthy = http_get(port, "/healthz").is_ok_and(|b| b == "ok\n");
        let metrics = http_get(port, "/metrics").unwrap_or_default();
        Ok((healthy
            && metrics.lines().any(|l| l == "kafkaops_operate_leader 1")
            && metrics.lines().any(|l| {
                l.starts_with("kafkaops_operate_last_successful_loop_timestamp_seconds 1")
            }))
        .then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e:#}\n{}", log()));
    let proc = Path::new("/proc").join(pid.to_string());
    assert_eq!(
        fs::read_link(proc.join("exe")).unwrap(),
        root.join("usr/local/bin/kafkaops"),
        "the process is the image's binary"
    );
    assert_eq!(
        fs::read_link(proc.join("root")).unwrap(),
        root,
        "its root is the image's root"
    );
    // Its user namespace holds only uid and gid 65532: it runs as that user.
    for map in ["uid_map", "gid_map"] {
        let m = fs::read_to_string(proc.join(map)).unwrap();
        let lines: Vec<Vec<&str>> = m.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(lines.len(), 1, "{map}: {m}");
        assert_eq!(lines[0][0], IMAGE_UID.to_string(), "{map}: {m}");
        assert_eq!(lines[0][2], "1", "{map}: {m}");
    }
    let status = fs::read_to_string(proc.join("status")).unwrap();
    for cap in ["CapEff", "CapPrm", "CapAmb"] {
        let v = status
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{cap}:")))
            .unwrap()
            .trim();
        assert!(
            v.chars().all(|c| c == '0'),
            "{cap} {v}: it has capabilities"
        );
    }
    // Its root is mounted read-only (mountinfo: the mount point, then its options).
    let mountinfo = fs::read_to_string(proc.join("mountinfo")).unwrap();
    let root_mount = mountinfo
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .rfind(|f| f[4] == "/")
        .unwrap_or_else(|| panic!("no / in\n{mountinfo}"));
    assert!(
        root_mount[5].split(',').any(|o| o == "ro"),
        "/ is not read-only: {root_mount:?}"
    );
    Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    let code = wait_for("operate to exit after SIGTERM", WAIT, || {
        Ok(child.try_wait()?.map(|s| s.code()))
    })
    .unwrap();
    assert_eq!(code, Some(0), "{}", log());
    drop(cc);
    drop(cluster);
}

// ---------------------------------------------------------------------------------------------
// The chart
// ---------------------------------------------------------------------------------------------

#[test]
fn chart_lints_renders_and_alerts_on_real_series() {
    ok(&mut helm(&["lint", "--strict", CHART]));
    ok(&mut helm(&["lint", "--strict", CHART, "--set", ALL_ON]));

    // Defaults: the operate Deployment, its identity and policy, nothing of the monitoring.
    let docs = render("kafka", &[]);
    assert_eq!(
        kinds(&docs),
        [
            "ConfigMap",
            "Deployment",
            "PodDisruptionBudget",
            "Role",
            "RoleBinding",
            "ServiceAccount"
        ]
        .map(String::from)
        .into()
    );
    let all = render("kafka", &[ALL_ON]);
    assert_eq!(
        kinds(&all),
        [
            "ConfigMap",
            "Deployment",
            "PodDisruptionBudget",
            "PodMonitor",
            "PrometheusRule",
            "Role",
            "RoleBinding",
            "Service",
            "ServiceAccount",
            "ServiceMonitor"
        ]
        .map(String::from)
        .into()
    );

    // The Role is the audited one: the same rules as examples/operate/rbac.yaml, in order.
    let role = the(&docs, "Role");
    let audited = KubeEnv::operate_role().unwrap();
    assert_eq!(role["rules"], audited["rules"]);
    let mut triples = BTreeSet::new();
    for rule in role["rules"].as_array().unwrap() {
        let strs = |k: &str| -> Vec<String> {
            rule[k]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect()
        };
        for g in strs("apiGroups") {
            for r in strs("resources") {
                for v in strs("verbs") {
                    triples.insert((g.clone(), r.clone(), v));
                }
            }
        }
    }
    assert_eq!(triples, KubeEnv::operate_rules().unwrap());
    // The packaged chart (what `helm push` uploads) carries the linked file's content.
    let pkg = tempfile::tempdir().unwrap();
    ok(helm(&["package", CHART, "--destination"]).arg(pkg.path()));
    let tgz = pkg.path().join(format!(
        "kafkaops-operate-{}.tgz",
        chart_meta()["version"].as_str().unwrap()
    ));
    let packaged = ok(helm(&["template", "ship", "--namespace", "kafka"]).arg(&tgz));
    let packaged_role = serde_yaml::Deserializer::from_str(&packaged)
        .map(|d| <Value as serde::Deserialize>::deserialize(d).unwrap())
        .find(|d| d["kind"] == "Role")
        .expect("a Role in the packaged chart");
    assert_eq!(packaged_role["rules"], audited["rules"]);
    let binding = the(&docs, "RoleBinding");
    let sa = the(&docs, "ServiceAccount");
    assert_eq!(binding["roleRef"]["name"], role["metadata"]["name"]);
    assert_eq!(binding["subjects"][0]["name"], sa["metadata"]["name"]);
    assert_eq!(binding["subjects"][0]["namespace"], "kafka");

    // The Deployment: two replicas, its ServiceAccount, arguments the real CLI takes, the
    // image of this version, restricted security settings.
    let deploy = the(&docs, "Deployment");
    assert_eq!(deploy["spec"]["replicas"], 2);
    let pod = &deploy["spec"]["template"]["spec"];
    assert_eq!(pod["serviceAccountName"], sa["metadata"]["name"]);
    let c = &pod["containers"][0];
    assert_eq!(chart_meta()["appVersion"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        c["image"],
        format!("kafkaops:{}", env!("CARGO_PKG_VERSION")),
        "the default tag is the chart's appVersion, this crate's version"
    );
    let mut argv = vec!["kafkaops".to_string()];
    argv.extend(
        c["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string()),
    );
    let cli = kafkaops::cli::Cli::try_parse_from(&argv)
        .unwrap_or_else(|e| panic!("the chart's arguments do not parse: {argv:?}\n{e}"));
    let dbg = format!("{cli:?}");
    for want in [
        "kafkaops-operate-my-cluster",
        "\"my-cluster\"",
        "/etc/kafkaops/policy.yaml",
    ] {
        assert!(dbg.contains(want), "{want} not in {dbg}");
    }
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(
        pod["securityContext"]["seccompProfile"]["type"],
        "RuntimeDefault"
    );
    assert_eq!(c["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(c["securityContext"]["allowPrivilegeEscalation"], false);
    assert_eq!(c["securityContext"]["capabilities"]["drop"], json!(["ALL"]));
    assert_eq!(c["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/readyz");
    assert!(c["resources"]["limits"]["memory"].is_string());
    // The policy volume is the policy ConfigMap, mounted whole (a subPath is never updated).
    let cm = docs
        .iter()
        .find(|d| d["kind"] == "ConfigMap")
        .expect("the policy ConfigMap");
    assert_eq!(
        pod["volumes"][0]["configMap"]["name"],
        cm["metadata"]["name"]
    );
    assert!(c["volumeMounts"][0]["subPath"].is_null());

    // The policy from values parses with operate's parser, and is examples/operate's.
    use kafkaops::app::operate::policy::Policy;
    let rendered = Policy::parse(cm["data"]["policy.yaml"].as_str().unwrap())
        .unwrap_or_else(|e| panic!("the chart's policy: {e}"));
    let example_cm: Value = serde_yaml::from_str(
        &fs::read_to_string(top().join("examples/operate/policy.yaml")).unwrap(),
    )
    .unwrap();
    let example = Policy::parse(example_cm["data"]["policy.yaml"].as_str().unwrap()).unwrap();
    assert_eq!(rendered, example);

    // Bad values are refused, naming the value.
    for (set, names) in [
        ("operate.resync=30", "/operate/resync"),
        ("operate.actionTimeout=10 minutes", "/operate/actionTimeout"),
        ("strimzi.cluster=", "/strimzi/cluster"),
        ("replicas=3", "replicas"),
    ] {
        let out = helm(&["template", "ship", CHART, "--set", set])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{set} was accepted");
        assert!(err.contains(names), "{set}: {err}");
    }

    // The alerts: loaded as Prometheus loads a rule file, only operate's series and labels.
    let rule = the(&all, "PrometheusRule");
    let alerts: BTreeSet<&str> = rule["spec"]["groups"][0]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["alert"].as_str().unwrap())
        .collect();
    for a in [
        "KafkaopsOperateLoopStalled",
        "KafkaopsOperateActionFailed",
        "KafkaopsOperateMoverTooLong",
    ] {
        assert!(alerts.contains(a), "{a} missing: {alerts:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let rules_file = dir.path().join("rules.yaml");
    fs::write(&rules_file, serde_yaml::to_string(&rule["spec"]).unwrap()).unwrap();
    let analyses: Value = serde_json::from_str(&ok(Command::new(tools().join("promcheck"))
        .arg("rules")
        .arg(&rules_file)))
    .unwrap();
    check_series("alert rules", &analyses);
    // The stalled-loop threshold: stalledResyncs resyncs plus the action timeout, in seconds.
    let stalled = |docs: &[Value]| -> String {
        the(docs, "PrometheusRule")["spec"]["groups"][0]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["alert"] == "KafkaopsOperateLoopStalled")
            .unwrap()["expr"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        stalled(&all).trim_end().ends_with("> 690"),
        "{}",
        stalled(&all)
    );
    let other = render(
        "kafka",
        &[
            ALL_ON,
            "operate.resync=1m30s,operate.actionTimeout=5m,prometheusRule.stalledResyncs=2",
        ],
    );
    assert!(
        stalled(&other).trim_end().ends_with("> 480"),
        "{}",
        stalled(&other)
    );

    // The dashboard: the file, in the ConfigMap; its queries name only operate's series.
    let file = fs::read_to_string(top().join(CHART).join("files/dashboard.json")).unwrap();
    let dash_cm = all
        .iter()
        .find(|d| d["kind"] == "ConfigMap" && d["metadata"]["labels"]["grafana_dashboard"] == "1")
        .expect("the dashboard ConfigMap");
    assert_eq!(
        dash_cm["data"]["kafkaops-operate.json"].as_str().unwrap(),
        file.trim_end()
    );
    let dash: Value = serde_json::from_str(&file).unwrap();
    let vars: BTreeSet<&str> = dash["templating"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let mut exprs = Vec::new();
    for p in dash["panels"].as_array().unwrap() {
        assert_eq!(p["datasource"]["uid"], "${datasource}", "{}", p["title"]);
        for t in p["targets"].as_array().unwrap() {
            exprs.push(t["expr"].as_str().unwrap().to_string());
        }
    }
    for v in dash["templating"]["list"].as_array().unwrap() {
        if let Some(q) = v["query"]["query"].as_str() {
            // label_values(SELECTOR, LABEL): the selector is PromQL, the label one of its.
            let inner = q
                .strip_prefix("label_values(")
                .and_then(|r| r.strip_suffix(')'))
                .unwrap_or_else(|| panic!("unexpected variable query {q}"));
            let (selector, label) = inner.rsplit_once(',').unwrap();
            exprs.push(format!("count by ({}) ({selector})", label.trim()));
        }
    }
    // Grafana's variables, as they would be substituted.
    let grafana = [
        ("$__rate_interval", "5m"),
        ("$__interval", "1m"),
        ("$__range", "6h"),
        ("$namespace", "kafka"),
        ("$pod", ".+"),
    ];
    let substituted: Vec<String> = exprs
        .iter()
        .map(|e| {
            let mut s = e.clone();
            for (var, value) in grafana {
                if var.starts_with("$__") || vars.contains(&var[1..]) {
                    s = s.replace(var, value);
                }
            }
            assert!(!s.contains('$'), "unknown variable in {e}");
            s
        })
        .collect();
    let mut child = Command::new(tools().join("promcheck"))
        .arg("exprs")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&substituted).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let analyses: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("promcheck: {e}\n{}", text(&out)));
    check_series("dashboard", &analyses);
    assert!(out.status.success(), "{}", text(&out));
}

/// The alerts active at `minute` of a `promcheck alerts` run: (alert, state, pod, detail),
/// detail being the kind or source label, or the description for KafkaopsOperateMoverTooLong.
fn active_at(evals: &Value, minute: i64) -> BTreeSet<(String, String, String, String)> {
    let at = evals
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["seconds"] == minute * 60)
        .unwrap_or_else(|| panic!("no evaluation at {minute} m"));
    at["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let l = &a["labels"];
            let detail = if a["name"] == "KafkaopsOperateMoverTooLong" {
                a["annotations"]["description"]
                    .as_str()
                    .unwrap()
                    .to_string()
            } else {
                l["kind"]
                    .as_str()
                    .or(l["source"].as_str())
                    .unwrap_or_default()
                    .to_string()
            };
            (
                a["name"].as_str().unwrap().to_string(),
                a["state"].as_str().unwrap().to_string(),
                l["pod"].as_str().unwrap_or_default().to_string(),
                detail,
            )
        })
        .collect()
}

#[test]
fn alerts_fire_when_their_condition_holds() {
    // The chart's rules with a shorter mover limit, evaluated by Prometheus' own rule code over
    // a scenario: every minute for an hour, a leader (a) and a standby (b).
    let docs = render("kafka", &[ALL_ON, "prometheusRule.moverTooLongFor=30m"]);
    let dir = tempfile::tempdir().unwrap();
    let rules_file = dir.path().join("rules.yaml");
    fs::write(
        &rules_file,
        serde_yaml::to_string(&the(&docs, "PrometheusRule")["spec"]).unwrap(),
    )
    .unwrap();
    let a = r#"namespace="kafka", pod="ship-kafkaops-operate-7c9f4-aaaaa""#;
    let b = r#"namespace="kafka", pod="ship-kafkaops-operate-7c9f4-bbbbb""#;
    let series = [
        // a leads for 40 minutes, then nobody does.
        format!("kafkaops_operate_leader{{{a}}} 1x40 0x20"),
        format!("kafkaops_operate_leader{{{b}}} 0x60"),
        // a's loop stops at 20 m (stalled past 3 x 30 s + 10 m = 690 s at 31.5 m); b loops on.
        format!("kafkaops_operate_last_successful_loop_timestamp_seconds{{{a}}} 0+60x20 1200x40"),
        format!("kafkaops_operate_last_successful_loop_timestamp_seconds{{{b}}} 0+60x60"),
        // A restart fails first at about 10 m (the counter appears at 1), again at about 41 m.
        format!(
            r#"kafkaops_operate_actions_total{{{a}, kind="restart", result="failed"}} _x9 1x30 2x20"#
        ),
        format!(
            r#"kafkaops_operate_actions_total{{{a}, kind="reconfigure", result="succeeded"}} 1+1x60"#
        ),
        // a moves from the start, the state changing at 20 m; b's state is a stale leftover.
        format!(
            r#"kafkaops_operate_state{{{a}, rebalance_state="RebalanceOnScaleUp", mover="rebalance"}} 1x20"#
        ),
        format!(
            r#"kafkaops_operate_state{{{a}, rebalance_state="RebalanceOnScaleDown", mover="rebalance"}} _x20 1x40"#
        ),
        format!(
            r#"kafkaops_operate_state{{{b}, rebalance_state="RebalanceOnScaleUp", mover="rebalance"}} 1x60"#
        ),
        // Cruise Control calls fail every minute; b had Kafka errors once, long ago.
        format!(r#"kafkaops_operate_errors_total{{{a}, source="cruise-control"}} 0+1x60"#),
        format!(r#"kafkaops_operate_errors_total{{{b}, source="kafka"}} 3x60"#),
    ];
    let mut child = Command::new(tools().join("promcheck"))
        .arg("alerts")
        .arg(&rules_file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            json!({"interval": "1m", "until": "60m", "series": series})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let evals: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pod_a = "ship-kafkaops-operate-7c9f4-aaaaa";
    let set = |items: &[(&str, &str, &str)]| -> BTreeSet<(String, String, String, String)> {
        items
            .iter()
            .map(|(n, st, d)| {
                (
                    n.to_string(),
                    st.to_string(),
                    pod_a.to_string(),
                    d.to_string(),
                )
            })
            .collect()
    };
    let moving = |state: &str| {
        format!(
            "State {state}, mover rebalance for more than 30m. Its log and the Events on the Kafka resource say what it waits for."
        )
    };
    let up = moving("RebalanceOnScaleUp");
    let down = moving("RebalanceOnScaleDown");
    // 12 m: the first failure of a kind (a counter that just appeared) fires at once; the
    // mover and the errors are pending.
    assert_eq!(
        active_at(&evals, 12),
        set(&[
            ("KafkaopsOperateActionFailed", "firing", "restart"),
            ("KafkaopsOperateMoverTooLong", "pending", &up),
            (
                "KafkaopsOperateDependencyErrors",
                "pending",
                "cruise-control"
            ),
        ])
    );
    // 25 m: that failure is a window old; the state changed, still pending (one mover).
    assert_eq!(
        active_at(&evals, 25),
        set(&[
            ("KafkaopsOperateMoverTooLong", "pending", &down),
            (
                "KafkaopsOperateDependencyErrors",
                "firing",
                "cruise-control"
            ),
        ])
    );
    // 35 m: the loop has been stuck for 15 m, the mover has moved for 35.
    assert_eq!(
        active_at(&evals, 35),
        set(&[
            ("KafkaopsOperateLoopStalled", "firing", ""),
            ("KafkaopsOperateMoverTooLong", "firing", &down),
            (
                "KafkaopsOperateDependencyErrors",
                "firing",
                "cruise-control"
            ),
        ])
    );
    // 45 m: the second failure (an increase); nobody leads (pending), so no mover alert.
    let mut at45 = set(&[
        ("KafkaopsOperateActionFailed", "firing", "restart"),
        ("KafkaopsOperateLoopStalled", "firing", ""),
        (
            "KafkaopsOperateDependencyErrors",
            "firing",
            "cruise-control",
        ),
    ]);
    at45.insert((
        "KafkaopsOperateNoLeader".into(),
        "pending".into(),
        String::new(),
        String::new(),
    ));
    assert_eq!(active_at(&evals, 45), at45);
    // 58 m: no leader for 17 m.
    let mut at58 = set(&[
        ("KafkaopsOperateLoopStalled", "firing", ""),
        (
            "KafkaopsOperateDependencyErrors",
            "firing",
            "cruise-control",
        ),
    ]);
    at58.insert((
        "KafkaopsOperateNoLeader".into(),
        "firing".into(),
        String::new(),
        String::new(),
    ));
    assert_eq!(active_at(&evals, 58), at58);
}

/// The Kubernetes API group and version of an object's `apiVersion`.
fn gvk(obj: &Value) -> GroupVersionKind {
    let api_version = obj["apiVersion"].as_str().unwrap();
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    GroupVersionKind::gvk(group, version, obj["kind"].as_str().unwrap())
}

#[test]
fn chart_is_accepted_by_the_apiserver_under_restricted_pod_security() {
    const NS: &str = "ship";
    let docs = render(NS, &[ALL_ON]);
    let env = KubeEnv::start().expect("start the apiserver");
    for crd in fs::read_dir(tools().join("crds")).unwrap() {
        env.install_crds(&crd.unwrap().path()).unwrap();
    }
    let admin = env.admin();
    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(admin.clone());
    env.block_on(
        namespaces.create(
            &PostParams::default(),
            &serde_json::from_value(json!({"metadata": {
                "name": NS,
                "labels": {
                    "pod-security.kubernetes.io/enforce": "restricted",
                    "pod-security.kubernetes.io/enforce-version": "latest",
                    "pod-security.kubernetes.io/warn": "restricted",
                },
            }}))
            .unwrap(),
        ),
    )
    .unwrap();

    // Every object, as `kubectl apply --server-side --dry-run=server` sends it, unknown or
    // duplicate fields refused.
    let params = PatchParams::apply("kafkaops-ship-test")
        .dry_run()
        .validation_strict();
    let mut applied = BTreeMap::new();
    for doc in &docs {
        let gvk = gvk(doc);
        let (resource, caps) = env
            .block_on(kube::discovery::pinned_kind(&admin, &gvk))
            .unwrap_or_else(|e| panic!("{gvk:?}: {e}"));
        assert_eq!(
            caps.scope,
            kube::discovery::Scope::Namespaced,
            "{gvk:?}: the chart creates namespaced objects only"
        );
        let api: Api<DynamicObject> = Api::namespaced_with(admin.clone(), NS, &resource);
        let name = doc["metadata"]["name"].as_str().unwrap();
        let answer: DynamicObject = env
            .block_on(api.patch(name, &params, &Patch::Apply(doc)))
            .unwrap_or_else(|e| panic!("the apiserver refused {} {name}: {e}", gvk.kind));
        applied.insert(format!("{}/{name}", gvk.kind), answer.metadata.name);
    }
    eprintln!("accepted (server-side dry run): {applied:?}");
    assert_eq!(applied.len(), docs.len());
    // The monitoring objects are checked against their CRDs' schemas: a misspelt field is
    // refused.
    let mut typo = the(&docs, "ServiceMonitor").clone();
    typo["spec"]["endpoint"] = typo["spec"]["endpoints"].clone();
    let (resource, _) = env
        .block_on(kube::discovery::pinned_kind(&admin, &gvk(&typo)))
        .unwrap();
    let api: Api<DynamicObject> = Api::namespaced_with(admin.clone(), NS, &resource);
    match env.block_on(api.patch("typo", &params, &Patch::Apply(&typo))) {
        // Server-side apply checks the object against the schema it merges with.
        Err(kube::Error::Api(e)) => assert!(
            e.message
                .contains(".spec.endpoint: field not declared in schema"),
            "{e:?}"
        ),
        other => panic!("a ServiceMonitor with a misspelt field was accepted: {other:?}"),
    }

    // The Deployment's pod, as its ReplicaSet would create it, passes the restricted level.
    let deploy = the(&docs, "Deployment");
    let pod_of = |spec: &Value| -> k8s_openapi::api::core::v1::Pod {
        serde_json::from_value(json!({
            "metadata": {"name": "ship-pod", "labels": deploy["spec"]["template"]["metadata"]["labels"]},
            "spec": spec,
        }))
        .unwrap()
    };
    let pods: Api<k8s_openapi::api::core::v1::Pod> = Api::namespaced(admin.clone(), NS);
    let dry = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    let spec = &deploy["spec"]["template"]["spec"];
    env.block_on(pods.create(&dry, &pod_of(spec)))
        .unwrap_or_else(|e| panic!("the chart's pod is refused: {e}"));
    // The admission is on: the same pod without its security settings is refused.
    let mut bare = spec.clone();
    bare.as_object_mut().unwrap().remove("securityContext");
    bare["containers"][0]
        .as_object_mut()
        .unwrap()
        .remove("securityContext");
    match env.block_on(pods.create(&dry, &pod_of(&bare))) {
        Err(kube::Error::Api(e)) => assert!(
            e.code == 403
                && e.message
                    .contains("violates PodSecurity \"restricted:latest\""),
            "{e:?}"
        ),
        other => panic!("a pod without a security context was not refused: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The krew manifest and the release archives
// ---------------------------------------------------------------------------------------------

/// Serves the files of `dir` over HTTP on 127.0.0.1 (GET only) until the process exits.
fn serve_files(dir: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            if reader.read_line(&mut request).is_err() {
                continue;
            }
            // The headers, up to the blank line.
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let path = request.split_whitespace().nth(1).unwrap_or("/");
            let file = dir.join(path.trim_start_matches('/'));
            let answer = match (request.starts_with("GET "), fs::read(&file)) {
                (true, Ok(body)) if !path.contains("..") => {
                    let mut r = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    r.extend(body);
                    r
                }
                _ => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = stream.write_all(&answer);
        }
    });
    port
}

/// `package.sh --binary BINARY --out OUT --base-url URL`.
fn package(binary: &Path, out: &Path, base_url: &str) {
    ok(Command::new(top().join("examples/release/package.sh"))
        .arg("--binary")
        .arg(binary)
        .arg("--out")
        .arg(out)
        .args(["--base-url", base_url]));
}

#[test]
fn krew_manifest_validates_and_installs_the_packaged_binary() {
    let work = tempfile::tempdir().unwrap();
    // The test build without its debug info (a third of the size, the same program).
    let binary = work.path().join("kafkaops");
    ok(Command::new("strip")
        .arg("--strip-debug")
        .arg("-o")
        .arg(&binary)
        .arg(kafkaops_bin()));
    let dist = work.path().join("dist");
    let port = serve_files(dist.clone());
    let base = format!("http://127.0.0.1:{port}/");
    package(&binary, &dist, &base);
    let version = env!("CARGO_PKG_VERSION");
    let host = String::from_utf8(ok(Command::new("rustc").arg("-vV")).into_bytes())
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .unwrap();
    let archive = format!("kafkaops-v{version}-{host}.tar.gz");

    // The checksum files are right, and the archive holds what krew needs (binary, licence).
    ok(Command::new("sha256sum")
        .args(["-c", &format!("{archive}.sha256")])
        .current_dir(&dist));
    ok(Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&dist));
    let listing = ok(Command::new("tar").arg("tzf").arg(dist.join(&archive)));
    for f in ["./kafkaops", "./LICENSE", "./README.md", "./man/kafkaops.1"] {
        assert!(listing.lines().any(|l| l == f), "{f} not in\n{listing}");
    }
    let sha = fs::read_to_string(dist.join(format!("{archive}.sha256"))).unwrap();
    let sha = sha.split_whitespace().next().unwrap();

    // The rendered manifest points at the archive with its checksum.
    let manifest_path = dist.join("kafkaops.yaml");
    let manifest: Value =
        serde_yaml::from_str(&fs::read_to_string(&manifest_path).unwrap()).unwrap();
    assert_eq!(manifest["spec"]["version"], format!("v{version}"));
    let platforms = manifest["spec"]["platforms"].as_array().unwrap();
    assert_eq!(platforms.len(), 1, "{platforms:?}");
    assert_eq!(platforms[0]["uri"], format!("{base}{archive}"));
    assert_eq!(platforms[0]["sha256"], sha);
    assert_eq!(platforms[0]["bin"], "kafkaops");

    // Reproducible: the same binary packaged again gives the same archive.
    let again = work.path().join("again");
    package(&binary, &again, &base);
    assert_eq!(
        fs::read_to_string(dist.join("SHA256SUMS")).unwrap(),
        fs::read_to_string(again.join("SHA256SUMS")).unwrap()
    );

    // krew's own validator: structure, platforms, and an install of every platform from its
    // URL (through `kubectl krew`), the licence file included.
    let path = format!("{}:/usr/bin:/bin", tools().display());
    let validate = |manifest: &Path| -> Output {
        Command::new(tools().join("validate-krew-manifest"))
            .arg("-manifest")
            .arg(manifest)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", work.path())
            .output()
            .unwrap()
    };
    let out = validate(&manifest_path);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("all 1 spec.platforms installed fine"),
        "{}",
        text(&out)
    );
    // A wrong checksum is refused.
    let bad_dir = work.path().join("bad");
    fs::create_dir(&bad_dir).unwrap();
    let bad = bad_dir.join("kafkaops.yaml");
    let wrong = "ab".repeat(32);
    fs::write(
        &bad,
        fs::read_to_string(&manifest_path)
            .unwrap()
            .replace(sha, &wrong),
    )
    .unwrap();
    let out = validate(&bad);
    assert!(
        !out.status.success(),
        "a wrong sha256 validated:\n{}",
        text(&out)
    );
    assert!(
        text(&out).contains(&format!(
            "checksum does not match, want: {wrong}, got {sha}"
        )),
        "{}",
        text(&out)
    );

    // Installed as a user would, it runs as `kubectl kafkaops`.
    let krew_root = work.path().join("krew");
    let user_path = format!("{}:{}", krew_root.join("bin").display(), path);
    let kubectl = |args: &[&str]| -> String {
        ok(Command::new(tools().join("kubectl"))
            .args(args)
            .env_clear()
            .env("PATH", &user_path)
            .env("HOME", work.path())
            .env("KREW_ROOT", &krew_root))
    };
    kubectl(&[
        "krew",
        "install",
        &format!("--manifest={}", manifest_path.display()),
    ]);
    assert_eq!(
        kubectl(&["kafkaops", "--version"]).trim(),
        format!("kafkaops {version}")
    );
    let plugins = kubectl(&["plugin", "list", "--name-only"]);
    assert!(
        plugins.lines().any(|l| l == "kubectl-kafkaops"),
        "{plugins}"
    );
}
