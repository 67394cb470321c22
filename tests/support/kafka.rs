//! A real multi-node Apache Kafka (KRaft) cluster for integration tests, plus the helpers tests
//! need to drive it: node control and fault injection, topics with explicit replica assignments,
//! a background `acks=all` producer and a reader of real partition placement.
//!
//! Why a real cluster: kafkaops' safety checks (ISR, fencing, quorum, controlled shutdown) are only
//! worth something if they are exercised against what a broker really reports. The jars come from
//! Maven Central (`tests/env/pom.xml`, installed once by `tests/env/setup.sh` into
//! `~/.cache/kafkaops-testenv`), nodes run as plain JVMs on 127.0.0.1 with free ports.
//!
//! # Design
//! - **Synchronous.** `std::process` plus blocking polls ([`wait_for`]); Kafka clients are
//!   rdkafka's runtime-free `BaseProducer`/`AdminClient` (admin futures are driven with
//!   `futures::executor::block_on`, no tokio). Usable from `#[test]` and `#[tokio::test]`.
//! - **No orphan JVMs.** Every JVM is spawned from one dedicated, never-exiting thread with
//!   `prctl(PR_SET_PDEATHSIG, SIGKILL)` (the signal fires when the *spawning thread* exits, hence the
//!   dedicated thread), in its own process group, and [`KafkaCluster`]'s `Drop` SIGKILLs every
//!   node's process group and reaps it. So a failing, panicking or killed test (even
//!   `kill -9` of the test process) leaves no JVM behind.
//! - **A few clusters at a time on the machine.** [`KafkaCluster::start`] takes one of the
//!   cluster slots (`super::slots`: `KAFKAOPS_TEST_CLUSTERS`, default 2), a file lock shared by
//!   every test process (so the `cluster` and `kube` binaries can run side by side), held until
//!   the cluster is dropped; tests beyond that wait their turn, longest first (starting a second
//!   cluster on the same thread is an error, not a deadlock). The timing log (`super::timing`)
//!   records the waits.
//! - **Broker state.** Strimzi's `kafka-agent` is not published on Maven Central, so each node runs
//!   the Jolokia JVM agent (`org.jolokia:jolokia-agent-jvm`, javaagent) on its own port and
//!   [`KafkaCluster::broker_state`] reads the real `kafka.server:type=KafkaServer,name=BrokerState`
//!   gauge over HTTP; quorum state comes from the `kafka.server:type=raft-metrics` MBean.
//! - **Node ids.** Combined nodes get ids `1..=combined`, broker-only nodes continue from there,
//!   controller-only nodes get `101..`. So `ClusterSpec::split(3, 3)` has brokers 1, 2, 3 and
//!   controllers 101, 102, 103; `ClusterSpec::combined(3)` has nodes 1, 2, 3.
//! - **Fault injection.** [`KafkaCluster::break_node`] makes the next start fail for real (the node
//!   starts on an unformatted log dir and exits), [`KafkaCluster::set_slow_start`] delays the JVM
//!   behind `sh -c 'sleep N; exec java …'` (the process exists at once, Kafka comes up late).
//! - Errors returned from a [`wait_for`] closure are retried until the deadline (a killed broker
//!   makes metadata calls fail for a moment); wrap an error with [`fatal`] to stop at once.

#![allow(dead_code)] // Shared by several test binaries and an example; each uses a subset.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use rdkafka::ClientConfig;
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, ResourceSpecifier, TopicReplication};
use rdkafka::client::{ClientContext, DefaultClientContext};
use rdkafka::error::KafkaError;
use rdkafka::message::DeliveryResult;
use rdkafka::metadata::Metadata;
use rdkafka::producer::{BaseProducer, BaseRecord, Producer, ProducerContext};
use rdkafka::types::RDKafkaErrorCode;

use super::timing;

use super::slots::{SerialGuard, current_slot};

/// Default time [`KafkaCluster::start`] waits for the whole cluster to be ready.
pub const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(180);
/// How long [`KafkaCluster::stop_node`] waits for a graceful exit.
const STOP_TIMEOUT: Duration = Duration::from_secs(90);
const CONTROLLER_ID_BASE: i32 = 100;
const HEAP_MB_BROKER: u32 = 384;
const HEAP_MB_CONTROLLER: u32 = 192;

// ---------------------------------------------------------------------------------------------
// Installation
// ---------------------------------------------------------------------------------------------

/// A Kafka release the harness runs: the pom's `kafka.version` (what every test runs unless it
/// asks otherwise) or `kafka.previous.version` (an older release with a lower latest
/// `metadata.version`, for upgrade tests). Each is installed and cached on first use by
/// `tests/env/setup.sh [previous]`, so tests that never ask for the previous one never pay for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KafkaVersion {
    #[default]
    Current,
    Previous,
}

impl KafkaVersion {
    fn setup_arg(self) -> &'static str {
        match self {
            KafkaVersion::Current => "current",
            KafkaVersion::Previous => "previous",
        }
    }

    fn index(self) -> usize {
        match self {
            KafkaVersion::Current => 0,
            KafkaVersion::Previous => 1,
        }
    }

    /// The release number (`4.4.0`), as `tests/env/pom.xml` names it (no install needed).
    pub fn number(self) -> Result<String> {
        let pom = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/env/pom.xml");
        let text = fs::read_to_string(&pom)
            .with_context(|| format!("failed to read {}", pom.display()))?;
        let tag = match self {
            KafkaVersion::Current => "kafka.version",
            KafkaVersion::Previous => "kafka.previous.version",
        };
        text.split_once(&format!("<{tag}>"))
            .and_then(|(_, rest)| rest.split_once(&format!("</{tag}>")))
            .map(|(v, _)| v.trim().to_string())
            .ok_or_else(|| anyhow!("{} has no <{tag}>", pom.display()))
    }
}

/// Where `tests/env/setup.sh` put one Kafka release.
#[derive(Clone, Debug)]
pub struct KafkaInstall {
    /// Which release this is.
    pub version: KafkaVersion,
    /// Its number (`4.4.0`).
    pub number: String,
    /// `~/.cache/kafkaops-testenv/kafka-<version>-<stamp>`
    pub dir: PathBuf,
    /// `<dir>/libs`: the broker's runtime classpath.
    pub libs: PathBuf,
    /// The Jolokia javaagent jar.
    pub jolokia_agent: PathBuf,
    /// log4j2 configuration for the nodes (everything to stdout = the node's log file).
    pub log4j2_config: PathBuf,
    /// Class-data-sharing archive made by setup.sh from a started node (best effort).
    pub cds_archive: Option<PathBuf>,
}

/// Runs `tests/env/setup.sh` once per process (the script itself holds a file lock and returns at
/// once when the install is complete) and returns the directory with Kafka's jars.
pub fn ensure_kafka_installed() -> Result<PathBuf> {
    Ok(kafka_install()?.libs.clone())
}

/// Like [`ensure_kafka_installed`], with every path of the install.
pub fn kafka_install() -> Result<&'static KafkaInstall> {
    kafka_install_of(KafkaVersion::Current)
}

/// The install of `version`, set up on first use (once per process).
pub fn kafka_install_of(version: KafkaVersion) -> Result<&'static KafkaInstall> {
    type Slot = OnceLock<std::result::Result<KafkaInstall, String>>;
    static INSTALLS: [Slot; 2] = [OnceLock::new(), OnceLock::new()];
    INSTALLS[version.index()]
        .get_or_init(|| run_setup(version).map_err(|e| format!("{e:#}")))
        .as_ref()
        .map_err(|e| anyhow!("{e}"))
}

fn run_setup(version: KafkaVersion) -> Result<KafkaInstall> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/env/setup.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(version.setup_arg())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("failed to run {}", script.display()))?;
    if !out.status.success() {
        bail!(
            "{} {} failed with {}",
            script.display(),
            version.setup_arg(),
            out.status
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let dir = PathBuf::from(
        stdout
            .lines()
            .last()
            .context("setup.sh printed no install directory")?
            .trim(),
    );
    let install = KafkaInstall {
        version,
        number: version.number()?,
        libs: dir.join("libs"),
        jolokia_agent: dir.join("agents/jolokia-agent.jar"),
        log4j2_config: dir.join("config/log4j2.yaml"),
        cds_archive: Some(dir.join("cds/kafka.jsa")).filter(|p| p.exists()),
        dir,
    };
    for p in [
        &install.libs,
        &install.jolokia_agent,
        &install.log4j2_config,
    ] {
        if !p.exists() {
            bail!("Kafka install is incomplete: {} is missing", p.display());
        }
    }
    Ok(install)
}

// ---------------------------------------------------------------------------------------------
// Cluster spec and node description
// ---------------------------------------------------------------------------------------------

/// What cluster to start. Node ids: see the module docs.
#[derive(Clone, Debug)]
pub struct ClusterSpec {
    /// Controller-only nodes (`process.roles=controller`).
    pub controllers: usize,
    /// Broker-only nodes (`process.roles=broker`).
    pub brokers: usize,
    /// Combined nodes (`process.roles=broker,controller`).
    pub combined: usize,
    /// `broker.rack` per broker-role node in id order; empty = no racks.
    pub racks: Vec<String>,
    /// Extra `server.properties` lines for broker-role nodes (override the harness defaults).
    pub broker_props: Vec<(String, String)>,
    /// Extra `server.properties` lines for controller-role nodes (controller-only and combined;
    /// applied after `broker_props`).
    pub controller_props: Vec<(String, String)>,
    /// How long [`KafkaCluster::start`] waits until the cluster is ready.
    pub start_timeout: Duration,
    /// An extra SASL_SSL listener on every node (see [`SaslSsl`]).
    pub sasl_ssl: Option<SaslSsl>,
    /// The release every node runs (and whose storage tool formats the cluster, so it also
    /// decides the initial `metadata.version`: that release's latest).
    pub version: KafkaVersion,
    /// Nodes that run another release than [`ClusterSpec::version`] from the first start.
    pub node_versions: BTreeMap<i32, KafkaVersion>,
    /// Static voters or a dynamic (KIP-853) quorum.
    pub quorum: QuorumMode,
}

/// How the controller quorum is configured and formatted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QuorumMode {
    /// `controller.quorum.voters=id@host:port,…` on every node; `kraft.version` 0. Membership
    /// cannot change.
    #[default]
    Static,
    /// KIP-853: `controller.quorum.bootstrap.servers=host:port,…` on every node, controllers
    /// advertise their CONTROLLER listener and are formatted with `--standalone` (one
    /// controller) or `--initial-controllers id@host:port:directory-id,…` (several; the same
    /// value on each); `kraft.version` 1. [`KafkaCluster::add_controller`] adds observers.
    Dynamic,
}

/// A SASL_SSL listener with SCRAM-SHA-512 next to the PLAINTEXT ones, as most production clusters
/// run: `SECURE` on broker-role nodes and `CONTROLLER_SECURE` (a second entry of
/// `controller.listener.names`) on controller-role nodes, with server certificates from a CA the
/// harness generates ([`super::tls`], PEM keystore and truststore, no `keytool`). The users are
/// created at format time (`kafka-storage format --add-scram`), so they exist before the first
/// broker starts. The harness itself keeps using the PLAINTEXT listeners (its oracles must not
/// depend on the code under test getting TLS right); nodes talk to each other in PLAINTEXT.
#[derive(Clone, Debug)]
pub struct SaslSsl {
    /// `(user, password)` pairs with SCRAM-SHA-512 credentials.
    pub users: Vec<(String, String)>,
}

impl ClusterSpec {
    /// `n` combined broker+controller nodes, ids `1..=n`.
    pub fn combined(n: usize) -> Self {
        Self {
            controllers: 0,
            brokers: 0,
            combined: n,
            racks: Vec::new(),
            broker_props: Vec::new(),
            controller_props: Vec::new(),
            start_timeout: DEFAULT_START_TIMEOUT,
            sasl_ssl: None,
            version: KafkaVersion::Current,
            node_versions: BTreeMap::new(),
            quorum: QuorumMode::Static,
        }
    }

    /// Separate controllers (ids `101..`) and brokers (ids `1..=brokers`).
    pub fn split(controllers: usize, brokers: usize) -> Self {
        Self {
            controllers,
            brokers,
            ..Self::combined(0)
        }
    }

    /// `broker.rack` per broker-role node, in broker id order.
    pub fn with_racks<S: Into<String>>(mut self, racks: impl IntoIterator<Item = S>) -> Self {
        self.racks = racks.into_iter().map(Into::into).collect();
        self
    }

    /// An extra `server.properties` entry for every broker-role node.
    pub fn with_broker_prop(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.broker_props.push((key.into(), value.into()));
        self
    }

    /// An extra `server.properties` entry for every controller-role node.
    pub fn with_controller_prop(
        mut self,
        key: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        self.controller_props.push((key.into(), value.into()));
        self
    }

    /// Adds a SASL_SSL (SCRAM-SHA-512) listener to every node, with these users.
    pub fn with_sasl_ssl<U: Into<String>, P: Into<String>>(
        mut self,
        users: impl IntoIterator<Item = (U, P)>,
    ) -> Self {
        self.sasl_ssl = Some(SaslSsl {
            users: users
                .into_iter()
                .map(|(u, p)| (u.into(), p.into()))
                .collect(),
        });
        self
    }

    pub fn with_start_timeout(mut self, timeout: Duration) -> Self {
        self.start_timeout = timeout;
        self
    }

    /// Every node runs `version` (the storage tool of that release formats the cluster).
    pub fn with_version(mut self, version: KafkaVersion) -> Self {
        self.version = version;
        self
    }

    /// Node `id` runs `version` from its first start (the others [`ClusterSpec::version`]).
    pub fn with_node_version(mut self, id: i32, version: KafkaVersion) -> Self {
        self.node_versions.insert(id, version);
        self
    }

    /// A dynamic (KIP-853) quorum instead of static voters; see [`QuorumMode::Dynamic`].
    pub fn with_dynamic_quorum(mut self) -> Self {
        self.quorum = QuorumMode::Dynamic;
        self
    }

    fn broker_count(&self) -> usize {
        self.combined + self.brokers
    }

    /// `3 combined`, `1 controllers + 3 brokers`, for the timing log.
    fn summary(&self) -> String {
        let mut s = if self.combined > 0 {
            format!("{} combined", self.combined)
        } else {
            format!(
                "{} controllers + {} brokers",
                self.controllers, self.brokers
            )
        };
        if self.sasl_ssl.is_some() {
            s.push_str(", SASL_SSL");
        }
        s
    }

    fn validate(&self) -> Result<()> {
        if self.combined + self.controllers == 0 {
            bail!("a cluster needs at least one controller-role node");
        }
        if self.broker_count() == 0 {
            bail!("a cluster needs at least one broker-role node");
        }
        if self.combined > 0 && self.controllers > 0 {
            bail!("mixing combined and controller-only nodes is not supported by the harness");
        }
        let ids = 1..=i32::try_from(self.broker_count())?;
        let controllers =
            CONTROLLER_ID_BASE + 1..=CONTROLLER_ID_BASE + i32::try_from(self.controllers)?;
        if let Some(id) = self
            .node_versions
            .keys()
            .find(|id| !ids.contains(id) && !controllers.contains(id))
        {
            bail!("with_node_version: there is no node {id} in this layout");
        }
        if !self.racks.is_empty() && self.racks.len() != self.broker_count() {
            bail!(
                "{} racks given for {} broker-role nodes",
                self.racks.len(),
                self.broker_count()
            );
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeRole {
    Controller,
    Broker,
    Combined,
}

impl NodeRole {
    pub fn is_broker(self) -> bool {
        matches!(self, NodeRole::Broker | NodeRole::Combined)
    }
    pub fn is_controller(self) -> bool {
        matches!(self, NodeRole::Controller | NodeRole::Combined)
    }
    fn process_roles(self) -> &'static str {
        match self {
            NodeRole::Controller => "controller",
            NodeRole::Broker => "broker",
            NodeRole::Combined => "broker,controller",
        }
    }
}

/// One node of a [`KafkaCluster`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct NodeInfo {
    pub id: i32,
    pub role: NodeRole,
    /// PLAINTEXT listener (broker-role nodes).
    pub broker_port: Option<u16>,
    /// CONTROLLER listener (controller-role nodes).
    pub controller_port: Option<u16>,
    /// SASL_SSL broker listener `SECURE` (broker-role nodes of a [`SaslSsl`] cluster).
    pub secure_port: Option<u16>,
    /// SASL_SSL controller listener `CONTROLLER_SECURE` (controller-role nodes of a [`SaslSsl`]
    /// cluster).
    pub controller_secure_port: Option<u16>,
    /// Jolokia agent HTTP port (`http://127.0.0.1:<port>/jolokia/`).
    pub agent_port: u16,
    pub rack: Option<String>,
    pub work_dir: PathBuf,
    /// The release the node runs (or runs at its next start, see
    /// [`KafkaCluster::set_node_version`]).
    pub version: KafkaVersion,
}

impl NodeInfo {
    /// `127.0.0.1:<broker_port>` for broker-role nodes.
    pub fn broker_address(&self) -> Option<String> {
        self.broker_port.map(|p| format!("127.0.0.1:{p}"))
    }
    /// `127.0.0.1:<secure_port>` (SASL_SSL) for broker-role nodes of a secured cluster.
    pub fn secure_address(&self) -> Option<String> {
        self.secure_port.map(|p| format!("127.0.0.1:{p}"))
    }
    /// `127.0.0.1:<controller_secure_port>` (SASL_SSL) for controller-role nodes of a secured
    /// cluster.
    pub fn controller_secure_address(&self) -> Option<String> {
        self.controller_secure_port
            .map(|p| format!("127.0.0.1:{p}"))
    }
    /// `127.0.0.1:<controller_port>` for controller-role nodes.
    pub fn controller_address(&self) -> Option<String> {
        self.controller_port.map(|p| format!("127.0.0.1:{p}"))
    }
    /// The HTTP URL that serves this node's BrokerState gauge.
    pub fn broker_state_url(&self) -> String {
        format!(
            "http://127.0.0.1:{}/jolokia/read/{BROKER_STATE_MBEAN}/Value",
            self.agent_port
        )
    }
}

/// Kafka's `BrokerState`: the product's own type, so the harness and the adapter cannot disagree
/// on what a gauge value means.
pub use kafkaops::kafka::observation::BrokerState;

/// A node's view of the KRaft quorum, from the `raft-metrics` MBean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaftState {
    /// `leader`, `follower`, `candidate`, `prospective`, `unattached`, `voted`, `resigned`, `observer`.
    pub state: String,
    pub leader: Option<i32>,
    pub epoch: i64,
    /// `number-of-voters`: the voter set this node knows.
    pub voters: Option<u32>,
    /// `uncommitted-voter-change`: 1 while a voter change this leader appended is not committed.
    pub uncommitted_voter_change: bool,
}

// ---------------------------------------------------------------------------------------------
// Process spawning (PDEATHSIG from a dedicated thread) and signals
// ---------------------------------------------------------------------------------------------

type SpawnJob = (Command, mpsc::Sender<io::Result<Child>>);

/// Spawns `cmd` from the dedicated spawner thread, in its own process group, with
/// `PR_SET_PDEATHSIG=SIGKILL` so the child dies with this process.
pub fn spawn_tied(mut cmd: Command) -> io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<SpawnJob>>> = OnceLock::new();
    let parent = std::process::id();
    cmd.process_group(0);
    // SAFETY: the closure runs in the forked child before exec and only calls the
    // async-signal-safe `prctl` and `getppid`; it allocates nothing.
    #[allow(unsafe_code)]
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died between fork and prctl: then nobody would kill us.
            if libc::getppid() as u32 != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
    let sender = SPAWNER
        .get_or_init(|| {
            let (tx, rx) = mpsc::channel::<SpawnJob>();
            thread::Builder::new()
                .name("kafka-test-spawner".into())
                .spawn(move || {
                    // Lives as long as the process: the sender is in a static and never dropped.
                    for (mut cmd, reply) in rx {
                        let _ = reply.send(cmd.spawn());
                    }
                })
                .expect("failed to start the spawner thread");
            Mutex::new(tx)
        })
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    let (tx, rx) = mpsc::channel();
    sender
        .send((cmd, tx))
        .map_err(|_| io::Error::other("spawner thread is gone"))?;
    rx.recv()
        .map_err(|_| io::Error::other("spawner thread is gone"))?
}

fn signal_group(child: &Child, signal: libc::c_int) {
    let Ok(pgid) = libc::pid_t::try_from(child.id()) else {
        return;
    };
    // SAFETY: killpg only sends a signal; `pgid` is the process group we created for this
    // child (`process_group(0)`), which still exists as long as the child is not reaped.
    #[allow(unsafe_code)]
    unsafe {
        libc::killpg(pgid, signal);
    }
}

/// Whether a process id is alive (zombies count as gone). For tests that check the harness leaves
/// no processes behind.
pub fn pid_alive(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // Field 3 is the state; `Z` (zombie) or `X` (dead) means it is gone.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

const WORK_DIR_PREFIX: &str = "kafkaops-kafka-";
/// `<pid> <start time>` of the process that owns a cluster work dir.
const OWNER_FILE: &str = "owner";
/// Marks a work dir kept on purpose (failed start, panic, `KAFKAOPS_TESTENV_KEEP`).
const KEPT_FILE: &str = "KEPT";

pub fn owner_stamp(pid: u32) -> String {
    format!("{pid} {}", process_start_time(pid).unwrap_or_default())
}

/// Field 22 of `/proc/<pid>/stat`, which tells a reused pid from the original process.
fn process_start_time(pid: u32) -> Option<String> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields = stat.rsplit_once(')')?.1;
    fields.split_whitespace().nth(19).map(str::to_string)
}

fn keep_dir(dir: tempfile::TempDir) -> PathBuf {
    let _ = fs::write(dir.path().join(KEPT_FILE), "");
    dir.keep()
}

/// Removes work dirs whose owning process died without cleaning up (SIGKILL, SIGTERM, abort).
/// Dirs kept on purpose and dirs of live processes are left alone.
pub fn prune_stale_work_dirs() {
    let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let is_ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(WORK_DIR_PREFIX));
        if !is_ours || path.join(KEPT_FILE).exists() {
            continue;
        }
        let Ok(owner) = fs::read_to_string(path.join(OWNER_FILE)) else {
            continue;
        };
        let stale = owner
            .split_once(' ')
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
            .is_some_and(|pid| owner_stamp(pid) != owner);
        if stale {
            let _ = fs::remove_dir_all(&path);
        }
    }
}

fn free_ports(n: usize) -> Result<Vec<u16>> {
    let Some(slot) = current_slot() else {
        // Hold every listener until all are picked, so the ports are distinct.
        let listeners = (0..n)
            .map(|_| TcpListener::bind("127.0.0.1:0"))
            .collect::<io::Result<Vec<_>>>()
            .context("failed to pick free ports")?;
        return listeners
            .iter()
            .map(|l| Ok(l.local_addr()?.port()))
            .collect();
    };
    // The ports are picked here and bound by the JVMs later. A port the kernel may hand out
    // meanwhile (to a server binding port 0, such as the kube-apiserver or a port-forward of a
    // test running beside, or as the source port of any connection) could be taken by then: so
    // they come from below the ephemeral range, in a block of their own per cluster slot (one
    // cluster starts in a slot at a time, machine-wide), starting at a varying place in it.
    let (low, block) = slot_port_block(slot);
    let start = usize::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_micros()),
    )
    .unwrap_or(0);
    let mut listeners = Vec::with_capacity(n);
    for k in 0..block {
        if listeners.len() == n {
            break;
        }
        let port = low + u16::try_from((start + k) % block).unwrap_or(0);
        if let Ok(l) = TcpListener::bind(("127.0.0.1", port)) {
            listeners.push(l);
        }
    }
    if listeners.len() < n {
        bail!(
            "failed to pick {n} free ports in {low}..{}",
            low as usize + block
        );
    }
    listeners
        .iter()
        .map(|l| Ok(l.local_addr()?.port()))
        .collect()
}

/// The first port and the size of cluster slot `slot`'s block: the ports from 15000 up to the
/// kernel's ephemeral range (`ip_local_port_range`, 32768 by default), split in 8 blocks.
fn slot_port_block(slot: usize) -> (u16, usize) {
    const FIRST: usize = 15_000;
    const BLOCKS: usize = 8;
    let ephemeral_low = fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<usize>().ok())
        .filter(|low| *low > FIRST + BLOCKS * 100)
        .unwrap_or(32_768);
    let block = (ephemeral_low - FIRST) / BLOCKS;
    let low = FIRST + (slot % BLOCKS) * block;
    (u16::try_from(low).unwrap_or(15_000), block)
}

// ---------------------------------------------------------------------------------------------
// The cluster
// ---------------------------------------------------------------------------------------------

struct Node {
    info: NodeInfo,
    config: PathBuf,
    log: PathBuf,
    child: Option<Child>,
    broken: bool,
    slow_start: Option<Duration>,
}

/// A running KRaft cluster. Dropping it stops every process it started.
pub struct KafkaCluster {
    cluster_id: String,
    nodes: BTreeMap<i32, Node>,
    /// The install of the cluster's release ([`ClusterSpec::version`]): its storage tool formats
    /// every node.
    install: &'static KafkaInstall,
    /// What the cluster was started from (nodes added later are configured alike).
    spec: ClusterSpec,
    dir: Option<tempfile::TempDir>,
    start_duration: Duration,
    /// When [`KafkaCluster::start`] began (after the cluster lock), for the timing log.
    began: Instant,
    /// `--add-scram` arguments for `StorageTool format` (secured clusters).
    scram_users: Vec<(String, String)>,
    // Dropped after `Drop::drop` has stopped the processes.
    serial: Option<SerialGuard>,
}

impl fmt::Debug for KafkaCluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KafkaCluster")
            .field("cluster_id", &self.cluster_id)
            .field("nodes", &self.nodes())
            .finish_non_exhaustive()
    }
}

impl KafkaCluster {
    /// Installs Kafka if needed, formats storage, starts every node and waits until every broker
    /// is unfenced (RUNNING and in the metadata) and the quorum has a leader. Retries once with
    /// new ports when a port was taken meanwhile.
    pub fn start(spec: ClusterSpec) -> Result<Self> {
        spec.validate()?;
        let install = kafka_install_of(spec.version)?;
        for v in spec.node_versions.values() {
            kafka_install_of(*v)?;
        }
        let asked = Instant::now();
        let serial = SerialGuard::acquire()?;
        if asked.elapsed() >= Duration::from_secs(1) {
            timing::record("cluster_lock", asked.elapsed(), "waited for a cluster slot");
        }
        let began = Instant::now();
        let mut cluster = match Self::launch(&spec, install) {
            Ok(c) => c,
            Err((e, true)) => {
                eprintln!(
                    "kafka test cluster: port clash or a broker that could not register ({e:#}); \
                     retrying with new ports"
                );
                Self::launch(&spec, install).map_err(|(e, _)| e)?
            }
            Err((e, false)) => return Err(e),
        };
        cluster.start_duration = began.elapsed();
        cluster.began = began;
        cluster.serial = Some(serial);
        timing::record("cluster_start", cluster.start_duration, &spec.summary());
        Ok(cluster)
    }

    /// On error: the error and whether it is worth one more start (a port clash, a broker that
    /// could not register).
    fn launch(
        spec: &ClusterSpec,
        install: &'static KafkaInstall,
    ) -> std::result::Result<Self, (anyhow::Error, bool)> {
        prune_stale_work_dirs();
        let dir = tempfile::Builder::new()
            .prefix(WORK_DIR_PREFIX)
            .tempdir()
            .context("failed to create the cluster work dir")
            .and_then(|d| {
                fs::write(d.path().join(OWNER_FILE), owner_stamp(std::process::id()))?;
                Ok(d)
            })
            .map_err(|e| (e, false))?;
        let mut cluster = KafkaCluster {
            cluster_id: random_cluster_id(),
            nodes: BTreeMap::new(),
            install,
            spec: spec.clone(),
            dir: Some(dir),
            start_duration: Duration::ZERO,
            began: Instant::now(),
            scram_users: spec
                .sasl_ssl
                .as_ref()
                .map(|s| s.users.clone())
                .unwrap_or_default(),
            serial: None,
        };
        let result = cluster.write_configs(spec).and_then(|()| {
            cluster.format_all()?;
            // With a dynamic quorum, a broker-only node that starts while the controllers still
            // elect their first leader can miss the voter set (seen twice in a row at load 30-45:
            // it followed leaders with `voters=[]`, never found the controller for its
            // registration and gave up after 60 s). An operator brings the quorum up first; so
            // does the harness: broker-only nodes start once a controller leads.
            let (first, later): (Vec<i32>, Vec<i32>) =
                cluster.nodes.keys().copied().partition(|id| {
                    spec.quorum != QuorumMode::Dynamic
                        || cluster.nodes[id].info.role.is_controller()
                });
            for id in &first {
                cluster.start_node(*id)?;
            }
            if !later.is_empty() {
                wait_for("a quorum leader", spec.start_timeout, || {
                    if let Some(id) = first.iter().find(|id| !cluster.is_running(**id)) {
                        return Err(fatal(format!("node {id} exited")));
                    }
                    cluster.quorum_leader()
                })?;
            }
            for id in later {
                cluster.start_node(id)?;
            }
            cluster.wait_until_ready(spec.start_timeout)
        });
        match result {
            Ok(()) => Ok(cluster),
            Err(e) => {
                // Another process answering on a node's Jolokia port (its agent could not bind
                // it; the message is at the start of the node's log) is a clash too.
                // A broker that gave up registering (Kafka waits 60 s,
                // `initial.broker.registration.timeout.ms`) after the quorum changed leader while
                // it started: seen with a dynamic quorum on a loaded 2-core host, its controller
                // channel stayed on the old leader. Kafka's own supervisor would restart it; the
                // harness starts the cluster once more.
                let clash = format!("{e:#}").contains("Jolokia answered with non-JSON")
                    || cluster.nodes.values().any(|n| {
                        let tail = tail_file(&n.log, 400);
                        tail.contains("Address already in use")
                            || tail.contains("BindException")
                            || tail.contains("unable to register with the controller quorum")
                    });
                let e = e.context(format!(
                    "failed to start the Kafka test cluster (work dir {})",
                    cluster.work_dir().display()
                ));
                cluster.shutdown();
                // Keep the logs of a failed start for the developer.
                if let Some(dir) = cluster.dir.take() {
                    eprintln!(
                        "kafka test cluster: logs kept in {}",
                        keep_dir(dir).display()
                    );
                }
                Err((e, clash))
            }
        }
    }

    fn write_configs(&mut self, spec: &ClusterSpec) -> Result<()> {
        let mut layout: Vec<(i32, NodeRole)> = Vec::new();
        let mut next = 1;
        for _ in 0..spec.combined {
            layout.push((next, NodeRole::Combined));
            next += 1;
        }
        for _ in 0..spec.brokers {
            layout.push((next, NodeRole::Broker));
            next += 1;
        }
        for i in 0..spec.controllers {
            layout.push((CONTROLLER_ID_BASE + 1 + i as i32, NodeRole::Controller));
        }
        let secure = spec.sasl_ssl.is_some();
        let per_listener = 1 + usize::from(secure);
        let port_count: usize = layout
            .iter()
            .map(|(_, r)| {
                1 + per_listener * (usize::from(r.is_broker()) + usize::from(r.is_controller()))
            })
            .sum();

        let mut ports = free_ports(port_count)?.into_iter();
        let mut racks = spec.racks.iter();
        let root = self.work_dir();
        let tls_dir = root.join("tls");
        if secure {
            write_tls_material(&tls_dir)?;
        }
        for (id, role) in layout {
            let work_dir = root.join(format!("node-{id}"));
            fs::create_dir_all(work_dir.join("data"))?;
            let info = NodeInfo {
                id,
                role,
                broker_port: role.is_broker().then(|| ports.next().expect("port")),
                controller_port: role.is_controller().then(|| ports.next().expect("port")),
                secure_port: (secure && role.is_broker()).then(|| ports.next().expect("port")),
                controller_secure_port: (secure && role.is_controller())
                    .then(|| ports.next().expect("port")),
                agent_port: ports.next().expect("port"),
                rack: if role.is_broker() {
                    racks.next().cloned()
                } else {
                    None
                },
                work_dir: work_dir.clone(),
                version: spec.node_versions.get(&id).copied().unwrap_or(spec.version),
            };
            self.nodes.insert(
                id,
                Node {
                    config: work_dir.join("server.properties"),
                    log: work_dir.join("node.log"),
                    info,
                    child: None,
                    broken: false,
                    slow_start: None,
                },
            );
        }
        let quorum = self.quorum_setting();
        let ids: Vec<i32> = self.nodes.keys().copied().collect();
        for id in ids {
            self.write_node_config(id, &quorum)?;
        }
        Ok(())
    }

    /// The quorum line every node's config gets: the voters, or (dynamic) the controllers to
    /// bootstrap from. Controllers added later ([`KafkaCluster::add_controller`]) are not in it.
    fn quorum_setting(&self) -> (&'static str, String) {
        let controllers = self
            .nodes
            .values()
            .filter_map(|n| n.info.controller_port.map(|p| (n.info.id, p)));
        match self.spec.quorum {
            QuorumMode::Static => (
                "controller.quorum.voters",
                controllers
                    .map(|(id, p)| format!("{id}@127.0.0.1:{p}"))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            QuorumMode::Dynamic => (
                "controller.quorum.bootstrap.servers",
                controllers
                    .map(|(_, p)| format!("127.0.0.1:{p}"))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
        }
    }

    fn write_node_config(&self, id: i32, quorum: &(&str, String)) -> Result<()> {
        let node = self.get(id)?;
        let mut text = server_properties(
            &node.info,
            quorum,
            self.spec.quorum,
            self.spec.broker_count(),
            &self.spec.broker_props,
            &self.spec.controller_props,
        );
        if self.spec.sasl_ssl.is_some() {
            text = secure_properties(&text, &node.info, &self.work_dir().join("tls"));
        }
        fs::write(&node.config, text)
            .with_context(|| format!("failed to write {}", node.config.display()))
    }

    fn format_all(&self) -> Result<()> {
        if self.spec.quorum == QuorumMode::Static {
            return self.format_static();
        }
        // Dynamic quorum: every controller gets the same `--initial-controllers` list, with a
        // directory id chosen here for each (the storage tool gives each node the one listed for
        // it); a single controller is formatted `--standalone` instead.
        let controllers: Vec<(i32, u16)> = self
            .nodes
            .values()
            .filter_map(|n| n.info.controller_port.map(|p| (n.info.id, p)))
            .collect();
        let initial_controllers = controllers
            .iter()
            .map(|(id, p)| format!("{id}@127.0.0.1:{p}:{}", random_kafka_uuid()))
            .collect::<Vec<_>>()
            .join(",");
        let mut running = Vec::new();
        for node in self.nodes.values() {
            let mut quorum_args: Vec<String> = Vec::new();
            if self.spec.quorum == QuorumMode::Dynamic && node.info.role.is_controller() {
                if controllers.len() == 1 {
                    quorum_args.push("--standalone".into());
                } else {
                    quorum_args.push("--initial-controllers".into());
                    quorum_args.push(initial_controllers.clone());
                }
            }
            running.push((node.info.id, self.spawn_format(node, &quorum_args)?));
        }
        let mut errors = Vec::new();
        for (id, child) in running {
            if let Err(e) = self.finish_format(id, child) {
                errors.push(format!("{e:#}"));
            }
        }
        if !errors.is_empty() {
            bail!("{}", errors.join("\n"));
        }
        Ok(())
    }

    /// A static quorum: `StorageTool format` (a JVM, ~0.5 s of CPU) for one node of each kind
    /// (controller-role, broker-only) only. What it writes for the others of that kind differs in
    /// two lines of `meta.properties` (node id, directory id); the rest (the bootstrap metadata:
    /// metadata version, feature levels, SCRAM users; a file whose name and place depend on the
    /// release) holds nothing of the node and is copied.
    fn format_static(&self) -> Result<()> {
        let kinds: Vec<Vec<&Node>> = [true, false]
            .into_iter()
            .map(|controller| {
                self.nodes
                    .values()
                    .filter(|n| n.info.role.is_controller() == controller)
                    .collect::<Vec<_>>()
            })
            .filter(|kind| !kind.is_empty())
            .collect();
        let mut running = Vec::new();
        for kind in &kinds {
            running.push((kind[0].info.id, self.spawn_format(kind[0], &[])?));
        }
        let mut errors = Vec::new();
        for (id, child) in running {
            if let Err(e) = self.finish_format(id, child) {
                errors.push(format!("{e:#}"));
            }
        }
        if !errors.is_empty() {
            bail!("{}", errors.join("\n"));
        }
        for kind in &kinds {
            let formatted = kind[0].info.work_dir.join("data");
            let meta = fs::read_to_string(formatted.join("meta.properties"))
                .context("the storage tool wrote no meta.properties")?;
            for node in &kind[1..] {
                let data = node.info.work_dir.join("data");
                copy_tree(&formatted, &data, Path::new("meta.properties")).with_context(|| {
                    format!(
                        "node {}: failed to copy the formatted storage",
                        node.info.id
                    )
                })?;
                let text = meta.lines().fold(String::new(), |mut out, line| {
                    let line = match line.split_once('=').map(|(k, _)| k) {
                        Some("node.id") => format!("node.id={}", node.info.id),
                        Some("directory.id") => format!("directory.id={}", random_kafka_uuid()),
                        _ => line.to_string(),
                    };
                    let _ = writeln!(out, "{line}");
                    out
                });
                fs::write(data.join("meta.properties"), text).with_context(|| {
                    format!("node {}: failed to write meta.properties", node.info.id)
                })?;
            }
        }
        Ok(())
    }

    /// Starts `StorageTool format` for one node with the cluster's release.
    fn spawn_format(&self, node: &Node, quorum_args: &[String]) -> Result<Child> {
        let out = node.info.work_dir.join("format.log");
        let mut cmd = self.java(self.install, HEAP_MB_CONTROLLER);
        cmd.args([
            "kafka.tools.StorageTool",
            "format",
            "-t",
            &self.cluster_id,
            "-c",
        ])
        .arg(&node.config)
        .args(quorum_args);
        for (user, password) in &self.scram_users {
            cmd.arg("--add-scram")
                .arg(format!("SCRAM-SHA-512=[name={user},password={password}]"));
        }
        cmd.stdin(Stdio::null())
            .stdout(File::create(&out)?)
            .stderr(File::create(node.info.work_dir.join("format.err"))?);
        Ok(spawn_tied(cmd)?)
    }

    fn finish_format(&self, id: i32, mut child: Child) -> Result<()> {
        let status = child.wait()?;
        if status.success() {
            return Ok(());
        }
        let dir = self.node_work_dir(id);
        bail!(
            "node {id}: storage format failed ({status}):\n{}{}",
            tail_file(&dir.join("format.log"), 20),
            tail_file(&dir.join("format.err"), 20)
        )
    }

    /// A `java` command line for a tool or node of `install`'s release.
    fn java(&self, install: &KafkaInstall, heap_mb: u32) -> Command {
        let java = std::env::var_os("JAVA_HOME")
            .map(|h| PathBuf::from(h).join("bin/java"))
            .filter(|p| p.exists())
            .unwrap_or_else(|| PathBuf::from("java"));
        let mut cmd = Command::new(java);
        cmd.args(jvm_options(heap_mb));
        if let Some(archive) = &install.cds_archive {
            // Xshare:auto (the default) falls back to normal class loading if it does not match.
            cmd.arg(format!("-XX:SharedArchiveFile={}", archive.display()));
        }
        cmd.arg(format!(
            "-Dlog4j2.configurationFile={}",
            install.log4j2_config.display()
        ))
        .arg("-cp")
        .arg(format!("{}/*", install.libs.display()));
        cmd
    }

    /// How long [`KafkaCluster::start`] took (format, spawn, wait until ready).
    pub fn start_duration(&self) -> Duration {
        self.start_duration
    }

    pub fn cluster_id(&self) -> &str {
        &self.cluster_id
    }

    /// The cluster's work dir (one `node-<id>` dir per node).
    pub fn work_dir(&self) -> PathBuf {
        self.dir
            .as_ref()
            .map(|d| d.path().to_path_buf())
            .unwrap_or_default()
    }

    /// `host:port,…` of every broker-role node (running or not).
    pub fn bootstrap_servers(&self) -> String {
        self.nodes
            .values()
            .filter_map(|n| n.info.broker_address())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `host:port,…` of every broker-role node's SASL_SSL listener (secured clusters; empty
    /// otherwise).
    pub fn secure_bootstrap_servers(&self) -> String {
        self.nodes
            .values()
            .filter_map(|n| n.info.secure_address())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `host:port,…` of every controller-role node's SASL_SSL controller listener (secured
    /// clusters; empty otherwise).
    pub fn secure_controller_bootstrap(&self) -> String {
        self.nodes
            .values()
            .filter_map(|n| n.info.controller_secure_address())
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The PEM file of the CA that signed the nodes' certificates (secured clusters).
    pub fn ca_pem_path(&self) -> PathBuf {
        self.work_dir().join("tls").join("ca.pem")
    }

    /// `host:port,…` of every controller-role node's CONTROLLER listener (`bootstrap.controllers`).
    pub fn controller_bootstrap(&self) -> String {
        self.nodes
            .values()
            .filter_map(|n| n.info.controller_address())
            .collect::<Vec<_>>()
            .join(",")
    }

    pub fn nodes(&self) -> Vec<NodeInfo> {
        self.nodes.values().map(|n| n.info.clone()).collect()
    }

    pub fn node(&self, id: i32) -> Result<&NodeInfo> {
        Ok(&self.get(id)?.info)
    }

    pub fn broker_ids(&self) -> Vec<i32> {
        self.ids_where(NodeRole::is_broker)
    }

    pub fn controller_ids(&self) -> Vec<i32> {
        self.ids_where(NodeRole::is_controller)
    }

    fn ids_where(&self, f: impl Fn(NodeRole) -> bool) -> Vec<i32> {
        self.nodes
            .values()
            .filter(|n| f(n.info.role))
            .map(|n| n.info.id)
            .collect()
    }

    fn get(&self, id: i32) -> Result<&Node> {
        self.nodes
            .get(&id)
            .ok_or_else(|| anyhow!("no node {id} in this cluster"))
    }

    fn get_mut(&mut self, id: i32) -> Result<&mut Node> {
        self.nodes
            .get_mut(&id)
            .ok_or_else(|| anyhow!("no node {id} in this cluster"))
    }

    /// The OS process id of a running node.
    pub fn pid(&self, id: i32) -> Option<u32> {
        self.nodes
            .get(&id)
            .and_then(|n| n.child.as_ref())
            .map(Child::id)
    }

    /// Whether the node's process is alive (it may still be starting, or failing).
    pub fn is_running(&mut self, id: i32) -> bool {
        let Some(node) = self.nodes.get_mut(&id) else {
            return false;
        };
        match node.child.as_mut().map(Child::try_wait) {
            Some(Ok(None)) => true,
            Some(_) => {
                node.child = None;
                false
            }
            None => false,
        }
    }

    /// Spawns the node's JVM (with the slow-start delay or broken config if set) and returns.
    pub fn start_node(&mut self, id: i32) -> Result<()> {
        if self.is_running(id) {
            bail!("node {id} is already running");
        }
        let node = self.get(id)?;
        let heap = if node.info.role.is_broker() {
            HEAP_MB_BROKER
        } else {
            HEAP_MB_CONTROLLER
        };
        let install = kafka_install_of(node.info.version)?;
        let mut java = self.java(install, heap);
        java.arg(format!(
            "-javaagent:{}=host=127.0.0.1,port={},discoveryEnabled=false",
            install.jolokia_agent.display(),
            node.info.agent_port
        ))
        .arg(format!(
            "-Dkafka.logs.dir={}",
            node.info.work_dir.join("logs").display()
        ))
        .arg("kafka.Kafka")
        .arg(&node.config);
        if node.broken {
            // Start on an empty, unformatted log dir: Kafka refuses to start and exits.
            let empty = node.info.work_dir.join("broken-unformatted");
            fs::create_dir_all(&empty)?;
            java.arg("--override")
                .arg(format!("log.dirs={}", empty.display()));
        }
        let mut cmd = match node.slow_start {
            Some(delay) => {
                let mut sh = Command::new("sh");
                sh.arg("-c")
                    .arg("sleep \"$0\"; exec \"$@\"")
                    .arg(format!("{:.3}", delay.as_secs_f64()))
                    .arg(java.get_program())
                    .args(java.get_args());
                sh
            }
            None => java,
        };
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&node.log)
            .with_context(|| format!("failed to open {}", node.log.display()))?;
        cmd.current_dir(&node.info.work_dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        let child = spawn_tied(cmd).with_context(|| format!("failed to spawn node {id}"))?;
        self.get_mut(id)?.child = Some(child);
        Ok(())
    }

    /// Graceful stop: SIGTERM (controlled shutdown for brokers), then wait for the exit.
    pub fn stop_node(&mut self, id: i32) -> Result<()> {
        let node = self.get_mut(id)?;
        let Some(mut child) = node.child.take() else {
            return Ok(());
        };
        signal_group(&child, libc::SIGTERM);
        let deadline = Instant::now() + STOP_TIMEOUT;
        loop {
            if child.try_wait()?.is_some() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                signal_group(&child, libc::SIGKILL);
                let _ = child.wait();
                bail!(
                    "node {id} did not stop within {STOP_TIMEOUT:?} after SIGTERM; killed it\n{}",
                    self.log_tail(id, 30)
                );
            }
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGTERM to the node's process group without waiting (what `kill -TERM` or
    /// `kubectl delete pod --wait=false` does): the node shuts down in the background;
    /// [`KafkaCluster::is_running`] tells when it has exited.
    pub fn signal_stop(&mut self, id: i32) -> Result<()> {
        let node = self.get_mut(id)?;
        if let Some(child) = node.child.as_ref() {
            signal_group(child, libc::SIGTERM);
        }
        Ok(())
    }

    /// `kill -9` the node and reap it.
    pub fn kill_node(&mut self, id: i32) -> Result<()> {
        let node = self.get_mut(id)?;
        if let Some(mut child) = node.child.take() {
            signal_group(&child, libc::SIGKILL);
            child.wait()?;
        }
        Ok(())
    }

    /// Graceful stop, then start.
    pub fn restart_node(&mut self, id: i32) -> Result<()> {
        self.stop_node(id)?;
        self.start_node(id)
    }

    /// From the next start on, the node fails to start (it "never comes back").
    pub fn break_node(&mut self, id: i32) {
        if let Some(n) = self.nodes.get_mut(&id) {
            n.broken = true;
        }
    }

    /// Undoes [`KafkaCluster::break_node`] for the next start.
    pub fn repair_node(&mut self, id: i32) {
        if let Some(n) = self.nodes.get_mut(&id) {
            n.broken = false;
        }
    }

    /// From the next start on, the JVM starts only after `delay` (zero = no delay).
    pub fn set_slow_start(&mut self, id: i32, delay: Duration) {
        if let Some(n) = self.nodes.get_mut(&id) {
            n.slow_start = (!delay.is_zero()).then_some(delay);
        }
    }

    /// The real BrokerState gauge of a broker-role node, read through its Jolokia agent.
    /// A node whose process is not running reports [`BrokerState::NotRunning`], as does a JVM
    /// whose agent does not accept connections yet (still launching).
    pub fn broker_state(&mut self, id: i32) -> Result<BrokerState> {
        let info = self.node(id)?.clone();
        if !info.role.is_broker() {
            bail!("node {id} is controller-only: it has no BrokerState gauge");
        }
        if !self.is_running(id) {
            return Ok(BrokerState::NotRunning);
        }
        match jolokia_read(info.agent_port, &format!("{BROKER_STATE_MBEAN}/Value")) {
            Ok(value) => value
                .as_f64()
                .map(|v| BrokerState::from_code(v as i64))
                .ok_or_else(|| anyhow!("node {id}: BrokerState is not a number: {value}")),
            Err(e) if is_connection_refused(&e) => Ok(BrokerState::NotRunning),
            Err(e) => Err(e.context(format!("node {id}: failed to read BrokerState"))),
        }
    }

    /// The node's view of the KRaft quorum (controllers are voters, brokers observers).
    pub fn raft_state(&mut self, id: i32) -> Result<RaftState> {
        let port = self.node(id)?.agent_port;
        if !self.is_running(id) {
            bail!("node {id} is not running");
        }
        let v = jolokia_read(port, "kafka.server:type=raft-metrics")
            .with_context(|| format!("node {id}: failed to read raft-metrics"))?;
        let state = v
            .get("current-state")
            .and_then(|s| s.as_str())
            .unwrap_or("unknown")
            .to_string();
        let leader = v
            .get("current-leader")
            .and_then(serde_json::Value::as_f64)
            .map(|l| l as i32)
            .filter(|l| *l >= 0);
        let epoch = v
            .get("current-epoch")
            .and_then(serde_json::Value::as_f64)
            .map_or(-1, |e| e as i64);
        let voters = v
            .get("number-of-voters")
            .and_then(serde_json::Value::as_f64)
            .map(|n| n as u32);
        let uncommitted_voter_change = v
            .get("uncommitted-voter-change")
            .and_then(serde_json::Value::as_f64)
            .is_some_and(|n| n > 0.0);
        Ok(RaftState {
            state,
            leader,
            epoch,
            voters,
            uncommitted_voter_change,
        })
    }

    /// The controller that reports itself as quorum leader, if any.
    pub fn quorum_leader(&mut self) -> Result<Option<i32>> {
        for id in self.controller_ids() {
            if !self.is_running(id) {
                continue;
            }
            if let Ok(rs) = self.raft_state(id)
                && rs.state == "leader"
            {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// Waits until the broker reports RUNNING and the cluster metadata lists it (KRaft metadata
    /// lists unfenced brokers only).
    pub fn wait_until_unfenced(&mut self, id: i32, deadline: Duration) -> Result<()> {
        if !self.node(id)?.role.is_broker() {
            bail!("node {id} is controller-only");
        }
        let bootstrap = self.bootstrap_servers();
        let result = wait_for(&format!("broker {id} to be unfenced"), deadline, || {
            if !self.is_running(id) {
                return Err(fatal(format!("node {id} exited")));
            }
            if self.broker_state(id)? != BrokerState::Running {
                return Ok(None);
            }
            Ok(unfenced_brokers(&bootstrap)?.contains(&id).then_some(()))
        });
        result.map_err(|e| anyhow!("{e:#}\n--- node {id} log ---\n{}", self.log_tail(id, 40)))
    }

    /// Waits until every running broker-role node is unfenced and a controller leads the quorum.
    pub fn wait_until_ready(&mut self, deadline: Duration) -> Result<()> {
        let bootstrap = self.bootstrap_servers();
        let result = wait_for("the cluster to be ready", deadline, || {
            let ids: Vec<i32> = self.nodes.keys().copied().collect();
            let mut brokers = BTreeSet::new();
            for id in ids {
                let node = &self.nodes[&id];
                if node.child.is_none() {
                    continue;
                }
                let is_broker = node.info.role.is_broker();
                if !self.is_running(id) {
                    return Err(fatal(format!("node {id} exited")));
                }
                if is_broker {
                    if self.broker_state(id)? != BrokerState::Running {
                        return Ok(None);
                    }
                    brokers.insert(id);
                }
            }
            if self.quorum_leader()?.is_none() {
                return Ok(None);
            }
            let unfenced = unfenced_brokers(&bootstrap)?;
            Ok(brokers.is_subset(&unfenced).then_some(()))
        });
        result.map_err(|e| {
            let mut msg = format!("{e:#}");
            for id in self.nodes.keys() {
                let _ = write!(msg, "\n--- node {id} log ---\n{}", self.log_tail(*id, 15));
            }
            anyhow!(msg)
        })
    }

    /// How the quorum was configured.
    pub fn quorum_mode(&self) -> QuorumMode {
        self.spec.quorum
    }

    /// The release node `id` runs (or will run at its next start).
    pub fn node_version(&self, id: i32) -> Result<KafkaVersion> {
        Ok(self.node(id)?.version)
    }

    /// From the next start on, node `id` runs `version`'s jars (same config and data: what a
    /// rolling software upgrade or downgrade does).
    pub fn set_node_version(&mut self, id: i32, version: KafkaVersion) -> Result<()> {
        kafka_install_of(version)?;
        self.get_mut(id)?.info.version = version;
        Ok(())
    }

    /// Graceful stop, switch to `version`'s jars, start (returns once spawned).
    pub fn restart_node_onto(&mut self, id: i32, version: KafkaVersion) -> Result<()> {
        self.stop_node(id)?;
        self.set_node_version(id, version)?;
        self.start_node(id)
    }

    /// The software version the running node reports itself (`kafka.server:type=app-info`
    /// `version`, read through its Jolokia agent): the release its jars are.
    pub fn software_version(&mut self, id: i32) -> Result<String> {
        let port = self.node(id)?.agent_port;
        if !self.is_running(id) {
            bail!("node {id} is not running");
        }
        let v = jolokia_read(port, "kafka.server:type=app-info/version")
            .with_context(|| format!("node {id}: failed to read app-info"))?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| anyhow!("node {id}: app-info version is not a string: {v}"))
    }

    /// The finalized level of a feature as node `id` has loaded it from the metadata log
    /// (`kafka.server:type=MetadataLoader,name=FinalizedLevel,featureName=<camelCase>` gauge):
    /// `feature` is Kafka's name (`metadata.version`, `kraft.version`, …).
    pub fn finalized_level(&mut self, id: i32, feature: &str) -> Result<i16> {
        let port = self.node(id)?.agent_port;
        if !self.is_running(id) {
            bail!("node {id} is not running");
        }
        let mbean = format!(
            "kafka.server:type=MetadataLoader,name=FinalizedLevel,featureName={}/Value",
            camel_case_feature(feature)
        );
        let v = jolokia_read(port, &mbean)
            .with_context(|| format!("node {id}: failed to read the finalized {feature}"))?;
        v.as_f64()
            .map(|f| f as i16)
            .ok_or_else(|| anyhow!("node {id}: finalized {feature} is not a number: {v}"))
    }

    /// The `(min, max)` level of `feature` node `id`'s software supports
    /// (`kafka.server:type=node-metrics,feature-name=<kebab-case>`).
    pub fn supported_levels(&mut self, id: i32, feature: &str) -> Result<(i16, i16)> {
        let port = self.node(id)?.agent_port;
        if !self.is_running(id) {
            bail!("node {id} is not running");
        }
        let mbean = format!(
            "kafka.server:type=node-metrics,feature-name={}",
            feature.replace('.', "-")
        );
        let v = jolokia_read(port, &mbean)
            .with_context(|| format!("node {id}: failed to read the supported {feature}"))?;
        let level = |k: &str| {
            v.get(k)
                .and_then(serde_json::Value::as_f64)
                .map(|f| f as i16)
                .ok_or_else(|| anyhow!("node {id}: no {k} in {v}"))
        };
        Ok((
            level("minimum-supported-level")?,
            level("maximum-supported-level")?,
        ))
    }

    /// The directory id of node `id`'s metadata log dir (`directory.id` in `meta.properties`,
    /// written by the storage tool): what a voter is known by in a dynamic quorum.
    pub fn directory_id(&self, id: i32) -> Result<String> {
        let path = self.node(id)?.work_dir.join("data").join("meta.properties");
        let text = fs::read_to_string(&path)
            .with_context(|| format!("failed to read {}", path.display()))?;
        text.lines()
            .find_map(|l| l.strip_prefix("directory.id="))
            .map(|v| v.trim().to_string())
            .ok_or_else(|| anyhow!("{} has no directory.id", path.display()))
    }

    /// Adds a controller-only node to a running dynamic-quorum cluster the way an operator does
    /// before `kafka-metadata-quorum add-controller`: it bootstraps from the existing
    /// controllers, is formatted with `--no-initial-controllers` and starts as an **observer**
    /// (not a voter). Ids continue the controller-only ids (`101..`). Waits until the node
    /// reports itself an observer that knows the quorum leader; returns its id.
    pub fn add_controller(&mut self, version: KafkaVersion, deadline: Duration) -> Result<i32> {
        if self.spec.quorum != QuorumMode::Dynamic {
            bail!("add_controller needs a dynamic quorum (ClusterSpec::with_dynamic_quorum)");
        }
        kafka_install_of(version)?;
        let id = self
            .nodes
            .keys()
            .copied()
            .filter(|id| *id > CONTROLLER_ID_BASE)
            .max()
            .map_or(CONTROLLER_ID_BASE + 1, |m| m + 1);
        let secure = self.spec.sasl_ssl.is_some();
        let mut ports = free_ports(2 + usize::from(secure))?.into_iter();
        let work_dir = self.work_dir().join(format!("node-{id}"));
        fs::create_dir_all(work_dir.join("data"))?;
        let info = NodeInfo {
            id,
            role: NodeRole::Controller,
            broker_port: None,
            controller_port: ports.next(),
            secure_port: None,
            controller_secure_port: if secure { ports.next() } else { None },
            agent_port: ports.next().expect("port"),
            rack: None,
            work_dir: work_dir.clone(),
            version,
        };
        // Bootstrap from the controllers that exist now (not from itself).
        let quorum = self.quorum_setting();
        self.nodes.insert(
            id,
            Node {
                config: work_dir.join("server.properties"),
                log: work_dir.join("node.log"),
                info,
                child: None,
                broken: false,
                slow_start: None,
            },
        );
        let added = (|| {
            self.write_node_config(id, &quorum)?;
            let child = self.spawn_format(self.get(id)?, &["--no-initial-controllers".into()])?;
            self.finish_format(id, child)?;
            self.start_node(id)?;
            self.wait_until_observer(id, deadline)
        })();
        if let Err(e) = added {
            let _ = self.kill_node(id);
            return Err(e.context(format!("failed to add controller {id}")));
        }
        Ok(id)
    }

    /// Waits until node `id` reports itself a quorum observer that knows the leader.
    pub fn wait_until_observer(&mut self, id: i32, deadline: Duration) -> Result<()> {
        let result = wait_for(
            &format!("node {id} to be a quorum observer"),
            deadline,
            || {
                if !self.is_running(id) {
                    return Err(fatal(format!("node {id} exited")));
                }
                let rs = self.raft_state(id)?;
                Ok((rs.state == "observer" && rs.leader.is_some()).then_some(()))
            },
        );
        result.map_err(|e| anyhow!("{e:#}\n--- node {id} log ---\n{}", self.log_tail(id, 40)))
    }

    pub fn node_work_dir(&self, id: i32) -> PathBuf {
        self.nodes
            .get(&id)
            .map(|n| n.info.work_dir.clone())
            .unwrap_or_default()
    }

    /// The last `lines` lines of the node's log (stdout and stderr of its JVM).
    pub fn log_tail(&self, id: i32, lines: usize) -> String {
        match self.nodes.get(&id) {
            Some(n) => tail_file(&n.log, lines),
            None => format!("(no node {id})"),
        }
    }

    /// SIGKILL every node's process group and reap it. A cluster being thrown away needs no
    /// controlled shutdown (its work dir goes with it); a graceful one took more than 3 s per
    /// cluster, the grace period this used to wait before killing anyway.
    fn shutdown(&mut self) {
        let children: Vec<Child> = self
            .nodes
            .values_mut()
            .filter_map(|n| n.child.take())
            .collect();
        for c in &children {
            signal_group(c, libc::SIGKILL);
        }
        for mut c in children {
            let _ = c.wait();
        }
    }
}

impl Drop for KafkaCluster {
    fn drop(&mut self) {
        let stopping = Instant::now();
        self.shutdown();
        timing::record(
            "cluster_stop",
            stopping.elapsed(),
            &format!(
                "{} nodes, up {:.1?}",
                self.nodes.len(),
                self.began.elapsed()
            ),
        );
        let keep = thread::panicking() || std::env::var_os("KAFKAOPS_TESTENV_KEEP").is_some();
        if keep && let Some(dir) = self.dir.take() {
            eprintln!(
                "kafka test cluster: work dir and logs kept in {}",
                keep_dir(dir).display()
            );
        }
    }
}

/// Copies the files and directories under `from` into `to` (created), except `skip` at the top.
fn copy_tree(from: &Path, to: &Path, skip: &Path) -> Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from).with_context(|| format!("failed to read {}", from.display()))? {
        let entry = entry?;
        if entry.file_name() == skip.as_os_str() {
            continue;
        }
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &to.join(entry.file_name()), Path::new(""))?;
        } else {
            fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// JVM flags for every node and tool run. tests/env/setup.sh dumps the CDS archive with the same
/// GC and compiler flags; keep them in step.
fn jvm_options(heap_mb: u32) -> Vec<String> {
    vec![
        format!("-Xmx{heap_mb}m"),
        "-Xms32m".into(),
        "-Xss512k".into(),
        "-XX:+UseSerialGC".into(),
        "-XX:TieredStopAtLevel=1".into(),
        "-XX:-UsePerfData".into(),
        "-XX:+ExitOnOutOfMemoryError".into(),
        "-Djava.awt.headless=true".into(),
    ]
}

/// `quorum` is the key and value of the quorum line (see [`KafkaCluster::quorum_setting`]).
fn server_properties(
    info: &NodeInfo,
    quorum: &(&str, String),
    mode: QuorumMode,
    brokers: usize,
    extra: &[(String, String)],
    controller_extra: &[(String, String)],
) -> String {
    let rf = brokers.min(3);
    let min_isr = rf.min(2);
    let mut props: Vec<(String, String)> = Vec::new();
    let mut set = |k: &str, v: String| props.push((k.to_string(), v));
    set("process.roles", info.role.process_roles().into());
    set("node.id", info.id.to_string());
    set(quorum.0, quorum.1.clone());
    set("controller.listener.names", "CONTROLLER".into());
    set(
        "listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT".into(),
    );
    let listeners = [
        info.broker_address().map(|a| format!("PLAINTEXT://{a}")),
        info.controller_address()
            .map(|a| format!("CONTROLLER://{a}")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(",");
    set("listeners", listeners);
    set("log.dirs", info.work_dir.join("data").display().to_string());
    // Small thread pools and buffers: many JVMs share 2 cores in CI.
    set("num.network.threads", "2".into());
    set("num.io.threads", "2".into());
    set("background.threads", "2".into());
    set("num.recovery.threads.per.data.dir", "1".into());
    set("log.cleaner.threads", "1".into());
    set("log.cleaner.dedupe.buffer.size", "4194304".into());
    // A dynamic quorum stores each voter's endpoints, which the controller takes from its
    // advertised CONTROLLER listener.
    let advertised = [
        info.broker_address().map(|a| format!("PLAINTEXT://{a}")),
        info.controller_address()
            .filter(|_| mode == QuorumMode::Dynamic)
            .map(|a| format!("CONTROLLER://{a}")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>();
    if !advertised.is_empty() {
        set("advertised.listeners", advertised.join(","));
    }
    if info.role.is_broker() {
        set("inter.broker.listener.name", "PLAINTEXT".into());
        if let Some(rack) = &info.rack {
            set("broker.rack", rack.clone());
        }
        set("offsets.topic.replication.factor", rf.to_string());
        set("offsets.topic.num.partitions", "3".into());
        set("transaction.state.log.replication.factor", rf.to_string());
        set("transaction.state.log.min.isr", min_isr.to_string());
        set("transaction.state.log.num.partitions", "3".into());
        set(
            "share.coordinator.state.topic.replication.factor",
            rf.to_string(),
        );
        set("share.coordinator.state.topic.min.isr", min_isr.to_string());
        set("default.replication.factor", rf.to_string());
        set("group.initial.rebalance.delay.ms", "0".into());
        // Tests create their topics explicitly (with replica assignments).
        set("auto.create.topics.enable", "false".into());
        // Faster fencing after kill -9 and ISR shrink, still tolerant of a loaded 2-core host.
        // The heartbeat also paces a controlled shutdown (one heartbeat per answer after the
        // first): 500 ms instead of Kafka's 2 s (1 s until 2026-11-28) took a graceful broker
        // stop from 1.3-2.3 s to 1.0-1.6 s.
        set("broker.heartbeat.interval.ms", "500".into());
        set("broker.session.timeout.ms", "6000".into());
        set("replica.lag.time.max.ms", "10000".into());
        set("num.replica.fetchers", "1".into());
        for (k, v) in extra {
            props.retain(|(pk, _)| pk != k);
            props.push((k.clone(), v.clone()));
        }
    } else {
        set("broker.session.timeout.ms", "6000".into());
    }
    if info.role.is_controller() {
        for (k, v) in controller_extra {
            props.retain(|(pk, _)| pk != k);
            props.push((k.clone(), v.clone()));
        }
    }
    props.iter().fold(String::new(), |mut s, (k, v)| {
        let _ = writeln!(s, "{k}={v}");
        s
    })
}

/// The CA (`ca.pem`) and one server keystore (`server.pem`: key + chain) shared by every node;
/// all nodes listen on 127.0.0.1, so one certificate for `127.0.0.1`/`localhost` fits them all.
fn write_tls_material(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir)?;
    let ca = super::tls::TestCa::generate("kafkaops test cluster CA")?;
    let server = ca.issue_server("kafkaops test broker")?;
    ca.write_cert(&dir.join("ca.pem"))?;
    fs::write(dir.join("server.pem"), server.keystore_pem(&ca)?)?;
    Ok(())
}

/// Adds the SASL_SSL listeners of a [`SaslSsl`] cluster to a node's `server.properties`.
fn secure_properties(base: &str, info: &NodeInfo, tls_dir: &Path) -> String {
    const JAAS: &str = "org.apache.kafka.common.security.scram.ScramLoginModule required;";
    let mut props: Vec<(String, String)> = base
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut append = |key: &str, extra: String| {
        if let Some((_, v)) = props.iter_mut().find(|(k, _)| k == key) {
            v.push(',');
            v.push_str(&extra);
        } else {
            props.push((key.to_string(), extra));
        }
    };
    append(
        "listener.security.protocol.map",
        "SECURE:SASL_SSL,CONTROLLER_SECURE:SASL_SSL".into(),
    );
    if let Some(a) = info.secure_address() {
        append("listeners", format!("SECURE://{a}"));
        append("advertised.listeners", format!("SECURE://{a}"));
    }
    if let Some(a) = info.controller_secure_address() {
        append("listeners", format!("CONTROLLER_SECURE://{a}"));
        // The first name stays the one nodes use among themselves.
        append("controller.listener.names", "CONTROLLER_SECURE".into());
    }
    let mut set = |k: &str, v: String| props.push((k.to_string(), v));
    set("sasl.enabled.mechanisms", "SCRAM-SHA-512".into());
    for listener in ["secure", "controller_secure"] {
        set(
            &format!("listener.name.{listener}.scram-sha-512.sasl.jaas.config"),
            JAAS.into(),
        );
    }
    set("ssl.keystore.type", "PEM".into());
    set(
        "ssl.keystore.location",
        tls_dir.join("server.pem").display().to_string(),
    );
    set("ssl.truststore.type", "PEM".into());
    set(
        "ssl.truststore.location",
        tls_dir.join("ca.pem").display().to_string(),
    );
    props.iter().fold(String::new(), |mut s, (k, v)| {
        let _ = writeln!(s, "{k}={v}");
        s
    })
}

/// A random Kafka `Uuid` in Kafka's text form (URL-safe base64, no padding), as the storage
/// tool's `random-uuid` prints: a cluster id or a log directory id.
fn random_kafka_uuid() -> String {
    random_cluster_id()
}

fn random_cluster_id() -> String {
    let mut bytes = [0u8; 16];
    if File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_err()
    {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos()
            ^ u128::from(std::process::id());
        bytes = seed.to_le_bytes();
    }
    // Kafka's Uuid rejects ids whose base64 starts with '-' (ambiguous on the command line).
    bytes[0] &= 0x7f;
    base64_url_nopad(&bytes)
}

fn base64_url_nopad(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn tail_file(path: &Path, lines: usize) -> String {
    match fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            let all: Vec<&str> = text.lines().collect();
            all[all.len().saturating_sub(lines)..].join("\n")
        }
        Err(e) => format!("(cannot read {}: {e})", path.display()),
    }
}

// ---------------------------------------------------------------------------------------------
// Jolokia (JMX over HTTP)
// ---------------------------------------------------------------------------------------------

const BROKER_STATE_MBEAN: &str = "kafka.server:type=KafkaServer,name=BrokerState";

/// `metadata.version` -> `metadataVersion`: the `featureName` key of the MetadataLoader gauges.
fn camel_case_feature(feature: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in feature.chars() {
        if c == '.' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[derive(Debug)]
struct ConnectionRefused;
impl fmt::Display for ConnectionRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection refused")
    }
}
impl std::error::Error for ConnectionRefused {}

fn is_connection_refused(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<ConnectionRefused>())
}

/// `GET /jolokia/read/<path>` on 127.0.0.1:<port>, returns the `value` field.
fn jolokia_read(port: u16, path: &str) -> Result<serde_json::Value> {
    let body = http_get(port, &format!("/jolokia/read/{path}"))?;
    let v: serde_json::Value = serde_json::from_str(&body)
        .with_context(|| format!("Jolokia answered with non-JSON: {body}"))?;
    let status = v.get("status").and_then(serde_json::Value::as_i64);
    if status != Some(200) {
        bail!(
            "Jolokia read {path} failed: {}",
            v.get("error").and_then(|e| e.as_str()).unwrap_or(&body)
        );
    }
    v.get("value")
        .cloned()
        .ok_or_else(|| anyhow!("Jolokia answer without value: {body}"))
}

/// A minimal HTTP/1.0 GET for a local agent (no HTTP client crate in the sync harness).
pub fn http_get(port: u16, path: &str) -> Result<String> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut stream = match TcpStream::connect_timeout(&addr, Duration::from_secs(2)) {
        Ok(s) => s,
        Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
            return Err(anyhow::Error::new(ConnectionRefused).context(format!("GET {addr}{path}")));
        }
        Err(e) => return Err(e).with_context(|| format!("GET {addr}{path}")),
    };
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )?;
    // No half-close after the request: hyper (operate's /metrics server) takes the client's EOF
    // for a client gone and may close without answering (one read in fifteen under load);
    // `Connection: close` ends the response instead.
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .with_context(|| format!("GET {addr}{path}: reading the response"))?;
    let (head, body) = response
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow!("GET {addr}{path}: malformed HTTP response"))?;
    if !head.starts_with("HTTP/1.") {
        bail!("GET {addr}{path}: not HTTP: {head}");
    }
    Ok(body.to_string())
}

// ---------------------------------------------------------------------------------------------
// Polling
// ---------------------------------------------------------------------------------------------

#[derive(Debug)]
struct Fatal(String);
impl fmt::Display for Fatal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Fatal {}

/// An error that makes [`wait_for`] give up at once instead of retrying.
pub fn fatal(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Fatal(msg.into()))
}

/// Polls `f` until it returns `Ok(Some(_))` or `deadline` has passed. `Ok(None)` means "not
/// yet"; an `Err` is remembered and retried (reported on timeout) unless made with [`fatal`].
/// Back-off starts at 50 ms and grows to 500 ms.
pub fn wait_for<T>(
    what: &str,
    deadline: Duration,
    mut f: impl FnMut() -> Result<Option<T>>,
) -> Result<T> {
    let start = Instant::now();
    let mut delay = Duration::from_millis(50);
    let mut last_err: Option<anyhow::Error> = None;
    loop {
        match f() {
            Ok(Some(v)) => {
                if start.elapsed() >= Duration::from_secs(1) {
                    timing::record("wait_for", start.elapsed(), what);
                }
                return Ok(v);
            }
            Ok(None) => {}
            Err(e) if e.chain().any(|c| c.is::<Fatal>()) => {
                return Err(e.context(format!("gave up waiting for {what}")));
            }
            Err(e) => last_err = Some(e),
        }
        let elapsed = start.elapsed();
        if elapsed >= deadline {
            let mut msg = format!("timed out after {elapsed:.1?} waiting for {what}");
            if let Some(e) = last_err {
                let _ = write!(msg, " (last error: {e:#})");
            }
            bail!(msg);
        }
        thread::sleep(delay.min(deadline - elapsed));
        delay = (delay * 2).min(Duration::from_millis(500));
    }
}

// ---------------------------------------------------------------------------------------------
// Kafka client helpers (rdkafka, runtime-free)
// ---------------------------------------------------------------------------------------------

const CLIENT_TIMEOUT: Duration = Duration::from_secs(10);

fn client_config(bootstrap: &str) -> ClientConfig {
    let mut c = ClientConfig::new();
    c.set("bootstrap.servers", bootstrap)
        .set("socket.timeout.ms", "10000")
        .set("log_level", "3");
    c
}

fn metadata(bootstrap: &str, topic: Option<&str>) -> Result<Metadata> {
    let producer: BaseProducer = client_config(bootstrap)
        .create()
        .context("failed to create a Kafka client")?;
    producer
        .client()
        .fetch_metadata(topic, CLIENT_TIMEOUT)
        .with_context(|| format!("metadata request to {bootstrap} failed"))
}

/// Broker ids the cluster metadata lists (in KRaft: registered and unfenced).
pub fn unfenced_brokers(bootstrap: &str) -> Result<BTreeSet<i32>> {
    Ok(metadata(bootstrap, None)?
        .brokers()
        .iter()
        .map(|b| b.id())
        .collect())
}

/// Where a partition's replicas are, as the cluster metadata reports them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartitionPlacement {
    pub partition: i32,
    /// `-1` when the partition has no leader.
    pub leader: i32,
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
}

/// The real placement of `topic`'s partitions (replicas, ISR, leader), sorted by partition.
pub fn placement(bootstrap: &str, topic: &str) -> Result<Vec<PartitionPlacement>> {
    let md = metadata(bootstrap, Some(topic))?;
    let t = md
        .topics()
        .iter()
        .find(|t| t.name() == topic)
        .ok_or_else(|| anyhow!("metadata has no topic {topic}"))?;
    if let Some(err) = t.error() {
        bail!("topic {topic}: {:?}", RDKafkaErrorCode::from(err));
    }
    let mut out: Vec<PartitionPlacement> = t
        .partitions()
        .iter()
        .map(|p| PartitionPlacement {
            partition: p.id(),
            leader: p.leader(),
            replicas: p.replicas().to_vec(),
            isr: p.isr().to_vec(),
        })
        .collect();
    out.sort_by_key(|p| p.partition);
    Ok(out)
}

/// Creates `name` with one partition per entry of `assignment` (replica lists, preferred leader
/// first) and topic configs, then waits until every broker's metadata has a leader for every
/// partition.
pub fn create_topic(
    bootstrap: &str,
    name: &str,
    assignment: &[Vec<i32>],
    configs: &[(&str, &str)],
) -> Result<()> {
    let admin: AdminClient<DefaultClientContext> = client_config(bootstrap)
        .create()
        .context("failed to create an admin client")?;
    let refs: Vec<&[i32]> = assignment.iter().map(Vec::as_slice).collect();
    let partitions = i32::try_from(assignment.len())?;
    let mut topic = NewTopic::new(name, partitions, TopicReplication::Variable(&refs));
    for (k, v) in configs {
        topic = topic.set(k, v);
    }
    let opts = AdminOptions::new().operation_timeout(Some(CLIENT_TIMEOUT));
    let results = futures::executor::block_on(admin.create_topics([&topic], &opts))
        .with_context(|| format!("CreateTopics {name} failed"))?;
    for r in results {
        r.map_err(|(t, code)| anyhow!("CreateTopics {t} failed: {code:?}"))?;
    }
    wait_for(
        &format!("topic {name} to have leaders"),
        Duration::from_secs(60),
        || known_by_every_broker(bootstrap, name, assignment.len()),
    )
}

/// `Some(())` when every broker the metadata lists (registered, unfenced) answers with `name`'s
/// `partitions` partitions, each with a leader. Asked of each broker on its own address: a topic
/// just created reaches the brokers' metadata one by one, and a test's next call may go to any.
fn known_by_every_broker(bootstrap: &str, name: &str, partitions: usize) -> Result<Option<()>> {
    for b in metadata(bootstrap, None)?.brokers() {
        let address = format!("{}:{}", b.host(), b.port());
        let Ok(md) = metadata(&address, Some(name)) else {
            // Not answering at all (crashed, not fenced yet): it serves nobody's next call.
            continue;
        };
        let known = md
            .topics()
            .iter()
            .find(|t| t.name() == name)
            .is_some_and(|t| {
                t.error().is_none()
                    && t.partitions().len() == partitions
                    && t.partitions().iter().all(|p| p.leader() >= 0)
            });
        if !known {
            return Ok(None);
        }
    }
    Ok(Some(()))
}

/// Creates `name` with `partitions` partitions of `rf` replicas placed by Kafka itself (no
/// assignment given), then waits until every broker's metadata has a leader for every partition.
pub fn create_topic_placed_by_kafka(
    bootstrap: &str,
    name: &str,
    partitions: i32,
    rf: i32,
) -> Result<()> {
    let admin: AdminClient<DefaultClientContext> = client_config(bootstrap)
        .create()
        .context("failed to create an admin client")?;
    let topic = NewTopic::new(name, partitions, TopicReplication::Fixed(rf));
    let opts = AdminOptions::new().operation_timeout(Some(CLIENT_TIMEOUT));
    let results = futures::executor::block_on(admin.create_topics([&topic], &opts))
        .with_context(|| format!("CreateTopics {name} failed"))?;
    for r in results {
        r.map_err(|(t, code)| anyhow!("CreateTopics {t} failed: {code:?}"))?;
    }
    wait_for(
        &format!("topic {name} to have leaders"),
        Duration::from_secs(60),
        || known_by_every_broker(bootstrap, name, usize::try_from(partitions)?),
    )
}

/// A broker's current value of a config key (DescribeConfigs), `None` if unset.
pub fn broker_config(bootstrap: &str, broker: i32, key: &str) -> Result<Option<String>> {
    let admin: AdminClient<DefaultClientContext> = client_config(bootstrap)
        .create()
        .context("failed to create an admin client")?;
    let opts = AdminOptions::new().request_timeout(Some(CLIENT_TIMEOUT));
    let results = futures::executor::block_on(
        admin.describe_configs([&ResourceSpecifier::Broker(broker)], &opts),
    )
    .with_context(|| format!("DescribeConfigs broker {broker} failed"))?;
    let resource = results
        .into_iter()
        .next()
        .ok_or_else(|| anyhow!("DescribeConfigs returned nothing"))?
        .map_err(|code| anyhow!("DescribeConfigs broker {broker}: {code:?}"))?;
    Ok(resource.get(key).and_then(|e| e.value.clone()))
}

/// Produces `count` records of `size` bytes to `topic` as fast as the cluster takes them
/// (`acks=all`, batches of at most `batch_bytes`), waits for every acknowledgement and fails
/// if any send failed. For preloading data a follower then has to fetch.
pub fn produce_bulk(
    bootstrap: &str,
    topic: &str,
    count: usize,
    size: usize,
    batch_bytes: usize,
) -> Result<()> {
    let stats = Arc::new(Mutex::new(ProducerStats::default()));
    let mut cfg = client_config(bootstrap);
    cfg.set("acks", "all")
        .set("enable.idempotence", "true")
        .set("message.timeout.ms", "60000")
        .set("linger.ms", "5")
        .set("batch.size", batch_bytes.to_string())
        .set("compression.type", "none");
    let producer: BaseProducer<CountingContext> = cfg
        .create_with_context(CountingContext {
            stats: Arc::clone(&stats),
            record: None,
        })
        .context("failed to create the bulk producer")?;
    let payload = "x".repeat(size);
    let mut n = 0;
    while n < count {
        let key = n.to_string();
        match producer.send(BaseRecord::to(topic).key(&key).payload(&payload)) {
            Ok(()) => n += 1,
            Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), _)) => {
                producer.poll(Duration::from_millis(50));
            }
            Err((e, _)) => bail!("bulk produce to {topic}: {e}"),
        }
        producer.poll(Duration::ZERO);
    }
    producer
        .flush(Duration::from_secs(90))
        .context("bulk produce: flush")?;
    producer.poll(Duration::ZERO);
    let s = stats.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if s.sent != count as u64 {
        bail!(
            "bulk produce to {topic}: {} of {count} acknowledged: {s:?}",
            s.sent
        );
    }
    Ok(())
}

/// What a [`BackgroundProducer`] saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProducerStats {
    /// Messages handed to the client.
    pub attempted: u64,
    /// Messages acknowledged by the cluster (`acks=all`).
    pub sent: u64,
    /// Messages that finally failed (after the client's retries), by error code name
    /// (`RDKafkaErrorCode` debug form, e.g. `NotEnoughReplicas`, `MessageTimedOut`).
    pub failed_by_code: BTreeMap<String, u64>,
}

impl ProducerStats {
    pub fn failed(&self) -> u64 {
        self.failed_by_code.values().sum()
    }
}

struct CountingContext {
    stats: Arc<Mutex<ProducerStats>>,
    /// Where a recording producer keeps every delivery report.
    record: Option<Arc<Mutex<Deliveries>>>,
}

impl ClientContext for CountingContext {}

impl ProducerContext for CountingContext {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        use rdkafka::message::Message;
        let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(_) => stats.sent += 1,
            Err((err, _)) => *stats.failed_by_code.entry(error_code(err)).or_default() += 1,
        }
        drop(stats);
        let Some(record) = &self.record else { return };
        let mut d = record.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(m) => d.acked.push(Acked {
                partition: m.partition(),
                offset: m.offset(),
                key: key_of(m.key()),
            }),
            Err((err, m)) => d.failed.push(FailedSend {
                at_ms: epoch_millis(),
                code: error_code(err),
                key: key_of(m.key()),
            }),
        }
    }
}

fn key_of(key: Option<&[u8]>) -> String {
    key.map(|k| String::from_utf8_lossy(k).into_owned())
        .unwrap_or_default()
}

fn epoch_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A send the cluster acknowledged (`acks=all`): where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acked {
    pub partition: i32,
    /// Negative when unknown: an idempotent producer whose retry is answered
    /// `DUPLICATE_SEQUENCE_NUMBER` (the first send was written, its answer lost) reports the
    /// send delivered with no offset.
    pub offset: i64,
    pub key: String,
}

/// A send that finally failed (after the client's retries).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedSend {
    /// Epoch milliseconds of the delivery report.
    pub at_ms: u64,
    pub code: String,
    pub key: String,
}

/// Every delivery report of a recording [`BackgroundProducer`].
#[derive(Clone, Debug, Default)]
pub struct Deliveries {
    pub acked: Vec<Acked>,
    pub failed: Vec<FailedSend>,
}

fn error_code(err: &KafkaError) -> String {
    err.rdkafka_error_code()
        .map_or_else(|| err.to_string(), |c| format!("{c:?}"))
}

/// Produces small records with `acks=all` on a background thread until stopped, counting
/// acknowledged and failed sends. Messages are paced (one every 5 ms) so the load stays light.
pub struct BackgroundProducer {
    stop: Arc<AtomicBool>,
    stats: Arc<Mutex<ProducerStats>>,
    record: Option<Arc<Mutex<Deliveries>>>,
    thread: Option<JoinHandle<()>>,
}

impl BackgroundProducer {
    /// `acks=all`, idempotent, `message.timeout.ms=30000`.
    pub fn start(bootstrap: &str, topic: &str) -> Result<Self> {
        Self::start_with(bootstrap, topic, &[])
    }

    /// Like [`BackgroundProducer::start`] with extra/overriding librdkafka settings.
    pub fn start_with(bootstrap: &str, topic: &str, config: &[(&str, &str)]) -> Result<Self> {
        Self::spawn(bootstrap, topic, config, None)
    }

    /// Like [`BackgroundProducer::start_with`], and keeps every delivery report (where each
    /// acknowledged record was written, when and why each send failed), so a reader can check
    /// afterwards that nothing acknowledged was lost ([`read_partitions`]).
    pub fn start_recording(bootstrap: &str, topic: &str, config: &[(&str, &str)]) -> Result<Self> {
        Self::spawn(
            bootstrap,
            topic,
            config,
            Some(Arc::new(Mutex::new(Deliveries::default()))),
        )
    }

    fn spawn(
        bootstrap: &str,
        topic: &str,
        config: &[(&str, &str)],
        record: Option<Arc<Mutex<Deliveries>>>,
    ) -> Result<Self> {
        let stats = Arc::new(Mutex::new(ProducerStats::default()));
        let mut cfg = client_config(bootstrap);
        cfg.set("acks", "all")
            .set("enable.idempotence", "true")
            .set("message.timeout.ms", "30000")
            .set("linger.ms", "5");
        for (k, v) in config {
            cfg.set(*k, *v);
        }
        let producer: BaseProducer<CountingContext> = cfg
            .create_with_context(CountingContext {
                stats: Arc::clone(&stats),
                record: record.clone(),
            })
            .context("failed to create the producer")?;
        let stop = Arc::new(AtomicBool::new(false));
        let topic = topic.to_string();
        let thread = {
            let stop = Arc::clone(&stop);
            let stats = Arc::clone(&stats);
            thread::Builder::new()
                .name("background-producer".into())
                .spawn(move || produce_loop(&producer, &topic, &stop, &stats))?
        };
        Ok(Self {
            stop,
            stats,
            record,
            thread: Some(thread),
        })
    }

    /// The delivery reports so far (empty unless started with
    /// [`BackgroundProducer::start_recording`]).
    pub fn deliveries(&self) -> Deliveries {
        self.record
            .as_ref()
            .map(|r| r.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .unwrap_or_default()
    }

    /// Stops like [`BackgroundProducer::stop`]; the final counters and every delivery report.
    pub fn stop_recording(mut self) -> (ProducerStats, Deliveries) {
        self.halt();
        (self.stats(), self.deliveries())
    }

    /// A snapshot of the counters so far.
    pub fn stats(&self) -> ProducerStats {
        self.stats.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Stops producing, waits for outstanding deliveries (up to the message timeout) and
    /// returns the final counters.
    pub fn stop(mut self) -> ProducerStats {
        self.halt();
        self.stats()
    }

    fn halt(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for BackgroundProducer {
    fn drop(&mut self) {
        self.halt();
    }
}

fn produce_loop(
    producer: &BaseProducer<CountingContext>,
    topic: &str,
    stop: &AtomicBool,
    stats: &Mutex<ProducerStats>,
) {
    let mut n: u64 = 0;
    while !stop.load(Ordering::SeqCst) {
        let key = n.to_string();
        let payload = format!("kafkaops-test-{n}");
        match producer.send(BaseRecord::to(topic).key(&key).payload(&payload)) {
            Ok(()) => {
                n += 1;
                stats.lock().unwrap_or_else(|e| e.into_inner()).attempted += 1;
            }
            Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), _)) => {}
            Err((err, _)) => {
                let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                s.attempted += 1;
                *s.failed_by_code.entry(error_code(&err)).or_default() += 1;
            }
        }
        producer.poll(Duration::from_millis(5));
    }
    let _ = producer.flush(Duration::from_secs(60));
    producer.poll(Duration::ZERO);
}

/// What a topic holds: each record's key by (partition, offset), and each partition's high
/// watermark when the read started.
#[derive(Clone, Debug, Default)]
pub struct TopicContents {
    pub keys: BTreeMap<(i32, i64), String>,
    pub high_watermarks: BTreeMap<i32, i64>,
}

/// Reads every partition of `topic` from its first offset up to the high watermark it had when
/// the read started (a plain assigned consumer: no group, nothing committed). Fails when the
/// end is not reached within `deadline`.
pub fn read_partitions(bootstrap: &str, topic: &str, deadline: Duration) -> Result<TopicContents> {
    use rdkafka::consumer::{BaseConsumer, Consumer};
    use rdkafka::message::Message;
    use rdkafka::{Offset, TopicPartitionList};
    // librdkafka wants a group even for assign(): the first read makes Kafka create
    // `__consumer_offsets` if it does not exist yet (nothing is committed).
    let consumer: BaseConsumer = client_config(bootstrap)
        .set("group.id", "kafkaops-test-reader")
        .set("enable.auto.commit", "false")
        .set("enable.auto.offset.store", "false")
        .set("auto.offset.reset", "earliest")
        .create()
        .context("failed to create the reader")?;
    let md = metadata(bootstrap, Some(topic))?;
    let partitions: Vec<i32> = md
        .topics()
        .iter()
        .find(|t| t.name() == topic)
        .ok_or_else(|| anyhow!("metadata has no topic {topic}"))?
        .partitions()
        .iter()
        .map(rdkafka::metadata::MetadataPartition::id)
        .collect();
    let mut out = TopicContents::default();
    let mut tpl = TopicPartitionList::new();
    let mut next: BTreeMap<i32, i64> = BTreeMap::new();
    for p in partitions {
        let (low, high) = consumer
            .fetch_watermarks(topic, p, CLIENT_TIMEOUT)
            .with_context(|| format!("watermarks of {topic}-{p}"))?;
        out.high_watermarks.insert(p, high);
        if high > low {
            tpl.add_partition_offset(topic, p, Offset::Offset(low))?;
            next.insert(p, low);
        }
    }
    consumer.assign(&tpl).context("assign")?;
    let start = Instant::now();
    while next.iter().any(|(p, n)| *n < out.high_watermarks[p]) {
        if start.elapsed() > deadline {
            bail!(
                "reading {topic} did not reach the high watermarks within {deadline:?}: at \
                 {next:?}, end {:?}",
                out.high_watermarks
            );
        }
        match consumer.poll(Duration::from_millis(500)) {
            Some(Ok(m)) => {
                out.keys
                    .insert((m.partition(), m.offset()), key_of(m.key()));
                next.insert(m.partition(), m.offset() + 1);
            }
            Some(Err(e)) => eprintln!("reader of {topic}: {e}"),
            None => {}
        }
    }
    Ok(out)
}
