//! kafkaops inside a pod: the in-cluster configuration, against the real kube-apiserver of
//! `tests/support/kube.rs`.
//!
//! kube-rs (`Config::infer`, then `Config::incluster_env`) reads the service-account token, CA
//! and namespace only from the fixed `/var/run/secrets/kubernetes.io/serviceaccount/`, and the
//! API server's address from `KUBERNETES_SERVICE_HOST`/`KUBERNETES_SERVICE_PORT`. The tests do
//! not write to the host's `/var/run`: kafkaops runs in an unprivileged user + mount namespace
//! (`unshare -rm`) with a tmpfs on `/run` (`/var/run` resolves there) holding what the kubelet
//! would project into a pod:
//! - `token`: a TokenRequest token of the ServiceAccount `kafkaops` in namespace `kafka`, bound by
//!   the RoleBinding of `examples/kafkaops-rbac.yaml` (applied as written) to exactly the Role
//!   there; the apiserver authenticates it as `system:serviceaccount:kafka:kafkaops`;
//! - `ca.crt`: the harness CA, which signed the apiserver's serving certificate for `127.0.0.1`
//!   (what `KUBERNETES_SERVICE_HOST` names, as a real pod's names the `kubernetes` Service's
//!   ClusterIP, which is in the real apiserver's certificate);
//! - `namespace`: `kafka`.
//!
//! No `--kubeconfig`, no `KUBECONFIG`, `HOME` an empty directory, every other variable cleared:
//! only the in-cluster path can succeed (a control run without the service-account files fails),
//! and `-n` is never given: the namespace comes from the service account's `namespace` file (a
//! control run with `default` there is refused in `default`).
//!
//! In a pod, Strimzi discovery reaches Cruise Control at its Service's DNS name
//! (`https://my-cluster-cruise-control.kafka.svc:<port>`, `src/strimzi.rs`, chosen because
//! `KUBERNETES_SERVICE_HOST` is set), not through a port-forward. That name does not resolve on
//! the host: the same mount namespace bind-mounts an `/etc/hosts` (the host's plus that name →
//! 127.0.0.1), standing in for cluster DNS and kube-proxy, and the Service's port is the
//! double's. The double's certificate names only the Service, so TLS must verify against that
//! name. Ground truth: the double's answer, and the fake kubelet's log of port-forwards (none).
//!
//! Not covered: real cluster DNS and kube-proxy, kube-rs re-reading a rotated token file.
//!
//! The tests need unprivileged user namespaces; where `unshare -rm` is refused they fail (not
//! skip), saying so.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use support::bin::Out;
use support::cc_double::{CcDouble, CcDoubleOptions};
use support::kafka::{ClusterSpec, KafkaCluster};
use support::kube::{FakeStrimzi, KubeEnv, NAMESPACE};

const CLUSTER: &str = "my-cluster";
const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// Sets up the pod's view (run by `sh` as root of the new user namespace): a tmpfs on what
/// `/var/run` resolves to, the service-account files copied there from `$KAFKAOPS_TEST_POD/sa`,
/// `$KAFKAOPS_TEST_POD/hosts` over `/etc/hosts`; then runs the command. Setup failures exit 97.
const POD_SETUP: &str = r#"
fail() { echo "kube_incluster pod setup: $1" >&2; exit 97; }
run=$(readlink -f /var/run) || fail "readlink /var/run"
mount -t tmpfs -o mode=0755 kafkaops-pod "$run" || fail "mount a tmpfs on $run"
mkdir -p /var/run/secrets/kubernetes.io/serviceaccount || fail "mkdir"
cp -R "$KAFKAOPS_TEST_POD/sa/." /var/run/secrets/kubernetes.io/serviceaccount/ || fail "cp"
mount --bind "$KAFKAOPS_TEST_POD/hosts" /etc/hosts || fail "bind-mount /etc/hosts"
unset KAFKAOPS_TEST_POD
exec "$@"
"#;

/// Fails the test unless this machine lets an unprivileged user create user + mount namespaces
/// and mount there what [`POD_SETUP`] mounts.
fn require_unshare() {
    let probe = Command::new("unshare")
        .args([
            "-rm",
            "sh",
            "-c",
            r#"mount -t tmpfs none "$(readlink -f /var/run)" && mount --bind /etc/hosts /etc/hosts"#,
        ])
        .output();
    let why = match probe {
        Ok(out) if out.status.success() => return,
        Ok(out) => format!(
            "`unshare -rm` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => format!("cannot run `unshare` (util-linux): {e}"),
    };
    panic!(
        "tests/kube/kube_incluster.rs runs kafkaops in an unprivileged user + mount namespace \
         (`unshare -rm`) so that it finds a service account in {SERVICE_ACCOUNT_DIR} (kube-rs \
         reads only that path) without writing to the host's /var/run, and this machine refused: \
         {why}. Allow unprivileged user namespaces (sysctl user.max_user_namespaces > 0, \
         kernel.unprivileged_userns_clone=1 where it exists, \
         kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04+; in a container, a \
         seccomp/AppArmor profile that allows unshare(CLONE_NEWUSER|CLONE_NEWNS))."
    );
}

/// What a pod running kafkaops would see: the service-account files, `/etc/hosts`, an empty
/// home directory.
struct PodFiles {
    dir: tempfile::TempDir,
}

impl PodFiles {
    fn new(token: &str, ca: &Path, namespace: &str, hosts: &[(&str, &str)]) -> Self {
        let dir = tempfile::Builder::new()
            .prefix("kafkaops-pod-")
            .tempdir()
            .unwrap();
        let sa = dir.path().join("sa");
        std::fs::create_dir(&sa).unwrap();
        std::fs::create_dir(dir.path().join("home")).unwrap();
        // As the kubelet writes them: no trailing newline.
        std::fs::write(sa.join("token"), token).unwrap();
        std::fs::copy(ca, sa.join("ca.crt")).unwrap();
        std::fs::write(sa.join("namespace"), namespace).unwrap();
        let mut text = std::fs::read_to_string("/etc/hosts").unwrap_or_default();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("# kube_incluster: cluster DNS\n");
        for (name, ip) in hosts {
            text.push_str(&format!("{ip} {name}\n"));
        }
        std::fs::write(dir.path().join("hosts"), text).unwrap();
        PodFiles { dir }
    }

    fn set_namespace(&self, namespace: &str) {
        std::fs::write(self.dir.path().join("sa/namespace"), namespace).unwrap();
    }

    /// The service account without its files (kafkaops outside a pod, or with
    /// `automountServiceAccountToken: false`).
    fn without_service_account(&self) -> PathBuf {
        let empty = self.dir.path().join("empty");
        std::fs::create_dir_all(empty.join("sa")).unwrap();
        std::fs::copy(self.dir.path().join("hosts"), empty.join("hosts")).unwrap();
        empty
    }
}

/// kafkaops "in a pod" seeing `pod` (a [`PodFiles`] directory): an environment with nothing but
/// `PATH`, `HOME` (empty), `NO_COLOR` and the `KUBERNETES_SERVICE_*` variables of the apiserver.
fn in_pod(env: &KubeEnv, pod: &Path, home: &Path, args: &[&str]) -> Out {
    let start = Instant::now();
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-c", POD_SETUP, "sh"])
        .arg(support::bin::kafkaops_bin())
        .arg("--yes")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env("KUBERNETES_SERVICE_HOST", "127.0.0.1")
        .env("KUBERNETES_SERVICE_PORT", env.port().to_string())
        .env("KAFKAOPS_TEST_POD", pod)
        .output()
        .expect("run unshare");
    let run = Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        args: args.iter().map(ToString::to_string).collect(),
    };
    eprintln!(
        "kafkaops {args:?} in a pod -> exit {} in {:.1?}\n--- stderr ---\n{}",
        run.code,
        start.elapsed(),
        run.stderr
    );
    assert_ne!(run.code, 97, "the pod setup failed: {}", run.stderr);
    run
}

#[test]
fn in_cluster_service_account_alone_finds_the_cluster_and_cruise_control() {
    require_unshare();
    let env = KubeEnv::start().expect("start the apiserver");
    let token = env.service_account_token().expect("service account token");
    let kafka = KafkaCluster::start(ClusterSpec::combined(3)).expect("start Kafka");
    let bootstrap = kafka.bootstrap_servers();
    let kafka = Arc::new(Mutex::new(kafka));
    let strimzi =
        FakeStrimzi::install(&env, CLUSTER, "kafka", Arc::clone(&kafka)).expect("strimzi");
    let password = "in-cluster-password";
    let svc = format!("{CLUSTER}-cruise-control");
    let svc_dns = format!("{svc}.{NAMESPACE}.svc");
    // Strimzi's Cruise Control certificate: the Service's names, no IP address.
    let names =
        format!("dns:{svc},dns:{svc}.{NAMESPACE},dns:{svc_dns},dns:{svc_dns}.cluster.local");
    let cc = CcDouble::start(
        &bootstrap,
        CcDoubleOptions {
            basic_auth: Some(("rebalance-operator".into(), password.into())),
            tls: true,
            tls_names: Some(names),
            ..CcDoubleOptions::default()
        },
    )
    .expect("start the Cruise Control double");
    // The ClusterIP Service on the double's port, the pod behind it (reachable by a
    // port-forward too, which must not be used in the cluster).
    strimzi
        .cruise_control_service_port(&env, cc.port(), cc.port())
        .expect("cruise control service and pod");
    let ca = std::fs::read_to_string(cc.ca_pem_path().expect("tls")).unwrap();
    strimzi
        .cruise_control_secrets(password, &ca)
        .expect("secrets");
    let forwarded = || env.log_tail("kubelet", 1000).matches("forwarding ").count();
    let pod = PodFiles::new(
        &token,
        &env.ca_file(),
        NAMESPACE,
        &[(svc_dns.as_str(), "127.0.0.1")],
    );
    let home = pod.dir.path().join("home");

    // Strimzi discovery with nothing but --strimzi: the bootstrap address, Cruise Control's
    // Service, its password and CA, all read with the service account's token in its
    // namespace; Cruise Control reached at the Service's name, directly.
    let run = in_pod(
        &env,
        pod.dir.path(),
        &home,
        &[
            "--strimzi",
            CLUSTER,
            "rebalance",
            "full",
            "--output",
            "json",
        ],
    );
    assert_eq!(
        run.code,
        0,
        "{}\n{}\n{}",
        run.stdout,
        run.stderr,
        env.log_tail("kube-apiserver", 20)
    );
    let proposal: serde_json::Value = run.json();
    assert!(proposal.is_object(), "{proposal}");
    assert!(!run.stdout.contains(password) && !run.stderr.contains(password));
    assert!(!run.stdout.contains(&token) && !run.stderr.contains(&token));
    assert_eq!(
        forwarded(),
        0,
        "in the cluster Cruise Control is reached at its Service's name, not by a port-forward:\n{}",
        env.log_tail("kubelet", 20)
    );
    assert!(
        std::fs::read_dir(&home).unwrap().next().is_none(),
        "HOME stays empty (no kubeconfig read or written)"
    );

    // roll: the pods of the Strimzi cluster, listed with the same identity (dry run: nothing
    // restarted).
    let state = tempfile::tempdir().unwrap();
    let run = in_pod(
        &env,
        pod.dir.path(),
        &home,
        &[
            "--strimzi",
            CLUSTER,
            "roll",
            "--all",
            "--dry-run",
            "--output",
            "json",
            "--state-dir",
            state.path().to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.planned_roll_nodes(), vec![1, 2, 3], "{}", run.stdout);
    assert!(strimzi.restarts().is_empty(), "a dry run restarts nothing");

    // Control: the namespace is the service account's. With `default` in its namespace file
    // kafkaops looks there, where the service account may do nothing.
    pod.set_namespace("default");
    let run = in_pod(
        &env,
        pod.dir.path(),
        &home,
        &["--strimzi", CLUSTER, "rebalance", "full"],
    );
    assert_eq!(run.code, 6, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "cannot get kafkas.kafka.strimzi.io {CLUSTER} in namespace default: forbidden"
        )) && run.stderr.contains("system:serviceaccount:kafka:kafkaops"),
        "{}",
        run.stderr
    );
    pod.set_namespace(NAMESPACE);

    // Control: without the service-account files nothing else configures Kubernetes.
    let bare = pod.without_service_account();
    let run = in_pod(
        &env,
        &bare,
        &home,
        &["--strimzi", CLUSTER, "rebalance", "full"],
    );
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("Kubernetes configuration"),
        "{}",
        run.stderr
    );
    assert_eq!(forwarded(), 0);
    assert_eq!(strimzi.error(), None);
    drop(cc);
    drop(strimzi);
}
