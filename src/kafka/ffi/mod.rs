//! librdkafka admin calls that rust-rdkafka 0.39 does not wrap.
//!
//! rust-rdkafka exposes no IncrementalAlterConfigs, ElectLeaders, DescribeCluster or
//! DescribeTopics (its `alter_configs` is the legacy replace-all call, which would wipe
//! every other dynamic broker config). librdkafka 2.12 has all four, so this module
//! calls them through `rdkafka-sys` and hands back plain Rust values. It is the only
//! module in the crate allowed to use `unsafe`; every block says why it is sound.
//!
//! Pattern for each call (as in rust-rdkafka's own admin module): create a private
//! result queue and admin options, start the operation, block on the queue for the
//! result event, copy everything out while the event is alive, destroy the event.
//! All C objects are owned by small RAII guards, so early returns cannot leak them.
//! The calls block: callers run them on `tokio::task::spawn_blocking`.

#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

use std::ffi::{CStr, CString, c_char};
use std::ptr::NonNull;
use std::time::{Duration, Instant};

use rdkafka::admin::AdminClient;
use rdkafka::client::DefaultClientContext;
use rdkafka::error::KafkaError as RdError;
use rdkafka::types::RDKafkaErrorCode;
use rdkafka_sys as sys;

use super::error::{KafkaError, Result};

mod changes;
mod describe;

pub use changes::{elect_preferred_leaders, incremental_alter_configs};
pub use describe::{describe_cluster, describe_topics};

/// The admin client type the adapter uses.
pub type Admin = AdminClient<DefaultClientContext>;

/// A broker as DescribeCluster reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeAddress {
    pub id: i32,
    pub host: String,
    pub port: u16,
    pub rack: Option<String>,
}

/// DescribeCluster: the registered, unfenced brokers and the controller id brokers report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterDescription {
    pub cluster_id: Option<String>,
    /// As reported by a broker: a random (unfenced) broker in KRaft mode, not the quorum leader.
    pub controller: Option<i32>,
    pub nodes: Vec<NodeAddress>,
}

/// One partition as DescribeTopics reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionDescription {
    pub partition: i32,
    pub leader: Option<i32>,
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
}

/// One topic as DescribeTopics reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicDescription {
    pub name: String,
    pub internal: bool,
    pub partitions: Vec<PartitionDescription>,
}

/// What an incremental config change does with its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlterOp {
    Set,
    Delete,
    Append,
    Subtract,
}

/// One key of an IncrementalAlterConfigs call.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ConfigChange {
    pub name: String,
    pub op: AlterOp,
    /// Ignored for `Delete`.
    pub value: Option<String>,
}

impl ConfigChange {
    #[must_use]
    pub fn set(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            op: AlterOp::Set,
            value: Some(value.into()),
        }
    }

    #[must_use]
    pub fn delete(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            op: AlterOp::Delete,
            value: None,
        }
    }
}

/// The resource an incremental config change applies to.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfigTarget {
    /// One broker's dynamic per-broker configs.
    Broker(i32),
    /// The cluster-wide dynamic broker default (`BROKER` resource with an empty name).
    ClusterDefault,
    Topic(String),
}

/// The outcome of a preferred election for one partition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElectionOutcome {
    pub topic: String,
    pub partition: i32,
    /// `None` on success, including ELECTION_NOT_NEEDED (the preferred replica already leads).
    pub error: Option<(i16, String)>,
}

// ---------------------------------------------------------------------------------------------
// RAII guards

/// A librdkafka object this module owns, destroyed exactly once when the guard drops.
///
/// The pointer is checked before a guard exists ([`Owned::new`] answers `None` for NULL), so a
/// NULL that librdkafka returns (for instance `rd_kafka_ConfigResource_new` with an empty name)
/// is never handed to a destroy function.
struct Owned<T: Destroy>(NonNull<T>);

/// How one librdkafka type is destroyed.
trait Destroy {
    /// # Safety
    /// `p` is non-null, came from the matching librdkafka constructor and is destroyed once.
    unsafe fn destroy(p: *mut Self);
}

impl<T: Destroy> Owned<T> {
    /// Takes ownership of `p`, or `None` when it is NULL.
    fn new(p: *mut T) -> Option<Self> {
        NonNull::new(p).map(Owned)
    }

    fn ptr(&self) -> *mut T {
        self.0.as_ptr()
    }
}

impl<T: Destroy> Drop for Owned<T> {
    fn drop(&mut self) {
        // SAFETY: non-null by construction, from the matching constructor, and this guard is
        // its only owner, so it is destroyed exactly once.
        unsafe { T::destroy(self.0.as_ptr()) }
    }
}

macro_rules! destroy_with {
    ($($ty:ty => $f:path;)*) => {$(
        impl Destroy for $ty {
            unsafe fn destroy(p: *mut Self) {
                // SAFETY: per the trait's contract.
                unsafe { $f(p) }
            }
        }
    )*};
}

// Events: nothing borrowed from them outlives the guard (results are copied out first).
// ConfigResource, partition list, ElectLeaders request, topic collection: librdkafka copies
// them when the request is made, so the caller keeps ownership.
destroy_with! {
    sys::rd_kafka_queue_t => sys::rd_kafka_queue_destroy;
    sys::rd_kafka_AdminOptions_t => sys::rd_kafka_AdminOptions_destroy;
    sys::rd_kafka_event_t => sys::rd_kafka_event_destroy;
    sys::rd_kafka_ConfigResource_t => sys::rd_kafka_ConfigResource_destroy;
    sys::rd_kafka_topic_partition_list_t => sys::rd_kafka_topic_partition_list_destroy;
    sys::rd_kafka_ElectLeaders_t => sys::rd_kafka_ElectLeaders_destroy;
    sys::rd_kafka_TopicCollection_t => sys::rd_kafka_TopicCollection_destroy;
}

fn creation_failed(what: &str, detail: &str) -> KafkaError {
    KafkaError::client(what, RdError::AdminOpCreation(detail.into()))
}

// ---------------------------------------------------------------------------------------------
// helpers

/// Copies a C string librdkafka owns; `None` for NULL.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string alive for this call.
unsafe fn string(p: *const c_char) -> Option<String> {
    if p.is_null() {
        None
    } else {
        // SAFETY: non-null and NUL-terminated per the caller's contract.
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}

/// Turns a (pointer, count) array returned by librdkafka into a slice.
///
/// # Safety
/// `p` must be NULL (then `n` is ignored) or point to `n` initialised elements that live
/// as long as the returned slice is used.
unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: per the caller's contract.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

fn cstring(what: &str, s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| KafkaError::InvalidSetting {
        key: what.into(),
        message: format!("{s:?} contains a NUL byte"),
    })
}

fn millis(d: Duration) -> i32 {
    i32::try_from(d.as_millis()).unwrap_or(i32::MAX).max(1)
}

/// Creates the queue and options for `op`, lets `start` begin the call, then waits for the
/// result event of type `event_type` (the pair names one admin call).
///
/// `broker` sends the request to that broker instead of "the controller": in KRaft mode
/// brokers report a random broker as controller, and librdkafka waits for that one even
/// when it has just died, so callers pass a broker known to answer.
fn run(
    admin: &Admin,
    what: &str,
    (op, event_type): (sys::rd_kafka_admin_op_t, i32),
    timeout: Duration,
    operation_timeout: bool,
    broker: Option<i32>,
    start: impl FnOnce(
        *mut sys::rd_kafka_t,
        *const sys::rd_kafka_AdminOptions_t,
        *mut sys::rd_kafka_queue_t,
    ),
) -> Result<Owned<sys::rd_kafka_event_t>> {
    let rk = admin.inner().native_ptr();
    // SAFETY: `rk` is the live client handle owned by `admin`, which outlives this call.
    let queue = Owned::new(unsafe { sys::rd_kafka_queue_new(rk) })
        .ok_or_else(|| creation_failed(what, "out of memory"))?;
    let options = admin_options(admin, what, op, timeout, operation_timeout, broker)?;
    start(rk, options.ptr(), queue.ptr());
    await_result(&queue, what, event_type, timeout)
}

/// The options of one admin call: its request timeout, optionally the operation timeout
/// (the same) and the broker to send it to.
fn admin_options(
    admin: &Admin,
    what: &str,
    op: sys::rd_kafka_admin_op_t,
    timeout: Duration,
    operation_timeout: bool,
    broker: Option<i32>,
) -> Result<Owned<sys::rd_kafka_AdminOptions_t>> {
    let rk = admin.inner().native_ptr();
    // SAFETY: `rk` is the live client handle owned by `admin`; `op` is a valid enum value.
    let options = Owned::new(unsafe { sys::rd_kafka_AdminOptions_new(rk, op) })
        .ok_or_else(|| creation_failed(what, "out of memory"))?;
    let mut errstr = [0 as c_char; 512];
    // SAFETY: `options` is valid; errstr is a writable buffer of the given size.
    let err = unsafe {
        sys::rd_kafka_AdminOptions_set_request_timeout(
            options.ptr(),
            millis(timeout),
            errstr.as_mut_ptr(),
            errstr.len(),
        )
    };
    option_set(what, err, &errstr)?;
    if operation_timeout {
        // SAFETY: as above.
        let err = unsafe {
            sys::rd_kafka_AdminOptions_set_operation_timeout(
                options.ptr(),
                millis(timeout),
                errstr.as_mut_ptr(),
                errstr.len(),
            )
        };
        option_set(what, err, &errstr)?;
    }
    if let Some(id) = broker {
        // SAFETY: as above.
        let err = unsafe {
            sys::rd_kafka_AdminOptions_set_broker(
                options.ptr(),
                id,
                errstr.as_mut_ptr(),
                errstr.len(),
            )
        };
        option_set(what, err, &errstr)?;
    }
    Ok(options)
}

/// The outcome of one `rd_kafka_AdminOptions_set_*` call: an error with the message librdkafka
/// wrote into `errstr` when it refused.
fn option_set(what: &str, err: sys::rd_kafka_resp_err_t, errstr: &[c_char; 512]) -> Result<()> {
    if err == sys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR {
        return Ok(());
    }
    // SAFETY: librdkafka wrote a NUL-terminated message into errstr.
    let msg = unsafe { string(errstr.as_ptr()) }.unwrap_or_default();
    Err(KafkaError::client(what, RdError::AdminOpCreation(msg)))
}

/// Waits on `queue` for the result event of type `event_type`; its error, if any, as a
/// [`KafkaError`] (time-outs as [`KafkaError::Timeout`]).
fn await_result(
    queue: &Owned<sys::rd_kafka_queue_t>,
    what: &str,
    event_type: i32,
    timeout: Duration,
) -> Result<Owned<sys::rd_kafka_event_t>> {
    // librdkafka enforces the request timeout itself; the extra second only guards against
    // a result that never arrives.
    let deadline = Instant::now() + timeout + Duration::from_secs(1);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(KafkaError::Timeout {
                what: what.into(),
                address: "bootstrap servers".into(),
                after: timeout,
            });
        }
        // SAFETY: `queue` is valid for as long as the caller holds it.
        let ev = unsafe {
            sys::rd_kafka_queue_poll(queue.ptr(), millis(left.min(Duration::from_millis(500))))
        };
        let Some(ev) = Owned::new(ev) else {
            continue;
        };
        // SAFETY: `ev` is a valid event until its guard drops.
        let ty = unsafe { sys::rd_kafka_event_type(ev.ptr()) };
        if ty != event_type {
            continue; // not ours (cannot normally happen on a private queue)
        }
        // SAFETY: as above.
        let err = unsafe { sys::rd_kafka_event_error(ev.ptr()) };
        if err == sys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR {
            return Ok(ev);
        }
        // SAFETY: the string lives as long as the event.
        let msg = unsafe { string(sys::rd_kafka_event_error_string(ev.ptr())) }.unwrap_or_default();
        let code = RDKafkaErrorCode::from(err);
        if matches!(
            code,
            RDKafkaErrorCode::OperationTimedOut | RDKafkaErrorCode::RequestTimedOut
        ) {
            return Err(KafkaError::Timeout {
                what: format!("{what} ({msg})"),
                address: "bootstrap servers".into(),
                after: timeout,
            });
        }
        return Err(KafkaError::client(
            format!("{what} ({msg})"),
            RdError::AdminOp(code),
        ));
    }
}

/// Reads a `rd_kafka_error_t` (code, message); `None` for NULL or no error.
///
/// # Safety
/// `e` must be NULL or a valid error object.
unsafe fn error_of(e: *const sys::rd_kafka_error_t) -> Option<(i16, String)> {
    if e.is_null() {
        return None;
    }
    // SAFETY: `e` is valid per the contract.
    let code = unsafe { sys::rd_kafka_error_code(e) };
    if code == sys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR {
        return None;
    }
    // SAFETY: the string lives as long as `e`.
    let msg = unsafe { string(sys::rd_kafka_error_string(e)) }.unwrap_or_default();
    Some((i16::try_from(code as i32).unwrap_or(-1), msg))
}

/// Reads a node; `None` for NULL.
///
/// # Safety
/// `n` must be NULL or a valid node object.
unsafe fn node(n: *const sys::rd_kafka_Node_t) -> Option<NodeAddress> {
    if n.is_null() {
        return None;
    }
    // SAFETY: `n` is valid per the contract; the strings live as long as `n`.
    unsafe {
        Some(NodeAddress {
            id: sys::rd_kafka_Node_id(n),
            host: string(sys::rd_kafka_Node_host(n)).unwrap_or_default(),
            port: sys::rd_kafka_Node_port(n),
            rack: string(sys::rd_kafka_Node_rack(n)),
        })
    }
}

// The four calls live in [`describe`] and [`changes`].

#[cfg(test)]
mod tests {
    use super::*;
    use rdkafka::ClientConfig;

    fn admin() -> Admin {
        // Nothing listens there: the calls below fail before any request is sent.
        ClientConfig::new()
            .set("bootstrap.servers", "127.0.0.1:1")
            .create()
            .expect("admin client")
    }

    /// Regression: the guard was built before the NULL check, so librdkafka's NULL for the
    /// empty-named cluster default went to `rd_kafka_ConfigResource_destroy` (a crash).
    #[test]
    fn the_cluster_default_target_is_a_clear_error_not_a_crash() {
        let change = ConfigChange {
            name: "log.cleaner.threads".into(),
            op: AlterOp::Set,
            value: Some("2".into()),
        };
        let err = incremental_alter_configs(
            &admin(),
            &ConfigTarget::ClusterDefault,
            &[change],
            Duration::from_millis(200),
        )
        .unwrap_err();
        assert!(err.to_string().contains("cluster-wide default"), "{err}");
    }

    #[test]
    fn guards_refuse_null() {
        assert!(Owned::<sys::rd_kafka_ConfigResource_t>::new(std::ptr::null_mut()).is_none());
    }
}
