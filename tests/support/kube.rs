//! A real Kubernetes API server for the tests, and a fake Strimzi + kubelet around real Kafka.
//!
//! [`KubeEnv::start`] runs etcd and kube-apiserver (v1.37.2, built from the Go module proxy by
//! `tests/env/kube/build.sh`, cached) on loopback ports: a CA and serving certificate made with
//! `openssl` for the run, static-token authentication, RBAC authorization, no endpoint reconciler
//! (a loopback advertise address needs that). It writes a kubeconfig with four contexts:
//! `admin` (group `system:masters`, for the harness), `kafkaops` (bound to exactly the Role in
//! `examples/kafkaops-rbac.yaml`), `limited` (a test-chosen copy of that Role with one verb
//! removed) and `operate` (bound to exactly the Role in `examples/operate/rbac.yaml`; the
//! apiserver's audit log records each of its requests, [`KubeEnv::audited`]). It installs our CRDs for the Strimzi kinds (`tests/env/kube/crds/strimzi.yaml`).
//!
//! There is no scheduler, kubelet or Strimzi operator, so [`FakeStrimzi`] plays them for one
//! Strimzi-shaped cluster bound to a real [`KafkaCluster`]: a `Kafka` resource whose status lists
//! the real bootstrap address, a `KafkaNodePool` and a `StrimziPodSet` per pool, and pods
//! `<cluster>-<pool>-<id>` with Strimzi's labels. A background task acts as kubelet and
//! StrimziPodSet controller: a pod being deleted gets its Kafka process stopped, then is removed;
//! a missing pod is recreated (new UID) from the pod set, its Kafka process started, and it turns
//! Ready (status subresource) once the broker is RUNNING and unfenced. A pod can be put into
//! CrashLoopBackOff or Pending/Unschedulable (its process stopped) until it is deleted.
//!
//! Everything here is synchronous for the tests; the harness owns a small tokio runtime for
//! its own Kubernetes calls. Dropping a [`KubeEnv`] stops the apiserver and etcd; dropping a
//! [`FakeStrimzi`] stops its task (the Kafka cluster is the caller's).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use k8s_openapi::api::apps::v1::StatefulSet;
use k8s_openapi::api::core::v1::{Namespace, Pod};
use k8s_openapi::api::rbac::v1::{Role, RoleBinding};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams, DynamicObject, ListParams, Patch, PatchParams, PostParams};
use kube::{Client, Config};
use serde_json::{Value, json};

use super::kafka::{BrokerState, KafkaCluster, spawn_tied, unfenced_brokers};
use kafkaops::platform::kube::strimzi_resource;

/// The namespace of the test cluster.
pub const NAMESPACE: &str = "kafka";
const ADMIN_TOKEN: &str = "admin-token-for-tests";
const KAFKAOPS_TOKEN: &str = "kafkaops-token-for-tests";
const LIMITED_TOKEN: &str = "limited-token-for-tests";
const OPERATE_TOKEN: &str = "operate-token-for-tests";
/// The user (and kubeconfig context) bound to exactly the Role of `examples/operate/rbac.yaml`;
/// the apiserver's audit log records every request it makes (see [`KubeEnv::audited`]).
pub const OPERATE_USER: &str = "operate";

/// Runs `tests/env/kube/build.sh` once per process; the directory with the binaries.
pub fn kube_binaries() -> Result<&'static Path> {
    static DIR: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    DIR.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/env/kube/build.sh");
        let out = Command::new("bash")
            .arg(&script)
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !out.status.success() {
            return Err(format!("{} failed with {}", script.display(), out.status));
        }
        let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Ok(PathBuf::from(dir))
    })
    .as_ref()
    .map(PathBuf::as_path)
    .map_err(|e| anyhow!("{e}"))
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

fn openssl(dir: &Path, args: &[&str]) -> Result<()> {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .context("cannot run openssl")?;
    if !out.status.success() {
        bail!(
            "openssl {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// A running etcd + kube-apiserver.
pub struct KubeEnv {
    rt: tokio::runtime::Runtime,
    dir: tempfile::TempDir,
    etcd: Option<Child>,
    apiserver: Option<Child>,
    /// The fake kubelet (`tests/env/kube/apiserver/fakekubelet`): port-forwards only.
    kubelet: Option<Child>,
    kubelet_port: u16,
    /// Its map: `<namespace>/<pod> <port> <host:port>` per line.
    kubelet_map: PathBuf,
    /// `https://127.0.0.1:PORT`
    pub server: String,
    /// The kubeconfig with contexts `admin`, `kafkaops` (current) and `limited`.
    pub kubeconfig: PathBuf,
    admin: Client,
    /// How long the apiserver took to answer `/readyz` after its start.
    pub ready_after: Duration,
}

impl KubeEnv {
    /// Starts etcd and the apiserver, installs the CRDs, the namespace and the kafkaops Role.
    pub fn start() -> Result<Self> {
        let bin = kube_binaries()?;
        let began = Instant::now();
        let dir = tempfile::Builder::new()
            .prefix("kafkaops-kube-")
            .tempdir()?;
        let d = dir.path();
        // Certificates: a CA, the serving certificate for 127.0.0.1, the service-account key.
        openssl(
            d,
            &[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.crt",
                "-days",
                "2",
                "-subj",
                "/CN=kafkaops-test-ca",
            ],
        )?;
        openssl(
            d,
            &[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "apiserver.key",
                "-out",
                "apiserver.csr",
                "-subj",
                "/CN=kube-apiserver",
            ],
        )?;
        fs::write(
            d.join("san.ext"),
            "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
        )?;
        openssl(
            d,
            &[
                "x509",
                "-req",
                "-in",
                "apiserver.csr",
                "-CA",
                "ca.crt",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                "apiserver.crt",
                "-days",
                "2",
                "-extfile",
                "san.ext",
            ],
        )?;
        // The fake kubelet's serving certificate (the apiserver verifies it with
        // --kubelet-certificate-authority) and the apiserver's client certificate for it.
        for (name, cn, ext) in [
            (
                "kubelet",
                "fake-kubelet",
                "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n",
            ),
            (
                "kubelet-client",
                "kube-apiserver-kubelet-client",
                "extendedKeyUsage=clientAuth\n",
            ),
        ] {
            let (key, csr, crt, extfile) = (
                format!("{name}.key"),
                format!("{name}.csr"),
                format!("{name}.crt"),
                format!("{name}.ext"),
            );
            fs::write(d.join(&extfile), ext)?;
            openssl(
                d,
                &[
                    "req",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-keyout",
                    &key,
                    "-out",
                    &csr,
                    "-subj",
                    &format!("/CN={cn}"),
                ],
            )?;
            openssl(
                d,
                &[
                    "x509",
                    "-req",
                    "-in",
                    &csr,
                    "-CA",
                    "ca.crt",
                    "-CAkey",
                    "ca.key",
                    "-CAcreateserial",
                    "-out",
                    &crt,
                    "-days",
                    "2",
                    "-extfile",
                    &extfile,
                ],
            )?;
        }
        openssl(d, &["genrsa", "-out", "sa.key", "2048"])?;
        openssl(d, &["rsa", "-in", "sa.key", "-pubout", "-out", "sa.pub"])?;
        fs::write(
            d.join("tokens.csv"),
            format!(
                "{ADMIN_TOKEN},admin,uid-admin,\"system:masters\"\n\
                 {KAFKAOPS_TOKEN},kafkaops,uid-kafkaops\n\
                 {LIMITED_TOKEN},limited,uid-limited\n\
                 {OPERATE_TOKEN},{OPERATE_USER},uid-operate\n"
            ),
        )?;
        // The audit log: every request of the operate identity (metadata only).
        fs::write(
            d.join("audit-policy.yaml"),
            format!(
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n\
                 rules:\n- level: Metadata\n  users: [{OPERATE_USER}]\n- level: None\n"
            ),
        )?;
        let (etcd_port, peer_port, api_port) = (free_port()?, free_port()?, free_port()?);
        let kubelet_port = free_port()?;
        let kubelet_map = d.join("kubelet-ports");
        fs::write(&kubelet_map, "")?;
        let log = |name: &str| -> Result<(Stdio, Stdio)> {
            let f = fs::File::create(d.join(name))?;
            Ok((Stdio::from(f.try_clone()?), Stdio::from(f)))
        };
        let etcd_url = format!("http://127.0.0.1:{etcd_port}");
        let peer_url = format!("http://127.0.0.1:{peer_port}");
        let (o, e) = log("etcd.log")?;
        let mut cmd = Command::new(bin.join("etcd"));
        cmd.args([
            "--name=default",
            &format!("--data-dir={}", d.join("etcd").display()),
            &format!("--listen-client-urls={etcd_url}"),
            &format!("--advertise-client-urls={etcd_url}"),
            &format!("--listen-peer-urls={peer_url}"),
            &format!("--initial-advertise-peer-urls={peer_url}"),
            &format!("--initial-cluster=default={peer_url}"),
            "--unsafe-no-fsync=true",
            "--log-level=warn",
        ])
        .stdin(Stdio::null())
        .stdout(o)
        .stderr(e);
        let started = Instant::now();
        let etcd = spawn_tied(cmd).context("cannot start etcd")?;
        let mut env_children = (Some(etcd), None::<Child>);
        let (o, e) = log("apiserver.log")?;
        let mut cmd = Command::new(bin.join("kube-apiserver"));
        let p = |f: &str| d.join(f).display().to_string();
        cmd.args([
            format!("--etcd-servers={etcd_url}"),
            format!("--cert-dir={}", p("certs")),
            format!("--secure-port={api_port}"),
            "--bind-address=127.0.0.1".into(),
            "--advertise-address=127.0.0.1".into(),
            "--endpoint-reconciler-type=none".into(),
            "--service-cluster-ip-range=10.0.0.0/24".into(),
            "--allow-privileged=true".into(),
            "--disable-admission-plugins=ServiceAccount".into(),
            "--authorization-mode=RBAC".into(),
            format!("--token-auth-file={}", p("tokens.csv")),
            format!("--client-ca-file={}", p("ca.crt")),
            format!("--tls-cert-file={}", p("apiserver.crt")),
            format!("--tls-private-key-file={}", p("apiserver.key")),
            format!("--service-account-issuer=https://127.0.0.1:{api_port}/"),
            format!("--service-account-key-file={}", p("sa.pub")),
            format!("--service-account-signing-key-file={}", p("sa.key")),
            format!("--audit-policy-file={}", p("audit-policy.yaml")),
            format!("--audit-log-path={}", p("audit.log")),
            "--audit-log-mode=blocking".into(),
            format!("--kubelet-certificate-authority={}", p("ca.crt")),
            format!("--kubelet-client-certificate={}", p("kubelet-client.crt")),
            format!("--kubelet-client-key={}", p("kubelet-client.key")),
            "--kubelet-preferred-address-types=InternalIP".into(),
            "--profiling=false".into(),
            "--enable-priority-and-fairness=false".into(),
            "-v=1".into(),
        ])
        .stdin(Stdio::null())
        .stdout(o)
        .stderr(e);
        env_children.1 = Some(spawn_tied(cmd).context("cannot start kube-apiserver")?);
        // The fake kubelet: serves port-forwards to the addresses in `kubelet-ports`.
        let (o, e) = log("kubelet.log")?;
        let mut cmd = Command::new(bin.join("fake-kubelet"));
        cmd.args([
            format!("-listen=127.0.0.1:{kubelet_port}"),
            format!("-cert={}", p("kubelet.crt")),
            format!("-key={}", p("kubelet.key")),
            format!("-client-ca={}", p("ca.crt")),
            format!("-map={}", kubelet_map.display()),
        ])
        .stdin(Stdio::null())
        .stdout(o)
        .stderr(e);
        let kubelet = spawn_tied(cmd);
        let kubelet = match kubelet {
            Ok(k) => k,
            Err(err) => {
                for c in [env_children.1.take(), env_children.0.take()]
                    .into_iter()
                    .flatten()
                {
                    let mut c = c;
                    let _ = c.kill();
                    let _ = c.wait();
                }
                return Err(err).context("cannot start fake-kubelet");
            }
        };
        let server = format!("https://127.0.0.1:{api_port}");
        let ca = fs::read(d.join("ca.crt"))?;
        let kubeconfig = d.join("kubeconfig");
        fs::write(&kubeconfig, kubeconfig_text(&server, &ca))?;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let admin = rt.block_on(client_for(&kubeconfig, "admin"))?;
        let mut env = KubeEnv {
            rt,
            dir,
            etcd: env_children.0.take(),
            apiserver: env_children.1.take(),
            kubelet: Some(kubelet),
            kubelet_port,
            kubelet_map,
            server,
            kubeconfig: kubeconfig.clone(),
            admin,
            ready_after: Duration::ZERO,
        };
        env.wait_ready(started)?;
        env.ready_after = started.elapsed();
        env.rt.block_on(env.install())?;
        super::timing::record(
            "kube_start",
            began.elapsed(),
            &format!("apiserver ready after {:.1?}", env.ready_after),
        );
        Ok(env)
    }

    fn wait_ready(&mut self, started: Instant) -> Result<()> {
        let deadline = started + Duration::from_secs(120);
        loop {
            let req = http::Request::get("/readyz").body(Vec::new())?;
            let answer = self.rt.block_on(self.admin.request_text(req));
            if matches!(answer.as_deref(), Ok("ok")) {
                return Ok(());
            }
            let mut exited = None;
            for (name, child) in [
                ("etcd", &mut self.etcd),
                ("kube-apiserver", &mut self.apiserver),
                ("kubelet", &mut self.kubelet),
            ] {
                if let Some(c) = child
                    && let Ok(Some(status)) = c.try_wait()
                {
                    exited = Some((name, status));
                }
            }
            if let Some((name, status)) = exited {
                bail!("{name} exited ({status}):\n{}", self.log_tail(name, 30));
            }
            if Instant::now() >= deadline {
                bail!(
                    "the apiserver was not ready within 120 s ({answer:?}):\n{}",
                    self.log_tail("kube-apiserver", 30)
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The last lines of `etcd` or `kube-apiserver`'s log.
    pub fn log_tail(&self, name: &str, lines: usize) -> String {
        let file = match name {
            "etcd" => "etcd.log",
            "kubelet" | "fake-kubelet" => "kubelet.log",
            _ => "apiserver.log",
        };
        let text = fs::read_to_string(self.dir.path().join(file)).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }

    async fn install(&self) -> Result<()> {
        let c = self.admin.clone();
        let ns: Api<Namespace> = Api::all(c.clone());
        ns.create(
            &PostParams::default(),
            &serde_json::from_value(json!({"metadata": {"name": NAMESPACE}}))?,
        )
        .await
        .context("create namespace")?;
        let text = fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/env/kube/crds/strimzi.yaml"),
        )?;
        self.create_crds(&text).await?;
        let role = documented_role()?;
        self.bind_role(role, "kafkaops").await?;
        self.bind_role(role_in("examples/operate/rbac.yaml")?, OPERATE_USER)
            .await
    }

    /// Creates the CustomResourceDefinitions in a YAML file (one or more documents) and waits
    /// until each is established.
    pub fn install_crds(&self, file: &Path) -> Result<()> {
        let text = fs::read_to_string(file).with_context(|| format!("read {}", file.display()))?;
        self.rt.block_on(self.create_crds(&text))
    }

    async fn create_crds(&self, text: &str) -> Result<()> {
        let crds: Api<CustomResourceDefinition> = Api::all(self.admin.clone());
        let mut names = Vec::new();
        for doc in serde_yaml::Deserializer::from_str(text) {
            let v: Value = serde::Deserialize::deserialize(doc)?;
            if v.is_null() {
                continue;
            }
            let crd: CustomResourceDefinition = serde_json::from_value(v)?;
            names.push(crd.metadata.name.clone().unwrap_or_default());
            crds.create(&PostParams::default(), &crd)
                .await
                .context("create CRD")?;
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        for name in names {
            loop {
                let crd = crds.get(&name).await?;
                let established = crd.status.and_then(|s| s.conditions).is_some_and(|cs| {
                    cs.iter()
                        .any(|c| c.type_ == "Established" && c.status == "True")
                });
                if established {
                    break;
                }
                if Instant::now() >= deadline {
                    bail!("CRD {name} not established");
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        Ok(())
    }

    /// What user `user` asked the apiserver so far (audit log; only [`OPERATE_USER`] is
    /// audited): (API group, resource[/subresource], verb, HTTP status).
    pub fn audited(&self, user: &str) -> Result<Vec<(String, String, String, u16)>> {
        let text = fs::read_to_string(self.dir.path().join("audit.log")).unwrap_or_default();
        let mut out = Vec::new();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line)?;
            if v["user"]["username"] != user || v["stage"] != "ResponseComplete" {
                continue;
            }
            let o = &v["objectRef"];
            let mut resource = o["resource"].as_str().unwrap_or_default().to_string();
            if let Some(sub) = o["subresource"].as_str() {
                resource = format!("{resource}/{sub}");
            }
            out.push((
                o["apiGroup"].as_str().unwrap_or_default().to_string(),
                resource,
                v["verb"].as_str().unwrap_or_default().to_string(),
                u16::try_from(v["responseStatus"]["code"].as_u64().unwrap_or(0)).unwrap_or(0),
            ));
        }
        Ok(out)
    }

    /// The Role in `examples/operate/rbac.yaml`, as written.
    pub fn operate_role() -> Result<Value> {
        role_in("examples/operate/rbac.yaml")
    }

    /// The rules of the Role in `examples/operate/rbac.yaml` as (API group, resource, verb).
    pub fn operate_rules() -> Result<std::collections::BTreeSet<(String, String, String)>> {
        let role = Self::operate_role()?;
        let mut out = std::collections::BTreeSet::new();
        for rule in role["rules"].as_array().into_iter().flatten() {
            let strs = |k: &str| -> Vec<String> {
                rule[k]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            };
            for g in strs("apiGroups") {
                for r in strs("resources") {
                    for verb in strs("verbs") {
                        out.insert((g.clone(), r.clone(), verb));
                    }
                }
            }
        }
        Ok(out)
    }

    async fn bind_role(&self, role: Value, user: &str) -> Result<()> {
        let roles: Api<Role> = Api::namespaced(self.admin.clone(), NAMESPACE);
        let name = role["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        roles
            .create(&PostParams::default(), &serde_json::from_value(role)?)
            .await
            .context("create Role")?;
        let bindings: Api<RoleBinding> = Api::namespaced(self.admin.clone(), NAMESPACE);
        bindings
            .create(
                &PostParams::default(),
                &serde_json::from_value(json!({
                    "metadata": {"name": format!("{name}-{user}")},
                    "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
                    "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": user}],
                }))?,
            )
            .await
            .context("create RoleBinding")?;
        Ok(())
    }

    /// Binds user `limited` (context `limited`) to the documented Role minus `verb` on
    /// `resource`.
    pub fn limit(&self, resource: &str, verb: &str) -> Result<()> {
        let mut role = documented_role()?;
        role["metadata"]["name"] = json!("kafkaops-limited");
        for rule in role["rules"].as_array_mut().into_iter().flatten() {
            let hits = rule["resources"]
                .as_array()
                .is_some_and(|r| r.iter().any(|x| x == resource));
            if hits && let Some(verbs) = rule["verbs"].as_array_mut() {
                verbs.retain(|v| v != verb);
            }
        }
        // A rule left without verbs is invalid: drop it.
        if let Some(rules) = role["rules"].as_array_mut() {
            rules.retain(|r| r["verbs"].as_array().is_none_or(|v| !v.is_empty()));
        }
        self.rt.block_on(self.bind_role(role, "limited"))
    }

    /// A Node `node` served by the fake kubelet (created if missing: InternalIP 127.0.0.1, the
    /// kubelet's port as `daemonEndpoints.kubeletEndpoint`), and a port-forward mapping: port
    /// `port` of pod `pod` (namespace [`NAMESPACE`]) is `127.0.0.1:target`.
    pub fn kubelet_forward(&self, node: &str, pod: &str, port: u16, target: u16) -> Result<()> {
        let nodes: Api<k8s_openapi::api::core::v1::Node> = Api::all(self.admin.clone());
        self.rt.block_on(async {
            if nodes.get_opt(node).await?.is_none() {
                nodes
                    .create(
                        &PostParams::default(),
                        &serde_json::from_value(json!({"metadata": {"name": node}}))?,
                    )
                    .await
                    .context("create Node")?;
                nodes
                    .patch_status(
                        node,
                        &PatchParams::default(),
                        &Patch::Merge(json!({"status": {
                            "addresses": [{"type": "InternalIP", "address": "127.0.0.1"}],
                            "daemonEndpoints": {"kubeletEndpoint": {"Port": self.kubelet_port}},
                            "conditions": [{"type": "Ready", "status": "True"}],
                        }})),
                    )
                    .await
                    .context("Node status")?;
            }
            anyhow::Ok(())
        })?;
        let mut text = fs::read_to_string(&self.kubelet_map)?;
        text.push_str(&format!("{NAMESPACE}/{pod} {port} 127.0.0.1:{target}\n"));
        let tmp = self.kubelet_map.with_extension("tmp");
        fs::write(&tmp, text)?;
        fs::rename(&tmp, &self.kubelet_map)?;
        Ok(())
    }

    /// The bearer token of a kubeconfig context's user (`kafkaops`: bound to exactly
    /// `examples/kafkaops-rbac.yaml`), e.g. for a service-account token file.
    pub fn token(&self, context: &str) -> Result<&'static str> {
        match context {
            "admin" => Ok(ADMIN_TOKEN),
            "kafkaops" => Ok(KAFKAOPS_TOKEN),
            "limited" => Ok(LIMITED_TOKEN),
            other => bail!("no context {other}"),
        }
    }

    /// kafkaops running in the cluster as `examples/kafkaops-rbac.yaml` says: the ServiceAccount
    /// `kafkaops` in [`NAMESPACE`], the example's RoleBinding (applied as written) binding it to
    /// the documented Role, and a token for it from the TokenRequest API, signed by the
    /// apiserver's service-account key (what the kubelet projects into a pod's
    /// `/var/run/secrets/kubernetes.io/serviceaccount/token`). The apiserver authenticates it as
    /// `system:serviceaccount:kafka:kafkaops`.
    pub fn service_account_token(&self) -> Result<String> {
        use k8s_openapi::api::authentication::v1::TokenRequest;
        use k8s_openapi::api::core::v1::ServiceAccount;
        let binding = documented("RoleBinding")?;
        let sas: Api<ServiceAccount> = Api::namespaced(self.admin.clone(), NAMESPACE);
        let bindings: Api<RoleBinding> = Api::namespaced(self.admin.clone(), NAMESPACE);
        self.rt.block_on(async {
            sas.create(
                &PostParams::default(),
                &serde_json::from_value(json!({"metadata": {"name": "kafkaops"}}))?,
            )
            .await
            .context("create ServiceAccount")?;
            bindings
                .create(&PostParams::default(), &serde_json::from_value(binding)?)
                .await
                .context("create the example RoleBinding")?;
            let request: TokenRequest = serde_json::from_value(json!({
                "spec": { "audiences": [], "expirationSeconds": 3600 }
            }))?;
            let answer = sas
                .create_token_request("kafkaops", &PostParams::default(), &request)
                .await
                .context("TokenRequest for serviceaccount kafkaops")?;
            answer
                .status
                .and_then(|s| s.token)
                .filter(|t| !t.is_empty())
                .ok_or_else(|| anyhow!("TokenRequest answered without a token"))
        })
    }

    /// The CA (PEM) that signed the apiserver's serving certificate (valid for `127.0.0.1` and
    /// `localhost`).
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.crt")
    }

    /// The apiserver's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.server
            .rsplit_once(':')
            .and_then(|(_, p)| p.parse().ok())
            .expect("server URL ends in a port")
    }

    /// The harness's admin client.
    pub fn admin(&self) -> Client {
        self.admin.clone()
    }

    /// Runs a future on the harness's runtime.
    pub fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        self.rt.block_on(f)
    }

    /// Every events.k8s.io Event in the namespace as (regarding name, reason, note).
    pub fn events(&self) -> Result<Vec<(String, String, String)>> {
        let api: Api<k8s_openapi::api::events::v1::Event> =
            Api::namespaced(self.admin.clone(), NAMESPACE);
        let list = self.rt.block_on(api.list(&ListParams::default()))?;
        Ok(list
            .items
            .into_iter()
            .map(|e| {
                (
                    e.regarding.and_then(|r| r.name).unwrap_or_default(),
                    e.reason.unwrap_or_default(),
                    e.note.unwrap_or_default(),
                )
            })
            .collect())
    }

    /// A Lease's `spec.renewTime` as written (None: no Lease or never renewed).
    pub fn lease_renew_time(&self, name: &str) -> Result<Option<String>> {
        self.lease_time(name, |s| s.renew_time)
    }

    /// A Lease's `spec.acquireTime` as written by its holder when it took the Lease (None: no
    /// Lease or none written).
    pub fn lease_acquire_time(&self, name: &str) -> Result<Option<String>> {
        self.lease_time(name, |s| s.acquire_time)
    }

    fn lease_time(
        &self,
        name: &str,
        field: impl FnOnce(
            k8s_openapi::api::coordination::v1::LeaseSpec,
        ) -> Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime>,
    ) -> Result<Option<String>> {
        let api: Api<k8s_openapi::api::coordination::v1::Lease> =
            Api::namespaced(self.admin.clone(), NAMESPACE);
        let l = self.rt.block_on(api.get_opt(name))?;
        Ok(l.and_then(|l| l.spec)
            .and_then(field)
            .and_then(|t| serde_json::to_value(t).ok())
            .and_then(|v| v.as_str().map(str::to_string)))
    }

    /// The holder of a Lease in the namespace, if the Lease exists.
    pub fn lease_holder(&self, name: &str) -> Result<Option<String>> {
        let api: Api<k8s_openapi::api::coordination::v1::Lease> =
            Api::namespaced(self.admin.clone(), NAMESPACE);
        let l = self.rt.block_on(api.get_opt(name))?;
        Ok(l.map(|l| l.spec.and_then(|s| s.holder_identity).unwrap_or_default()))
    }
}

impl Drop for KubeEnv {
    fn drop(&mut self) {
        for child in [self.kubelet.take(), self.apiserver.take(), self.etcd.take()]
            .into_iter()
            .flatten()
        {
            let mut child = child;
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The Role of `examples/kafkaops-rbac.yaml` (namespaced to the test namespace).
fn documented_role() -> Result<Value> {
    documented("Role")
}

/// The first object of kind `kind` in `examples/kafkaops-rbac.yaml`, as written.
fn documented(kind: &str) -> Result<Value> {
    first_of("examples/kafkaops-rbac.yaml", kind)
}

/// The Role in a manifest file of the repository.
fn role_in(file: &str) -> Result<Value> {
    first_of(file, "Role")
}

/// The first object of kind `kind` in a manifest file of the repository, as written.
fn first_of(file: &str, kind: &str) -> Result<Value> {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))?;
    for doc in serde_yaml::Deserializer::from_str(&text) {
        let v: Value = serde::Deserialize::deserialize(doc)?;
        if v["kind"] == kind {
            return Ok(v);
        }
    }
    bail!("{file} has no {kind}")
}

fn kubeconfig_text(server: &str, ca: &[u8]) -> String {
    use base64::Engine as _;
    let ca = base64::engine::general_purpose::STANDARD.encode(ca);
    let mut users = String::new();
    let mut contexts = String::new();
    for (name, token) in [
        ("admin", ADMIN_TOKEN),
        ("kafkaops", KAFKAOPS_TOKEN),
        ("limited", LIMITED_TOKEN),
        (OPERATE_USER, OPERATE_TOKEN),
    ] {
        users.push_str(&format!("- name: {name}\n  user:\n    token: {token}\n"));
        contexts.push_str(&format!(
            "- name: {name}\n  context:\n    cluster: test\n    user: {name}\n    namespace: {NAMESPACE}\n"
        ));
    }
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: {server}\n    \
         certificate-authority-data: {ca}\nusers:\n{users}contexts:\n{contexts}current-context: kafkaops\n"
    )
}

async fn client_for(kubeconfig: &Path, context: &str) -> Result<Client> {
    let file = kube::config::Kubeconfig::read_from(kubeconfig)?;
    let config = Config::from_custom_kubeconfig(
        file,
        &kube::config::KubeConfigOptions {
            context: Some(context.into()),
            ..Default::default()
        },
    )
    .await?;
    Ok(Client::try_from(config)?)
}

// ---------------------------------------------------------------------------------------------
// Fake Strimzi: resources, pods, kubelet and StrimziPodSet controller
// ---------------------------------------------------------------------------------------------

/// One pod the fake controller replaced.
#[derive(Debug, Clone)]
pub struct PodRestart {
    pub node: i32,
    pub old_uid: String,
    /// What the pod was stuck in when it was deleted, if anything.
    pub stuck: Option<String>,
    pub at: Instant,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum NodeState {
    Ready,
    /// Process started, waiting for the broker to serve.
    Starting,
    /// Made stuck by the test; left alone until the pod is deleted.
    Stuck(String),
}

struct Shared {
    log: Vec<PodRestart>,
    states: BTreeMap<i32, NodeState>,
    error: Option<String>,
}

/// A Strimzi-shaped cluster in the test apiserver, bound to a real Kafka cluster.
pub struct FakeStrimzi {
    pub cluster_name: String,
    pub pool: String,
    ids: Vec<i32>,
    kafka: Arc<Mutex<KafkaCluster>>,
    admin: Client,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    task: Option<tokio::task::JoinHandle<()>>,
    handle: tokio::runtime::Handle,
}

fn pod_name(cluster: &str, pool: &str, id: i32) -> String {
    format!("{cluster}-{pool}-{id}")
}

fn pod_template(cluster: &str, pool: &str, id: i32, roles: (bool, bool), revision: &str) -> Value {
    let name = pod_name(cluster, pool, id);
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": NAMESPACE,
            "labels": {
                "strimzi.io/cluster": cluster,
                "strimzi.io/kind": "Kafka",
                "strimzi.io/name": format!("{cluster}-kafka"),
                "strimzi.io/component-type": "kafka",
                "strimzi.io/pool-name": pool,
                "strimzi.io/broker-role": roles.0.to_string(),
                "strimzi.io/controller-role": roles.1.to_string(),
                "strimzi.io/controller": "strimzipodset",
                "strimzi.io/controller-name": format!("{cluster}-{pool}"),
                "strimzi.io/pod-name": name,
            },
            "annotations": { "strimzi.io/revision": revision },
        },
        "spec": {
            "nodeName": format!("fake-node-{id}"),
            "terminationGracePeriodSeconds": 30,
            "containers": [{ "name": "kafka", "image": "quay.io/strimzi/kafka:test" }],
        },
    })
}

impl FakeStrimzi {
    /// Creates the Kafka, KafkaNodePool and StrimziPodSet resources and the pods of every node
    /// of `kafka` (one pool named `pool`), waits until every pod is Ready, and starts the fake
    /// controller.
    pub fn install(
        env: &KubeEnv,
        cluster_name: &str,
        pool: &str,
        kafka: Arc<Mutex<KafkaCluster>>,
    ) -> Result<Self> {
        let (ids, bootstrap, roles): (Vec<i32>, String, BTreeMap<i32, (bool, bool)>) = {
            let k = kafka.lock().unwrap_or_else(|e| e.into_inner());
            let nodes = k.nodes();
            (
                nodes.iter().map(|n| n.id).collect(),
                k.bootstrap_servers(),
                nodes
                    .iter()
                    .map(|n| (n.id, (n.role.is_broker(), n.role.is_controller())))
                    .collect(),
            )
        };
        let admin = env.admin();
        let dynamic = |kind: &str| -> Api<DynamicObject> {
            Api::namespaced_with(admin.clone(), NAMESPACE, &strimzi_resource(kind))
        };
        let labels = json!({ "strimzi.io/cluster": cluster_name });
        env.block_on(async {
            let kafka_api = dynamic("Kafka");
            let k: DynamicObject = serde_json::from_value(json!({
                "apiVersion": "kafka.strimzi.io/v1", "kind": "Kafka",
                "metadata": { "name": cluster_name, "namespace": NAMESPACE },
                "spec": { "kafka": { "listeners": [{"name": "plain", "port": 9092, "type": "internal", "tls": false}] },
                          "cruiseControl": {} },
            }))?;
            kafka_api.create(&PostParams::default(), &k).await.context("create Kafka")?;
            kafka_api
                .patch_status(
                    cluster_name,
                    &PatchParams::default(),
                    &Patch::Merge(json!({ "status": {
                        "listeners": [{ "name": "plain", "bootstrapServers": bootstrap }],
                        "kafkaNodePools": [{ "name": pool }],
                        "conditions": [{ "type": "Ready", "status": "True" }],
                    }})),
                )
                .await
                .context("Kafka status")?;
            let pools = dynamic("KafkaNodePool");
            let p: DynamicObject = serde_json::from_value(json!({
                "apiVersion": "kafka.strimzi.io/v1", "kind": "KafkaNodePool",
                "metadata": { "name": pool, "namespace": NAMESPACE, "labels": labels },
                "spec": { "replicas": ids.len(), "roles": ["controller", "broker"] },
            }))?;
            pools.create(&PostParams::default(), &p).await.context("create KafkaNodePool")?;
            pools
                .patch_status(
                    pool,
                    &PatchParams::default(),
                    &Patch::Merge(json!({ "status": { "nodeIds": ids } })),
                )
                .await?;
            let sets = dynamic("StrimziPodSet");
            let templates: Vec<Value> = ids
                .iter()
                .map(|id| pod_template(cluster_name, pool, *id, roles[id], "rev-1"))
                .collect();
            let s: DynamicObject = serde_json::from_value(json!({
                "apiVersion": "kafka.strimzi.io/v1", "kind": "StrimziPodSet",
                "metadata": { "name": format!("{cluster_name}-{pool}"), "namespace": NAMESPACE, "labels": labels },
                "spec": { "selector": { "matchLabels": labels }, "pods": templates },
            }))?;
            sets.create(&PostParams::default(), &s).await.context("create StrimziPodSet")?;
            anyhow::Ok(())
        })?;
        let shared = Arc::new(Mutex::new(Shared {
            log: Vec::new(),
            states: ids.iter().map(|id| (*id, NodeState::Starting)).collect(),
            error: None,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let handle = env.rt.handle().clone();
        let ctl = Controller {
            owner: Owner::PodSet {
                cluster: cluster_name.to_string(),
                pool: pool.to_string(),
                sets: dynamic("StrimziPodSet"),
            },
            ids: ids.clone(),
            kafka: Arc::clone(&kafka),
            pods: Api::namespaced(admin.clone(), NAMESPACE),
            shared: Arc::clone(&shared),
            bootstrap,
        };
        let task = ctl.spawn(&handle, &stop);
        let fake = FakeStrimzi {
            cluster_name: cluster_name.to_string(),
            pool: pool.to_string(),
            ids,
            kafka,
            admin,
            shared,
            stop,
            task: Some(task),
            handle,
        };
        fake.wait_all_ready(Duration::from_secs(120))?;
        Ok(fake)
    }

    pub fn pod_name(&self, id: i32) -> String {
        pod_name(&self.cluster_name, &self.pool, id)
    }

    fn pods(&self) -> Api<Pod> {
        Api::namespaced(self.admin.clone(), NAMESPACE)
    }

    /// Waits until every pod is Ready.
    pub fn wait_all_ready(&self, deadline: Duration) -> Result<()> {
        wait_all_ready(&self.shared, deadline)
    }

    /// Each pod's UID by node id.
    pub fn uids(&self) -> Result<BTreeMap<i32, String>> {
        let selector = format!("strimzi.io/cluster={}", self.cluster_name);
        uids(&self.handle, &self.pods(), &selector, &self.ids)
    }

    /// The pods replaced so far, in order.
    pub fn restarts(&self) -> Vec<PodRestart> {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .log
            .clone()
    }

    /// Sets an annotation on a pod (admin).
    pub fn annotate(&self, id: i32, key: &str, value: &str) -> Result<()> {
        annotate_pod(&self.handle, &self.pods(), &self.pod_name(id), key, value)
    }

    /// The StrimziPodSet `<cluster>-<pool>`: sets an annotation (admin).
    pub fn annotate_pod_set(&self, key: &str, value: &str) -> Result<()> {
        let patch = json!({ "metadata": { "annotations": { key: value } } });
        self.handle.block_on(self.sets().patch(
            &format!("{}-{}", self.cluster_name, self.pool),
            &PatchParams::default(),
            &Patch::Merge(&patch),
        ))?;
        Ok(())
    }

    /// Pauses (or resumes) the operator's reconciliation of the cluster: the annotation
    /// `strimzi.io/pause-reconciliation: "true"` on the `Kafka` resource, removed to resume
    /// (admin). The harness plays the operator, so a test that rolls pauses it as a user would.
    pub fn pause_reconciliation(&self, paused: bool) -> Result<()> {
        let value = if paused { json!("true") } else { Value::Null };
        let patch =
            json!({ "metadata": { "annotations": { "strimzi.io/pause-reconciliation": value } } });
        let api: Api<DynamicObject> =
            Api::namespaced_with(self.admin.clone(), NAMESPACE, &strimzi_resource("Kafka"));
        self.handle.block_on(api.patch(
            &self.cluster_name,
            &PatchParams::default(),
            &Patch::Merge(&patch),
        ))?;
        Ok(())
    }

    /// A `KafkaRebalance` of this cluster (label `strimzi.io/cluster`) in `state` (its status
    /// condition type, as Strimzi's operator writes it: `ProposalReady`, `Rebalancing`, `Ready`,
    /// ...), created if missing (admin).
    pub fn kafka_rebalance(&self, name: &str, state: &str) -> Result<()> {
        let api: Api<DynamicObject> = Api::namespaced_with(
            self.admin.clone(),
            NAMESPACE,
            &strimzi_resource("KafkaRebalance"),
        );
        self.handle.block_on(async {
            if api.get_opt(name).await?.is_none() {
                let r: DynamicObject = serde_json::from_value(json!({
                    "apiVersion": "kafka.strimzi.io/v1", "kind": "KafkaRebalance",
                    "metadata": { "name": name, "namespace": NAMESPACE,
                                  "labels": { "strimzi.io/cluster": self.cluster_name } },
                    "spec": {},
                }))?;
                api.create(&PostParams::default(), &r).await?;
            }
            api.patch_status(
                name,
                &PatchParams::default(),
                &Patch::Merge(json!({ "status": { "conditions": [
                    { "type": state, "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z" }
                ] } })),
            )
            .await?;
            anyhow::Ok(())
        })
    }

    /// The StrimziPodSet's annotations.
    pub fn pod_set_annotations(&self) -> Result<BTreeMap<String, String>> {
        let set = self.handle.block_on(
            self.sets()
                .get(&format!("{}-{}", self.cluster_name, self.pool)),
        )?;
        Ok(set.metadata.annotations.unwrap_or_default())
    }

    fn sets(&self) -> Api<DynamicObject> {
        Api::namespaced_with(
            self.admin.clone(),
            NAMESPACE,
            &strimzi_resource("StrimziPodSet"),
        )
    }

    /// A pod's annotations.
    pub fn annotations(&self, id: i32) -> Result<BTreeMap<String, String>> {
        let p = self.handle.block_on(self.pods().get(&self.pod_name(id)))?;
        Ok(p.metadata.annotations.unwrap_or_default())
    }

    /// Marks a pod as made from an older pod template (`strimzi.io/revision` differs from the
    /// StrimziPodSet's).
    pub fn old_revision(&self, id: i32) -> Result<()> {
        self.annotate(id, "strimzi.io/revision", "rev-0")
    }

    /// Stops the node's Kafka process and shows its pod in CrashLoopBackOff until it is deleted.
    pub fn crash_loop(&self, id: i32) -> Result<()> {
        self.make_stuck(
            id,
            "CrashLoopBackOff",
            json!({ "status": {
                "phase": "Running",
                "conditions": [{ "type": "Ready", "status": "False", "reason": "ContainersNotReady" },
                               { "type": "PodScheduled", "status": "True" }],
                "containerStatuses": [{ "name": "kafka", "ready": false, "restartCount": 5,
                    "image": "quay.io/strimzi/kafka:test", "imageID": "",
                    "state": { "waiting": { "reason": "CrashLoopBackOff",
                        "message": "back-off 5m0s restarting failed container" } } }],
            }}),
        )
    }

    /// Stops the node's Kafka process and shows its pod Pending/Unschedulable until deleted.
    pub fn unschedulable(&self, id: i32) -> Result<()> {
        self.make_stuck(
            id,
            "Pending/Unschedulable",
            json!({ "status": {
                "phase": "Pending",
                "conditions": [{ "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                    "message": "0/3 nodes are available: insufficient memory" },
                    { "type": "Ready", "status": "False" }],
                "containerStatuses": null,
            }}),
        )
    }

    fn make_stuck(&self, id: i32, why: &str, status: Value) -> Result<()> {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .states
            .insert(id, NodeState::Stuck(why.into()));
        self.kafka
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .stop_node(id)?;
        self.handle.block_on(self.pods().patch_status(
            &self.pod_name(id),
            &PatchParams::default(),
            &Patch::Merge(status),
        ))?;
        Ok(())
    }

    /// The Service `<cluster>-cruise-control` (port `rest-api`) with a LoadBalancer address of
    /// 127.0.0.1, where the Cruise Control double listens on `port`.
    pub fn cruise_control_service(&self, port: u16) -> Result<()> {
        let api: Api<k8s_openapi::api::core::v1::Service> =
            Api::namespaced(self.admin.clone(), NAMESPACE);
        let name = format!("{}-cruise-control", self.cluster_name);
        let svc = serde_json::from_value(json!({
            "metadata": { "name": name, "labels": { "strimzi.io/cluster": self.cluster_name } },
            "spec": { "type": "LoadBalancer",
                      "selector": { "strimzi.io/name": name },
                      "ports": [{ "name": "rest-api", "port": port, "targetPort": 9090, "protocol": "TCP" }] },
        }))?;
        self.handle.block_on(async {
            api.create(&PostParams::default(), &svc).await?;
            api.patch_status(
                &name,
                &PatchParams::default(),
                &Patch::Merge(
                    json!({ "status": { "loadBalancer": { "ingress": [{ "ip": "127.0.0.1" }] } } }),
                ),
            )
            .await?;
            anyhow::Ok(())
        })
    }

    /// Cruise Control as Strimzi deploys it, without an address outside the cluster: the
    /// ClusterIP Service `<cluster>-cruise-control` (port 9090 `rest-api`, target port named
    /// `rest-api`, selector `strimzi.io/name=<cluster>-cruise-control`) and a Ready pod
    /// `<cluster>-cruise-control-6d4f7c9b8-x2k7p` (named as its Deployment would) behind it on node `fake-node-cruise-control`, whose port 9090
    /// the fake kubelet forwards to the double listening on `port`. Reaching it from the host
    /// takes a port-forward through the apiserver.
    pub fn cruise_control_in_cluster(&self, env: &KubeEnv, port: u16) -> Result<()> {
        self.cruise_control_service_port(env, 9090, port)
    }

    /// [`Self::cruise_control_in_cluster`] with the Service on port `service_port` instead of
    /// 9090 (the target port stays `rest-api`). Inside the cluster kafkaops reaches
    /// `https://<cluster>-cruise-control.<namespace>.svc:<service_port>` directly: with that name
    /// resolving to 127.0.0.1 (an `/etc/hosts` in the test's mount namespace plays cluster DNS
    /// and kube-proxy) and `service_port` the double's port, it reaches the double.
    pub fn cruise_control_service_port(
        &self,
        env: &KubeEnv,
        service_port: u16,
        port: u16,
    ) -> Result<()> {
        let name = format!("{}-cruise-control", self.cluster_name);
        // A Deployment's pod name: ReplicaSet hash and a random suffix, no number at the end.
        let pod_name = format!("{name}-6d4f7c9b8-x2k7p");
        let node = "fake-node-cruise-control";
        // Strimzi's labels: the cluster and kind labels of the Kafka pods too, another
        // component type (a roll of the cluster must not pick this pod up).
        let labels = json!({ "strimzi.io/name": name, "strimzi.io/cluster": self.cluster_name,
                             "strimzi.io/kind": "Kafka",
                             "strimzi.io/component-type": "cruise-control" });
        let svc = serde_json::from_value(json!({
            "metadata": { "name": name, "labels": { "strimzi.io/cluster": self.cluster_name } },
            "spec": { "type": "ClusterIP",
                      "selector": { "strimzi.io/name": name },
                      "ports": [{ "name": "rest-api", "port": service_port, "targetPort": "rest-api",
                                  "protocol": "TCP" }] },
        }))?;
        let pod = serde_json::from_value(json!({
            "metadata": { "name": pod_name, "labels": labels },
            "spec": { "nodeName": node,
                      "containers": [{ "name": "cruise-control",
                                       "image": "quay.io/strimzi/kafka:test",
                                       "ports": [{ "name": "rest-api", "containerPort": 9090 }] }] },
        }))?;
        let services: Api<k8s_openapi::api::core::v1::Service> =
            Api::namespaced(self.admin.clone(), NAMESPACE);
        self.handle.block_on(async {
            services.create(&PostParams::default(), &svc).await?;
            self.pods().create(&PostParams::default(), &pod).await?;
            self.pods()
                .patch_status(
                    &pod_name,
                    &PatchParams::default(),
                    &Patch::Merge(json!({ "status": {
                        "phase": "Running", "podIP": "127.0.0.1",
                        "conditions": [{ "type": "PodScheduled", "status": "True" },
                                       { "type": "Ready", "status": "True" }],
                    }})),
                )
                .await?;
            anyhow::Ok(())
        })?;
        env.kubelet_forward(node, &pod_name, 9090, port)
    }

    /// The Secrets `<cluster>-cruise-control-api` (the rebalance-operator password) and
    /// `<cluster>-cluster-ca-cert` (`ca.crt`).
    pub fn cruise_control_secrets(&self, password: &str, ca_pem: &str) -> Result<()> {
        use base64::Engine as _;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let api: Api<k8s_openapi::api::core::v1::Secret> =
            Api::namespaced(self.admin.clone(), NAMESPACE);
        let c = &self.cluster_name;
        for (name, key, value) in [
            (
                format!("{c}-cruise-control-api"),
                "rebalance-operator.password",
                password,
            ),
            (format!("{c}-cluster-ca-cert"), "ca.crt", ca_pem),
        ] {
            let secret = serde_json::from_value(json!({
                "metadata": { "name": name, "labels": { "strimzi.io/cluster": c } },
                "data": { key: b64(value) },
            }))?;
            self.handle
                .block_on(api.create(&PostParams::default(), &secret))?;
        }
        Ok(())
    }

    /// The first error the controller met, if any.
    pub fn error(&self) -> Option<String> {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .error
            .clone()
    }
}

/// A real apiserver in front of a 3-node combined KRaft cluster bound to Strimzi-shaped pods,
/// a topic with one replica on every node (RF 3, `min.insync.replicas` 2), and the operator's
/// reconciliation paused (kafkaops changes a Strimzi cluster only then): the setup of the tests
/// where holds meet a roll (`kube_holds`, `kube_operate_holds`). Fields drop in order: the fake
/// operator first, the apiserver last.
pub struct PausedStrimzi {
    pub strimzi: FakeStrimzi,
    pub kafka: Arc<Mutex<KafkaCluster>>,
    pub bootstrap: String,
    pub cluster: String,
    pub env: KubeEnv,
}

impl PausedStrimzi {
    /// Starts it all: the cluster `cluster` (node pool `pool`) with topic `topic`.
    ///
    /// # Panics
    /// Something does not start.
    #[must_use]
    pub fn start(cluster: &str, pool: &str, topic: &str) -> Self {
        let env = KubeEnv::start().expect("start the apiserver");
        let kafka =
            KafkaCluster::start(super::kafka::ClusterSpec::combined(3)).expect("start Kafka");
        let bootstrap = kafka.bootstrap_servers();
        super::kafka::create_topic(
            &bootstrap,
            topic,
            &[vec![1, 2, 3], vec![2, 3, 1], vec![3, 1, 2]],
            &[("min.insync.replicas", "2")],
        )
        .expect("create topic");
        let kafka = Arc::new(Mutex::new(kafka));
        let strimzi =
            FakeStrimzi::install(&env, cluster, pool, Arc::clone(&kafka)).expect("strimzi");
        strimzi.pause_reconciliation(true).expect("pause");
        Self {
            strimzi,
            kafka,
            bootstrap,
            cluster: cluster.to_string(),
            env,
        }
    }

    /// The flags that point kafkaops at this cluster as the kubeconfig user `context`.
    #[must_use]
    pub fn connection(&self, context: &str) -> Vec<String> {
        let kubeconfig = self.env.kubeconfig.display().to_string();
        [
            "--strimzi",
            &self.cluster,
            "-n",
            NAMESPACE,
            "--kube-context",
            context,
        ]
        .into_iter()
        .map(String::from)
        .chain(["--kubeconfig".to_string(), kubeconfig])
        .collect()
    }

    /// `kafkaops ARGS` against this cluster as kafkaops' own identity (the `kafkaops` context),
    /// with its state in `state`.
    #[must_use]
    pub fn kafkaops(&self, state: &Path, args: &[&str]) -> Command {
        let mut cmd = super::bin::kafkaops();
        cmd.args(self.connection("kafkaops"))
            .env("KAFKAOPS_STATE_DIR", state)
            .args(args);
        cmd
    }
}

impl Drop for FakeStrimzi {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

/// Who owns the pods, for the fake controller: how they are selected, named and recreated.
enum Owner {
    /// Strimzi: pods `<cluster>-<pool>-<id>` from the StrimziPodSet's pod templates.
    PodSet {
        cluster: String,
        pool: String,
        sets: Api<DynamicObject>,
    },
    /// A StatefulSet `name`: pods `<name>-<ordinal>` (ordinal = node id + `offset`) from its
    /// pod template, labelled with its `status.updateRevision` as `controller-revision-hash`
    /// (and `id_label=<node id>` when set), owned by it.
    StatefulSet {
        name: String,
        api: Api<StatefulSet>,
        offset: i32,
        id_label: Option<String>,
    },
}

impl Owner {
    fn selector(&self) -> String {
        match self {
            Owner::PodSet { cluster, .. } => format!("strimzi.io/cluster={cluster}"),
            Owner::StatefulSet { name, .. } => format!("app={name}"),
        }
    }

    fn pod_name(&self, id: i32) -> String {
        match self {
            Owner::PodSet { cluster, pool, .. } => pod_name(cluster, pool, id),
            Owner::StatefulSet { name, offset, .. } => format!("{name}-{}", id + offset),
        }
    }

    /// The pod the controller creates for node `id`.
    async fn template(&self, id: i32) -> Result<Pod> {
        let name = self.pod_name(id);
        match self {
            Owner::PodSet {
                cluster,
                pool,
                sets,
            } => {
                let set = sets.get(&format!("{cluster}-{pool}")).await?;
                let template = set.data["spec"]["pods"]
                    .as_array()
                    .and_then(|ps| ps.iter().find(|p| p["metadata"]["name"] == name.as_str()))
                    .cloned()
                    .ok_or_else(|| anyhow!("no template for {name}"))?;
                Ok(serde_json::from_value(template)?)
            }
            Owner::StatefulSet {
                name: sts,
                api,
                id_label,
                ..
            } => {
                let set = api.get(sts).await?;
                let revision = set
                    .status
                    .as_ref()
                    .and_then(|s| s.update_revision.clone())
                    .ok_or_else(|| anyhow!("statefulset {sts} has no updateRevision"))?;
                let template = set.spec.template.clone();
                let mut pod = json!({
                    "apiVersion": "v1", "kind": "Pod",
                    "metadata": serde_json::to_value(template.metadata.unwrap_or_default())?,
                    "spec": serde_json::to_value(template.spec.unwrap_or_default())?,
                });
                let meta = &mut pod["metadata"];
                meta["name"] = json!(name);
                meta["namespace"] = json!(NAMESPACE);
                meta["labels"]["controller-revision-hash"] = json!(revision);
                meta["labels"]["statefulset.kubernetes.io/pod-name"] = json!(name);
                if let Some(label) = id_label {
                    meta["labels"][label.as_str()] = json!(id.to_string());
                }
                meta["ownerReferences"] = json!([{
                    "apiVersion": "apps/v1", "kind": "StatefulSet", "name": sts,
                    "uid": set.metadata.uid, "controller": true, "blockOwnerDeletion": true,
                }]);
                pod["spec"]["nodeName"] = json!(format!("fake-node-{id}"));
                pod["spec"]["hostname"] = json!(name);
                Ok(serde_json::from_value(pod)?)
            }
        }
    }
}

fn annotate_pod(
    handle: &tokio::runtime::Handle,
    pods: &Api<Pod>,
    name: &str,
    key: &str,
    value: &str,
) -> Result<()> {
    let patch = json!({ "metadata": { "annotations": { key: value } } });
    handle.block_on(pods.patch(name, &PatchParams::default(), &Patch::Merge(&patch)))?;
    Ok(())
}

fn wait_all_ready(shared: &Mutex<Shared>, deadline: Duration) -> Result<()> {
    let until = Instant::now() + deadline;
    loop {
        {
            let s = shared.lock().unwrap_or_else(|e| e.into_inner());
            if s.states.values().all(|st| *st == NodeState::Ready) {
                return Ok(());
            }
            if Instant::now() >= until {
                bail!("pods not Ready: {:?} (last error {:?})", s.states, s.error);
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The UIDs of the pods matching `selector` whose names end in one of `ids`.
fn uids(
    handle: &tokio::runtime::Handle,
    pods: &Api<Pod>,
    selector: &str,
    ids: &[i32],
) -> Result<BTreeMap<i32, String>> {
    let list = handle.block_on(pods.list(&ListParams::default().labels(selector)))?;
    Ok(list
        .items
        .into_iter()
        .filter_map(|p| {
            let name = p.metadata.name?;
            let id = name.rsplit_once('-')?.1.parse().ok()?;
            Some((id, p.metadata.uid.unwrap_or_default()))
        })
        .filter(|(id, _)| ids.contains(id))
        .collect())
}

/// A StatefulSet in the test apiserver whose pods are bound to a real Kafka cluster: the
/// harness plays the StatefulSet controller (recreating a deleted pod `<name>-<id>` from the
/// pod template, labelled `controller-revision-hash` = the StatefulSet's
/// `status.updateRevision`) and the kubelet (stopping and starting the Kafka process, Ready
/// once the broker serves), as [`FakeStrimzi`] does for Strimzi. With [`Self::install`] the
/// StatefulSet's ordinals start at the first node id (`spec.ordinals.start`), so pod names end in
/// the node id; with [`Self::install_labelled`] they start at 0 and a label carries the node id.
pub struct FakeStatefulSet {
    pub name: String,
    ids: Vec<i32>,
    /// A pod's ordinal minus its node id.
    offset: i32,
    admin: Client,
    shared: Arc<Mutex<Shared>>,
    stop: Arc<AtomicBool>,
    task: Option<tokio::task::JoinHandle<()>>,
    handle: tokio::runtime::Handle,
}

impl FakeStatefulSet {
    /// Creates the StatefulSet (label `app=<name>`, revision `revision`) and its pods, one per
    /// node of `kafka` (ids must be consecutive), waits until they are Ready, and starts the
    /// fake controller.
    pub fn install(
        env: &KubeEnv,
        name: &str,
        revision: &str,
        kafka: Arc<Mutex<KafkaCluster>>,
    ) -> Result<Self> {
        Self::install_with(env, name, revision, kafka, None)
    }

    /// As [`Self::install`], but the ordinals start at 0 as by default (`<name>-0` is the first
    /// node, `<name>-1` the second, ...: the name no longer ends in the node id) and every pod
    /// is labelled `label=<node id>` (as an operator or admission webhook that knows the node ids
    /// would label them; a StatefulSet controller only labels the ordinal).
    pub fn install_labelled(
        env: &KubeEnv,
        name: &str,
        revision: &str,
        kafka: Arc<Mutex<KafkaCluster>>,
        label: &str,
    ) -> Result<Self> {
        Self::install_with(env, name, revision, kafka, Some(label))
    }

    fn install_with(
        env: &KubeEnv,
        name: &str,
        revision: &str,
        kafka: Arc<Mutex<KafkaCluster>>,
        id_label: Option<&str>,
    ) -> Result<Self> {
        let (ids, bootstrap) = {
            let k = kafka.lock().unwrap_or_else(|e| e.into_inner());
            let ids: Vec<i32> = k.nodes().iter().map(|n| n.id).collect();
            (ids, k.bootstrap_servers())
        };
        let first = *ids.first().ok_or_else(|| anyhow!("no nodes"))?;
        if ids
            .iter()
            .enumerate()
            .any(|(i, id)| *id != first + i as i32)
        {
            bail!("node ids {ids:?} are not consecutive");
        }
        let first_ordinal = if id_label.is_some() { 0 } else { first };
        let offset = first_ordinal - first;
        let admin = env.admin();
        let api: Api<StatefulSet> = Api::namespaced(admin.clone(), NAMESPACE);
        env.block_on(async {
            let sts: StatefulSet = serde_json::from_value(json!({
                "metadata": { "name": name, "namespace": NAMESPACE },
                "spec": {
                    "replicas": ids.len(),
                    "ordinals": { "start": first_ordinal },
                    "serviceName": name,
                    "selector": { "matchLabels": { "app": name } },
                    "template": {
                        "metadata": { "labels": { "app": name } },
                        "spec": { "terminationGracePeriodSeconds": 30,
                                  "containers": [{ "name": "kafka", "image": "apache/kafka:test" }] },
                    },
                },
            }))?;
            api.create(&PostParams::default(), &sts).await.context("create StatefulSet")?;
            set_revisions(&api, name, revision, revision).await
        })?;
        let shared = Arc::new(Mutex::new(Shared {
            log: Vec::new(),
            states: ids.iter().map(|id| (*id, NodeState::Starting)).collect(),
            error: None,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let handle = env.rt.handle().clone();
        let ctl = Controller {
            owner: Owner::StatefulSet {
                name: name.to_string(),
                api,
                offset,
                id_label: id_label.map(str::to_string),
            },
            ids: ids.clone(),
            kafka,
            pods: Api::namespaced(admin.clone(), NAMESPACE),
            shared: Arc::clone(&shared),
            bootstrap,
        };
        let task = ctl.spawn(&handle, &stop);
        let fake = FakeStatefulSet {
            name: name.to_string(),
            ids,
            offset,
            admin,
            shared,
            stop,
            task: Some(task),
            handle,
        };
        wait_all_ready(&fake.shared, Duration::from_secs(120))?;
        Ok(fake)
    }

    /// A rolling update as the StatefulSet controller records it: `status.updateRevision`
    /// becomes `revision` (`currentRevision` stays); pods recreated from now on carry it.
    pub fn update_revision(&self, current: &str, revision: &str) -> Result<()> {
        let api: Api<StatefulSet> = Api::namespaced(self.admin.clone(), NAMESPACE);
        self.handle
            .block_on(set_revisions(&api, &self.name, current, revision))
    }

    /// The pod bound to node `id`.
    pub fn pod_name(&self, id: i32) -> String {
        format!("{}-{}", self.name, id + self.offset)
    }

    /// Sets an annotation on the pod of node `id` (admin).
    pub fn annotate(&self, id: i32, key: &str, value: &str) -> Result<()> {
        let pods: Api<Pod> = Api::namespaced(self.admin.clone(), NAMESPACE);
        annotate_pod(&self.handle, &pods, &self.pod_name(id), key, value)
    }

    /// Each pod's `controller-revision-hash` label by node id.
    pub fn revisions(&self) -> Result<BTreeMap<i32, String>> {
        let pods: Api<Pod> = Api::namespaced(self.admin.clone(), NAMESPACE);
        let list = self
            .handle
            .block_on(pods.list(&ListParams::default().labels(&format!("app={}", self.name))))?;
        Ok(list
            .items
            .into_iter()
            .filter_map(|p| {
                let name = p.metadata.name?;
                let ordinal: i32 = name.rsplit_once('-')?.1.parse().ok()?;
                let rev = p.metadata.labels?.get("controller-revision-hash")?.clone();
                Some((ordinal - self.offset, rev))
            })
            .collect())
    }

    /// Each pod's UID by node id.
    pub fn uids(&self) -> Result<BTreeMap<i32, String>> {
        let pods: Api<Pod> = Api::namespaced(self.admin.clone(), NAMESPACE);
        let ordinals: Vec<i32> = self.ids.iter().map(|id| id + self.offset).collect();
        Ok(uids(
            &self.handle,
            &pods,
            &format!("app={}", self.name),
            &ordinals,
        )?
        .into_iter()
        .map(|(ordinal, uid)| (ordinal - self.offset, uid))
        .collect())
    }

    /// The pods replaced so far, in order.
    pub fn restarts(&self) -> Vec<PodRestart> {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .log
            .clone()
    }

    /// Waits until every pod is Ready.
    pub fn wait_all_ready(&self, deadline: Duration) -> Result<()> {
        wait_all_ready(&self.shared, deadline)
    }

    /// The first error the controller met, if any.
    pub fn error(&self) -> Option<String> {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .error
            .clone()
    }
}

impl Drop for FakeStatefulSet {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.task.take() {
            t.abort();
        }
    }
}

/// Writes a StatefulSet's status as its controller would mid-rollout.
async fn set_revisions(
    api: &Api<StatefulSet>,
    name: &str,
    current: &str,
    update: &str,
) -> Result<()> {
    let sts = api.get(name).await?;
    let replicas = sts.spec.replicas.unwrap_or(1);
    api.patch_status(
        name,
        &PatchParams::default(),
        &Patch::Merge(json!({ "status": {
            "observedGeneration": sts.metadata.generation,
            "replicas": replicas,
            "currentRevision": current,
            "updateRevision": update,
        }})),
    )
    .await
    .context("StatefulSet status")?;
    Ok(())
}

struct Controller {
    owner: Owner,
    ids: Vec<i32>,
    kafka: Arc<Mutex<KafkaCluster>>,
    pods: Api<Pod>,
    shared: Arc<Mutex<Shared>>,
    bootstrap: String,
}

impl Controller {
    /// Reconciles every 200 ms until `stop`; errors are kept in `shared.error`.
    fn spawn(
        self,
        handle: &tokio::runtime::Handle,
        stop: &Arc<AtomicBool>,
    ) -> tokio::task::JoinHandle<()> {
        let stop = Arc::clone(stop);
        handle.spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                if let Err(e) = self.reconcile().await {
                    let msg = format!("{e:#}");
                    eprintln!("fake controller: {msg}");
                    self.shared.lock().unwrap_or_else(|e| e.into_inner()).error = Some(msg);
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
    }

    fn state(&self, id: i32) -> NodeState {
        self.shared.lock().unwrap_or_else(|e| e.into_inner()).states[&id].clone()
    }

    fn set_state(&self, id: i32, st: NodeState) {
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .states
            .insert(id, st);
    }

    async fn with_kafka<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut KafkaCluster) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let kafka = Arc::clone(&self.kafka);
        tokio::task::spawn_blocking(move || f(&mut kafka.lock().unwrap_or_else(|e| e.into_inner())))
            .await?
    }

    async fn reconcile(&self) -> Result<()> {
        let list = self
            .pods
            .list(&ListParams::default().labels(&self.owner.selector()))
            .await?;
        let by_name: BTreeMap<String, Pod> = list
            .items
            .into_iter()
            .filter_map(|p| Some((p.metadata.name.clone()?, p)))
            .collect();
        for &id in &self.ids {
            let name = self.owner.pod_name(id);
            match by_name.get(&name) {
                // The kubelet: a pod being deleted stops its container, then goes.
                Some(p) if p.metadata.deletion_timestamp.is_some() => {
                    let uid = p.metadata.uid.clone().unwrap_or_default();
                    self.with_kafka(move |k| k.stop_node(id)).await?;
                    let stuck = match self.state(id) {
                        NodeState::Stuck(why) => Some(why),
                        _ => None,
                    };
                    let dp = DeleteParams {
                        grace_period_seconds: Some(0),
                        preconditions: Some(kube::api::Preconditions {
                            uid: Some(uid.clone()),
                            resource_version: None,
                        }),
                        ..DeleteParams::default()
                    };
                    match self.pods.delete(&name, &dp).await {
                        Ok(_) => {}
                        Err(kube::Error::Api(s)) if s.is_not_found() || s.is_conflict() => {}
                        Err(e) => return Err(e.into()),
                    }
                    self.shared
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .log
                        .push(PodRestart {
                            node: id,
                            old_uid: uid,
                            stuck,
                            at: Instant::now(),
                        });
                    self.set_state(id, NodeState::Starting);
                }
                // The StrimziPodSet (or StatefulSet) controller recreates a missing pod from its
                // template, and the kubelet starts it.
                None => {
                    let pod = self.owner.template(id).await?;
                    self.pods.create(&PostParams::default(), &pod).await?;
                    self.pods
                        .patch_status(
                            &name,
                            &PatchParams::default(),
                            &Patch::Merge(json!({ "status": {
                                "phase": "Pending",
                                "conditions": [{ "type": "PodScheduled", "status": "True" },
                                               { "type": "Ready", "status": "False" }],
                                "containerStatuses": [{ "name": "kafka", "ready": false, "restartCount": 0,
                                    "image": "quay.io/strimzi/kafka:test", "imageID": "",
                                    "state": { "waiting": { "reason": "ContainerCreating" } } }],
                            }})),
                        )
                        .await?;
                    self.with_kafka(move |k| {
                        if !k.is_running(id) {
                            k.start_node(id)?;
                        }
                        Ok(())
                    })
                    .await?;
                    self.set_state(id, NodeState::Starting);
                }
                Some(_) if self.state(id) == NodeState::Starting => {
                    // The kubelet's readiness probe: the broker is RUNNING and unfenced.
                    let bootstrap = self.bootstrap.clone();
                    let serving = self
                        .with_kafka(move |k| {
                            if !k.is_running(id) {
                                k.start_node(id)?;
                                return Ok(false);
                            }
                            // A JVM still starting has no BrokerState MBean yet: not ready,
                            // as a failing readiness probe.
                            Ok(matches!(k.broker_state(id), Ok(BrokerState::Running)))
                        })
                        .await?
                        && tokio::task::spawn_blocking(move || unfenced_brokers(&bootstrap))
                            .await??
                            .contains(&id);
                    if serving {
                        self.pods
                            .patch_status(
                                &name,
                                &PatchParams::default(),
                                &Patch::Merge(json!({ "status": {
                                    "phase": "Running",
                                    "podIP": "127.0.0.1",
                                    "conditions": [{ "type": "PodScheduled", "status": "True" },
                                                   { "type": "Ready", "status": "True" }],
                                    "containerStatuses": [{ "name": "kafka", "ready": true, "restartCount": 0,
                                        "image": "quay.io/strimzi/kafka:test", "imageID": "",
                                        "started": true,
                                        "state": { "running": {} } }],
                                }})),
                            )
                            .await?;
                        self.set_state(id, NodeState::Ready);
                    }
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}
