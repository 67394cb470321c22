//! The two reads through librdkafka's C API: DescribeCluster (only for settings the wire path
//! cannot honour) and DescribeTopics, copied into plain values while the result event lives.
//! Every `unsafe` block says why it is sound (see the parent module for the pattern).

use std::ffi::{CString, c_char};
use std::time::Duration;

use rdkafka::error::KafkaError as RdError;

use rdkafka_sys as sys;

use super::{
    Admin, ClusterDescription, Owned, PartitionDescription, TopicDescription, creation_failed,
    cstring, error_of, node, run, slice, string,
};
use crate::kafka::error::{KafkaError, Result, error_name};

/// DescribeCluster (librdkafka >= 2.3): only for connection settings kafkaops' own protocol
/// path cannot honour (e.g. GSSAPI); the observation uses `wire_admin::describe_brokers`, as
/// librdkafka fails on answers listing more than 32 racked brokers with short host names.
pub fn describe_cluster(
    admin: &Admin,
    broker: Option<i32>,
    timeout: Duration,
) -> Result<ClusterDescription> {
    let what = "DescribeCluster";
    let ev = run(
        admin,
        what,
        (
            sys::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_DESCRIBECLUSTER,
            sys::RD_KAFKA_EVENT_DESCRIBECLUSTER_RESULT,
        ),
        timeout,
        false,
        broker,
        // SAFETY: rk, options and queue are valid for the duration of the call.
        |rk, options, queue| unsafe { sys::rd_kafka_DescribeCluster(rk, options, queue) },
    )?;
    // SAFETY: `ev` is a DESCRIBECLUSTER_RESULT event (type checked in `run`); everything
    // read below lives as long as the event and is copied before it is destroyed.
    unsafe {
        let result = sys::rd_kafka_event_DescribeCluster_result(ev.ptr());
        if result.is_null() {
            return Err(KafkaError::client(
                what,
                RdError::AdminOpCreation("no result".into()),
            ));
        }
        let mut n = 0usize;
        let nodes = sys::rd_kafka_DescribeCluster_result_nodes(result, &raw mut n);
        let nodes = slice(nodes, n).iter().filter_map(|p| node(*p)).collect();
        Ok(ClusterDescription {
            cluster_id: string(sys::rd_kafka_DescribeCluster_result_cluster_id(result)),
            controller: node(sys::rd_kafka_DescribeCluster_result_controller(result)).map(|n| n.id),
            nodes,
        })
    }
}

/// DescribeTopics for `names` (librdkafka >= 2.3). Topics that fail to describe are an error
/// naming the topic: an observation with a missing topic would hide its partitions from
/// the safety checks.
pub fn describe_topics(
    admin: &Admin,
    names: &[String],
    broker: Option<i32>,
    timeout: Duration,
) -> Result<Vec<TopicDescription>> {
    let what = "DescribeTopics";
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let owned: Vec<CString> = names
        .iter()
        .map(|n| cstring("topic name", n))
        .collect::<Result<_>>()?;
    let mut ptrs: Vec<*const c_char> = owned.iter().map(|c| c.as_ptr()).collect();
    // SAFETY: `ptrs` holds `ptrs.len()` valid C strings (kept alive by `owned`); the
    // function copies them.
    let topics = Owned::new(unsafe {
        sys::rd_kafka_TopicCollection_of_topic_names(ptrs.as_mut_ptr(), ptrs.len())
    })
    .ok_or_else(|| creation_failed(what, "invalid topic names"))?;
    let ev = run(
        admin,
        what,
        (
            sys::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_DESCRIBETOPICS,
            sys::RD_KAFKA_EVENT_DESCRIBETOPICS_RESULT,
        ),
        timeout,
        false,
        broker,
        // SAFETY: all pointers valid for the call; the collection is copied by librdkafka.
        |rk, options, queue| unsafe {
            sys::rd_kafka_DescribeTopics(rk, topics.ptr(), options, queue)
        },
    )?;
    let mut out = Vec::new();
    // SAFETY: `ev` is a DESCRIBETOPICS_RESULT event; all pointers read below live as long as
    // the event and their data is copied out before it is destroyed.
    unsafe {
        let result = sys::rd_kafka_event_DescribeTopics_result(ev.ptr());
        if result.is_null() {
            return Err(KafkaError::client(
                what,
                RdError::AdminOpCreation("no result".into()),
            ));
        }
        let mut n = 0usize;
        let descs = sys::rd_kafka_DescribeTopics_result_topics(result, &raw mut n);
        for &d in slice(descs, n) {
            let name = string(sys::rd_kafka_TopicDescription_name(d)).unwrap_or_default();
            if let Some((code, msg)) = error_of(sys::rd_kafka_TopicDescription_error(d)) {
                return Err(KafkaError::Api {
                    what: format!("DescribeTopics for topic {name:?}"),
                    node: None,
                    code,
                    name: error_name(code),
                    message: Some(msg),
                });
            }
            let mut pn = 0usize;
            let parts = sys::rd_kafka_TopicDescription_partitions(d, &raw mut pn);
            let mut partitions: Vec<PartitionDescription> = slice(parts, pn)
                .iter()
                .map(|&p| partition_description(p))
                .collect();
            partitions.sort_by_key(|p| p.partition);
            out.push(TopicDescription {
                name,
                internal: sys::rd_kafka_TopicDescription_is_internal(d) != 0,
                partitions,
            });
        }
    }
    Ok(out)
}

/// One partition of a topic description: its leader, replicas and ISR by node id.
///
/// # Safety
/// `p` must be a valid partition info object of a live DescribeTopics result.
unsafe fn partition_description(
    p: *const sys::rd_kafka_TopicPartitionInfo_t,
) -> PartitionDescription {
    // SAFETY: `p` is valid per the contract; the node arrays and nodes live as long as it.
    unsafe {
        let mut rn = 0usize;
        let replicas = sys::rd_kafka_TopicPartitionInfo_replicas(p, &raw mut rn);
        let mut ina = 0usize;
        let isr = sys::rd_kafka_TopicPartitionInfo_isr(p, &raw mut ina);
        PartitionDescription {
            partition: sys::rd_kafka_TopicPartitionInfo_partition(p),
            leader: node(sys::rd_kafka_TopicPartitionInfo_leader(p))
                .map(|x| x.id)
                .filter(|id| *id >= 0),
            replicas: node_ids(replicas, rn),
            isr: node_ids(isr, ina),
        }
    }
}

/// The ids of the `n` nodes at `nodes` (NULL entries skipped).
///
/// # Safety
/// `nodes` must be NULL (with `n` 0) or point to `n` node pointers, each NULL or valid.
unsafe fn node_ids(nodes: *mut *const sys::rd_kafka_Node_t, n: usize) -> Vec<i32> {
    // SAFETY: per the contract.
    unsafe {
        slice(nodes, n)
            .iter()
            .filter_map(|x| node(*x))
            .map(|x| x.id)
            .collect()
    }
}
