//! Configs over the wire: DescribeConfigs for a node's own configs (only that node answers for
//! its static ones, and controllers only on their own listener), for topics in batches (without
//! librdkafka's per-broker threads), the topic-level `min.insync.replicas` overrides the roll's
//! safety check needs, and IncrementalAlterConfigs on the cluster-wide broker default, which
//! librdkafka cannot address. Sensitive values never leave this module.

use std::collections::BTreeMap;

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::incremental_alter_configs_request::{
    AlterConfigsResource, AlterableConfig,
};
use kafka_protocol::messages::{
    DescribeConfigsRequest, DescribeConfigsResponse, IncrementalAlterConfigsRequest,
};
use kafka_protocol::protocol::StrBytes;

use super::api_err;
use crate::engine::view::{ConfigEntry, ConfigSource};
use crate::kafka::error::{KafkaError, Result, error_name};
use crate::kafka::ffi::{AlterOp, ConfigChange};
use crate::kafka::wire::Connection;

fn config_source(code: i8) -> ConfigSource {
    match code {
        1 => ConfigSource::DynamicTopic,
        2 => ConfigSource::DynamicBroker,
        3 => ConfigSource::DynamicDefaultBroker,
        4 => ConfigSource::StaticBroker,
        5 => ConfigSource::Default,
        _ => ConfigSource::Unknown,
    }
}

/// The config entries of one DescribeConfigs result (sensitive values dropped).
fn config_entries(
    result: &kafka_protocol::messages::describe_configs_response::DescribeConfigsResult,
) -> Vec<ConfigEntry> {
    result
        .configs
        .iter()
        .map(|c| ConfigEntry {
            name: c.name.as_str().to_string(),
            value: if c.is_sensitive {
                None
            } else {
                c.value.as_ref().map(|v| v.as_str().to_string())
            },
            read_only: c.read_only,
            source: config_source(c.config_source),
            sensitive: c.is_sensitive,
        })
        .collect()
}

fn describe_configs_version(conn: &Connection, needed_for: &str) -> Result<i16> {
    let v = conn.version::<DescribeConfigsRequest>(needed_for)?;
    if v < 1 {
        // v0 has no config source: a topic override cannot be told from a broker default.
        return Err(KafkaError::UnsupportedApi {
            address: conn.address().into(),
            api: "DescribeConfigs v1 (Kafka >= 1.1)".into(),
            needed_for: needed_for.into(),
        });
    }
    Ok(v)
}

/// Every config of broker `id`, asked of the broker at the other end of `conn` (which must be
/// broker `id`: only a broker answers for its own static configs).
pub async fn describe_broker_configs(conn: &mut Connection, id: i32) -> Result<Vec<ConfigEntry>> {
    let v = describe_configs_version(conn, "reading a broker's configs")?;
    let request = DescribeConfigsRequest::default().with_resources(vec![
        DescribeConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(StrBytes::from_string(id.to_string()))
            .with_configuration_keys(None),
    ]);
    let response = conn.send_at(&request, v).await?;
    let result = response
        .results
        .first()
        .ok_or_else(|| KafkaError::Protocol {
            what: "DescribeConfigs".into(),
            address: conn.address().into(),
            message: "empty result".into(),
        })?;
    if result.error_code != 0 {
        return Err(KafkaError::Api {
            what: format!("DescribeConfigs of broker {id} via {}", conn.address()),
            node: Some(id),
            code: result.error_code,
            name: error_name(result.error_code),
            message: result
                .error_message
                .as_ref()
                .map(|m| m.as_str().to_string()),
        });
    }
    Ok(config_entries(result))
}

/// The configs of each of `topics` (only `keys`, or all of them for `None`), by topic, in
/// requests of 200 topics (DescribeConfigs TOPIC; any broker answers). What librdkafka's
/// DescribeConfigs would give, without its client (issue #27: that client keeps a thread per
/// broker of the cluster).
///
/// # Errors
/// A request fails, or one topic's answer carries an error.
pub async fn describe_topic_configs(
    conn: &mut Connection,
    topics: &[String],
    keys: Option<&[&str]>,
) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
    let v = describe_configs_version(conn, "reading topic configs")?;
    let mut out = BTreeMap::new();
    for chunk in topics.chunks(200) {
        let request = DescribeConfigsRequest::default().with_resources(
            chunk
                .iter()
                .map(|t| {
                    DescribeConfigsResource::default()
                        .with_resource_type(2)
                        .with_resource_name(StrBytes::from_string(t.clone()))
                        .with_configuration_keys(keys.map(|keys| {
                            keys.iter()
                                .map(|k| StrBytes::from_string((*k).to_string()))
                                .collect()
                        }))
                })
                .collect(),
        );
        let response = conn.send_at(&request, v).await?;
        out.extend(decode_topic_configs(&response, conn.address())?);
    }
    Ok(out)
}

/// The configs by topic of a DescribeConfigs answer about topics (an error for the first topic
/// answered with one).
///
/// # Errors
/// A topic's result carries an error code.
pub fn decode_topic_configs(
    response: &DescribeConfigsResponse,
    address: &str,
) -> Result<BTreeMap<String, Vec<ConfigEntry>>> {
    let mut out = BTreeMap::new();
    for r in &response.results {
        let topic = r.resource_name.as_str();
        if r.error_code != 0 {
            return Err(KafkaError::Api {
                what: format!("DescribeConfigs of topic {topic:?} via {address}"),
                node: None,
                code: r.error_code,
                name: error_name(r.error_code),
                message: r.error_message.as_ref().map(|m| m.as_str().to_string()),
            });
        }
        out.insert(topic.to_string(), config_entries(r));
    }
    Ok(out)
}

/// Per topic whose configs could be read: its topic-level `min.insync.replicas` override
/// (config source DYNAMIC_TOPIC_CONFIG), `None` when it has none. Asked for that one key, in
/// requests of 200 topics. A topic whose configs could not be read, or whose override cannot
/// be parsed, is left out (unknown: the roll refuses to restart its replicas), with the reason
/// logged; a failed request leaves its topics out the same way.
pub async fn topic_min_isr_overrides(
    conn: &mut Connection,
    topics: &[String],
) -> BTreeMap<String, Option<i32>> {
    let mut out = BTreeMap::new();
    let v = match describe_configs_version(conn, "reading topic configs") {
        Ok(v) => v,
        Err(e) => {
            tracing::warn!("{e}; min.insync.replicas of every topic is unknown");
            return out;
        }
    };
    for chunk in topics.chunks(200) {
        let request = DescribeConfigsRequest::default().with_resources(
            chunk
                .iter()
                .map(|t| {
                    DescribeConfigsResource::default()
                        .with_resource_type(2)
                        .with_resource_name(StrBytes::from_string(t.clone()))
                        .with_configuration_keys(Some(vec![StrBytes::from_static_str(
                            "min.insync.replicas",
                        )]))
                })
                .collect(),
        );
        let response = match conn.send_at(&request, v).await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(
                    "DescribeConfigs of {} topic(s) failed: {e}; their min.insync.replicas \
                     is unknown",
                    chunk.len()
                );
                continue;
            }
        };
        out.extend(decode_min_isr_overrides(&response));
    }
    out
}

/// The topic-level `min.insync.replicas` overrides of a DescribeConfigs answer about topics.
pub fn decode_min_isr_overrides(
    response: &DescribeConfigsResponse,
) -> BTreeMap<String, Option<i32>> {
    let mut out = BTreeMap::new();
    for r in &response.results {
        let topic = r.resource_name.as_str();
        if r.error_code != 0 {
            tracing::warn!(
                "DescribeConfigs of topic {topic:?} failed: {}; its min.insync.replicas is \
                 unknown",
                error_name(r.error_code)
            );
            continue;
        }
        let entry = r
            .configs
            .iter()
            .find(|c| c.name.as_str() == "min.insync.replicas");
        let value = match entry {
            Some(c) if config_source(c.config_source) == ConfigSource::DynamicTopic => {
                match c
                    .value
                    .as_ref()
                    .and_then(|v| v.as_str().trim().parse::<i32>().ok())
                {
                    Some(v) => Some(v),
                    None => {
                        tracing::warn!(
                            "topic {topic:?}: unreadable min.insync.replicas override {:?}; \
                             treated as unknown",
                            c.value
                        );
                        continue;
                    }
                }
            }
            _ => None,
        };
        out.insert(topic.to_string(), value);
    }
    out
}

/// One config value of node `node_id`, asked of that node itself (DescribeConfigs BROKER).
pub async fn describe_node_config(
    conn: &mut Connection,
    node_id: i32,
    key: &str,
) -> Result<Option<String>> {
    let mut values =
        describe_node_configs(conn, node_id, &[key], "reading a controller's config").await?;
    Ok(values.remove(key).flatten())
}

/// Several config values of node `node_id`, asked of that node itself (DescribeConfigs BROKER);
/// `what` names the read in errors.
pub async fn describe_node_configs(
    conn: &mut Connection,
    node_id: i32,
    keys: &[&str],
    what: &str,
) -> Result<BTreeMap<String, Option<String>>> {
    let request = DescribeConfigsRequest::default().with_resources(vec![
        DescribeConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(StrBytes::from_string(node_id.to_string()))
            .with_configuration_keys(Some(
                keys.iter()
                    .map(|k| StrBytes::from_string((*k).to_string()))
                    .collect(),
            )),
    ]);
    let (_, response) = conn.send(&request, what).await?;
    let result = response
        .results
        .first()
        .ok_or_else(|| KafkaError::Protocol {
            what: "DescribeConfigs".into(),
            address: conn.address().into(),
            message: "empty result".into(),
        })?;
    if result.error_code != 0 {
        return Err(KafkaError::Api {
            what: format!("DescribeConfigs via {}", conn.address()),
            node: Some(node_id),
            code: result.error_code,
            name: error_name(result.error_code),
            message: result
                .error_message
                .as_ref()
                .map(|m| m.as_str().to_string()),
        });
    }
    Ok(result
        .configs
        .iter()
        .map(|c| {
            (
                c.name.as_str().to_string(),
                c.value.as_ref().map(|v| v.as_str().to_string()),
            )
        })
        .collect())
}

/// IncrementalAlterConfigs on the cluster-wide broker default (`BROKER` resource with an
/// empty name), which librdkafka cannot address. Any broker forwards it to the controller.
/// With eligible leader replicas (KIP-966) this is where `min.insync.replicas` is set.
pub async fn alter_cluster_default(conn: &mut Connection, changes: &[ConfigChange]) -> Result<()> {
    let configs = changes
        .iter()
        .map(|c| {
            AlterableConfig::default()
                .with_name(StrBytes::from_string(c.name.clone()))
                .with_config_operation(match c.op {
                    AlterOp::Set => 0,
                    AlterOp::Delete => 1,
                    AlterOp::Append => 2,
                    AlterOp::Subtract => 3,
                })
                .with_value(c.value.clone().map(StrBytes::from_string))
        })
        .collect();
    let request = IncrementalAlterConfigsRequest::default().with_resources(vec![
        AlterConfigsResource::default()
            .with_resource_type(4)
            .with_resource_name(StrBytes::from_static_str(""))
            .with_configs(configs),
    ]);
    let (_, response) = conn
        .send(&request, "altering the cluster-wide broker default")
        .await?;
    for r in &response.responses {
        if r.error_code != 0 {
            return Err(api_err(
                "IncrementalAlterConfigs on the cluster-wide broker default",
                conn.address(),
                r.error_code,
                r.error_message.as_ref(),
            ));
        }
    }
    Ok(())
}
