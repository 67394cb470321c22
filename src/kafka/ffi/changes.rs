//! The two changes through librdkafka's C API: IncrementalAlterConfigs on one resource (only
//! the named keys change, unlike rust-rdkafka's replace-all `alter_configs`) and preferred
//! leader elections. Every `unsafe` block says why it is sound (see the parent module).

use std::time::Duration;

use rdkafka_sys as sys;

use super::{
    Admin, AlterOp, ConfigChange, ConfigTarget, ElectionOutcome, Owned, creation_failed, cstring,
    error_of, run, slice, string,
};
use crate::kafka::error::{KafkaError, Result, error_name};

/// IncrementalAlterConfigs on one resource (librdkafka >= 2.2). Only the named keys change.
pub fn incremental_alter_configs(
    admin: &Admin,
    target: &ConfigTarget,
    changes: &[ConfigChange],
    timeout: Duration,
) -> Result<()> {
    let what = match target {
        ConfigTarget::Broker(id) => format!("IncrementalAlterConfigs on broker {id}"),
        ConfigTarget::ClusterDefault => {
            "IncrementalAlterConfigs on the cluster-wide broker default".to_string()
        }
        ConfigTarget::Topic(t) => format!("IncrementalAlterConfigs on topic {t:?}"),
    };
    let resource = config_resource(&what, target, changes)?;
    let mut resources = [resource.ptr()];
    let ev = run(
        admin,
        &what,
        (
            sys::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_INCREMENTALALTERCONFIGS,
            sys::RD_KAFKA_EVENT_INCREMENTALALTERCONFIGS_RESULT,
        ),
        timeout,
        false,
        // librdkafka sends a BROKER resource to that broker itself, anything else anywhere.
        None,
        // SAFETY: one valid resource (copied by librdkafka); other pointers valid for the call.
        |rk, options, queue| unsafe {
            sys::rd_kafka_IncrementalAlterConfigs(rk, resources.as_mut_ptr(), 1, options, queue);
        },
    )?;
    // SAFETY: `ev` is an INCREMENTALALTERCONFIGS_RESULT event; data copied before it drops.
    unsafe {
        let result = sys::rd_kafka_event_IncrementalAlterConfigs_result(ev.ptr());
        let mut n = 0usize;
        let res = if result.is_null() {
            std::ptr::null_mut()
        } else {
            sys::rd_kafka_IncrementalAlterConfigs_result_resources(result, &raw mut n)
        };
        for &r in slice(res, n) {
            let err = sys::rd_kafka_ConfigResource_error(r);
            if err != sys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR {
                let code = i16::try_from(err as i32).unwrap_or(-1);
                return Err(KafkaError::Api {
                    what,
                    node: match target {
                        ConfigTarget::Broker(id) => Some(*id),
                        _ => None,
                    },
                    code,
                    name: error_name(code),
                    message: string(sys::rd_kafka_ConfigResource_error_string(r)),
                });
            }
        }
    }
    Ok(())
}

/// The librdkafka resource for `target` with each of `changes` added as an incremental op.
fn config_resource(
    what: &str,
    target: &ConfigTarget,
    changes: &[ConfigChange],
) -> Result<Owned<sys::rd_kafka_ConfigResource_t>> {
    let (restype, name) = match target {
        ConfigTarget::Broker(id) => (
            sys::rd_kafka_ResourceType_t::RD_KAFKA_RESOURCE_BROKER,
            id.to_string(),
        ),
        ConfigTarget::ClusterDefault => (
            sys::rd_kafka_ResourceType_t::RD_KAFKA_RESOURCE_BROKER,
            String::new(),
        ),
        ConfigTarget::Topic(t) => (
            sys::rd_kafka_ResourceType_t::RD_KAFKA_RESOURCE_TOPIC,
            t.clone(),
        ),
    };
    let cname = cstring("resource name", &name)?;
    // SAFETY: `cname` is a valid C string; the function copies it.
    // librdkafka answers NULL for an empty name, which is how Kafka names the cluster-wide
    // broker default: that target cannot be reached through librdkafka.
    let resource = Owned::new(unsafe { sys::rd_kafka_ConfigResource_new(restype, cname.as_ptr()) })
        .ok_or_else(|| {
            creation_failed(
                what,
                "librdkafka cannot address this resource (the cluster-wide default has an empty name)",
            )
        })?;
    for change in changes {
        let key = cstring("config name", &change.name)?;
        let value = change
            .value
            .as_deref()
            .map(|v| cstring("config value", v))
            .transpose()?;
        let op = match change.op {
            AlterOp::Set => sys::rd_kafka_AlterConfigOpType_t::RD_KAFKA_ALTER_CONFIG_OP_TYPE_SET,
            AlterOp::Delete => {
                sys::rd_kafka_AlterConfigOpType_t::RD_KAFKA_ALTER_CONFIG_OP_TYPE_DELETE
            }
            AlterOp::Append => {
                sys::rd_kafka_AlterConfigOpType_t::RD_KAFKA_ALTER_CONFIG_OP_TYPE_APPEND
            }
            AlterOp::Subtract => {
                sys::rd_kafka_AlterConfigOpType_t::RD_KAFKA_ALTER_CONFIG_OP_TYPE_SUBTRACT
            }
        };
        // SAFETY: `resource` is valid; key/value are valid C strings (value may be NULL for
        // DELETE) that the function copies.
        let err = unsafe {
            sys::rd_kafka_ConfigResource_add_incremental_config(
                resource.ptr(),
                key.as_ptr(),
                op,
                value.as_ref().map_or(std::ptr::null(), |v| v.as_ptr()),
            )
        };
        // SAFETY: `err` is NULL or an error object we own and destroy right after reading.
        if let Some((code, msg)) = unsafe { error_of(err) } {
            // SAFETY: non-null error object owned by us.
            unsafe { sys::rd_kafka_error_destroy(err) };
            return Err(KafkaError::InvalidSetting {
                key: change.name.clone(),
                message: format!("{msg} ({})", error_name(code)),
            });
        }
        if !err.is_null() {
            // SAFETY: as above.
            unsafe { sys::rd_kafka_error_destroy(err) };
        }
    }
    Ok(resource)
}

/// Preferred leader election (librdkafka >= 2.6) for `partitions`, or for every partition
/// when `None` (then the result lists only partitions that had an election or an error).
pub fn elect_preferred_leaders(
    admin: &Admin,
    partitions: Option<&[(String, i32)]>,
    broker: Option<i32>,
    timeout: Duration,
) -> Result<Vec<ElectionOutcome>> {
    let what = "ElectLeaders (preferred)";
    let list = match partitions {
        None => None,
        Some(ps) => {
            // SAFETY: plain allocation; owned by the guard.
            let list = Owned::new(unsafe {
                sys::rd_kafka_topic_partition_list_new(i32::try_from(ps.len()).unwrap_or(i32::MAX))
            })
            .ok_or_else(|| creation_failed(what, "out of memory"))?;
            for (topic, partition) in ps {
                let t = cstring("topic name", topic)?;
                // SAFETY: `list` is valid; `t` is a valid C string the function copies.
                unsafe {
                    sys::rd_kafka_topic_partition_list_add(list.ptr(), t.as_ptr(), *partition)
                };
            }
            Some(list)
        }
    };
    // SAFETY: the list (or NULL for "all partitions") is copied by the constructor.
    let req = Owned::new(unsafe {
        sys::rd_kafka_ElectLeaders_new(
            sys::rd_kafka_ElectionType_t::RD_KAFKA_ELECTION_TYPE_PREFERRED,
            list.as_ref().map_or(std::ptr::null_mut(), Owned::ptr),
        )
    })
    .ok_or_else(|| creation_failed(what, "invalid election"))?;
    let ev = run(
        admin,
        what,
        (
            sys::rd_kafka_admin_op_t::RD_KAFKA_ADMIN_OP_ELECTLEADERS,
            sys::RD_KAFKA_EVENT_ELECTLEADERS_RESULT,
        ),
        timeout,
        true,
        // Brokers forward ElectLeaders to the active controller.
        broker,
        // SAFETY: all pointers valid for the call; librdkafka copies the request.
        |rk, options, queue| unsafe { sys::rd_kafka_ElectLeaders(rk, req.ptr(), options, queue) },
    )?;
    let mut out = Vec::new();
    // SAFETY: `ev` is an ELECTLEADERS_RESULT event; data copied before it drops.
    unsafe {
        let result = sys::rd_kafka_event_ElectLeaders_result(ev.ptr());
        if result.is_null() {
            return Ok(out);
        }
        let mut n = 0usize;
        let parts = sys::rd_kafka_ElectLeaders_result_partitions(result, &raw mut n);
        for &pr in slice(parts, n) {
            let tp = sys::rd_kafka_topic_partition_result_partition(pr);
            if tp.is_null() {
                continue;
            }
            let error = error_of(sys::rd_kafka_topic_partition_result_error(pr))
                .filter(|(code, _)| *code != 84);
            out.push(ElectionOutcome {
                topic: string((*tp).topic).unwrap_or_default(),
                partition: (*tp).partition,
                error,
            });
        }
    }
    Ok(out)
}
