//! The config entries DescribeConfigs answers with: a real Kafka 4.4.0 broker's, controller's
//! and topic's (captured once; how is said at the top of each `configs/*.tsv`), with each node's
//! own values (`node.id`, listeners, rack, ...) filled in.

use kafka_protocol::messages::describe_configs_response::{
    DescribeConfigsResourceResult, DescribeConfigsSynonym,
};
use kafka_protocol::protocol::StrBytes;

use super::model::{Cluster, Node, Topic};

/// DescribeConfigs `ConfigSource` codes.
pub const DYNAMIC_TOPIC_CONFIG: i8 = 1;

/// One captured entry; `value` may hold `{id}`, `{host}`, `{port}`, `{rack}`,
/// `{controllers}` (the quorum's `host:port` list) and `{voters}` (`id@host:port` list).
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub value: Option<String>,
    pub source: i8,
    pub read_only: bool,
    pub sensitive: bool,
    pub config_type: i8,
}

fn parse(tsv: &str) -> Vec<Entry> {
    tsv.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 6, "bad config line {l:?}");
            Entry {
                name: f[0].to_string(),
                value: (f[1] != "\\N").then(|| f[1].to_string()),
                source: f[2].parse().expect("source"),
                read_only: f[3] == "1",
                sensitive: f[4] == "1",
                config_type: f[5].parse().expect("type"),
            }
        })
        .collect()
}

/// The entries of each kind of resource, parsed once.
#[derive(Debug, Clone)]
pub struct Configs {
    pub broker: Vec<Entry>,
    pub controller: Vec<Entry>,
    pub topic: Vec<Entry>,
}

impl Configs {
    #[must_use]
    pub fn load() -> Self {
        Self {
            broker: parse(include_str!("configs/broker.tsv")),
            controller: parse(include_str!("configs/controller.tsv")),
            topic: parse(include_str!("configs/topic.tsv")),
        }
    }
}

fn fill(value: &str, node: &Node, cluster: &Cluster) -> String {
    if !value.contains('{') {
        return value.to_string();
    }
    let controllers = cluster.bootstrap_controllers();
    let voters = cluster
        .controllers
        .iter()
        .map(|c| format!("{}@{}:{}", c.id, c.host, c.port))
        .collect::<Vec<_>>()
        .join(",");
    value
        .replace("{id}", &node.id.to_string())
        .replace("{host}", &node.host)
        .replace("{port}", &node.port.to_string())
        .replace("{rack}", node.rack.as_deref().unwrap_or(""))
        .replace("{controllers}", &controllers)
        .replace("{voters}", &voters)
}

fn result(
    e: &Entry,
    value: Option<String>,
    synonyms: bool,
    version: i16,
) -> DescribeConfigsResourceResult {
    let value = if e.sensitive { None } else { value };
    let mut r = DescribeConfigsResourceResult::default()
        .with_name(StrBytes::from_string(e.name.clone()))
        .with_value(value.clone().map(StrBytes::from_string))
        .with_read_only(e.read_only)
        .with_config_source(e.source)
        .with_is_sensitive(e.sensitive);
    if synonyms {
        r = r.with_synonyms(vec![
            DescribeConfigsSynonym::default()
                .with_name(StrBytes::from_string(e.name.clone()))
                .with_value(value.map(StrBytes::from_string))
                .with_source(e.source),
        ]);
    }
    if version >= 3 {
        r = r.with_config_type(e.config_type);
    }
    r
}

fn wanted(keys: Option<&[StrBytes]>, name: &str) -> bool {
    keys.is_none_or(|k| k.iter().any(|k| k.as_str() == name))
}

/// Node `node`'s own config (a broker's or a controller's).
#[must_use]
pub fn node_entries(
    configs: &Configs,
    cluster: &Cluster,
    node: &Node,
    keys: Option<&[StrBytes]>,
    synonyms: bool,
    version: i16,
) -> Vec<DescribeConfigsResourceResult> {
    let list = if node.controller {
        &configs.controller
    } else {
        &configs.broker
    };
    list.iter()
        .filter(|e| wanted(keys, &e.name))
        .map(|e| {
            // A broker without a rack has no broker.rack value.
            let value = match e.value.as_deref() {
                Some("{rack}") if node.rack.is_none() => None,
                v => v.map(|v| fill(v, node, cluster)),
            };
            result(e, value, synonyms, version)
        })
        .collect()
}

/// A topic's config: the defaults, with its `min.insync.replicas` override if it has one.
#[must_use]
pub fn topic_entries(
    configs: &Configs,
    topic: &Topic,
    keys: Option<&[StrBytes]>,
    synonyms: bool,
    version: i16,
) -> Vec<DescribeConfigsResourceResult> {
    configs
        .topic
        .iter()
        .filter(|e| wanted(keys, &e.name))
        .map(|e| match (e.name.as_str(), topic.min_insync_replicas) {
            ("min.insync.replicas", Some(v)) => {
                let e = Entry {
                    source: DYNAMIC_TOPIC_CONFIG,
                    read_only: false,
                    ..e.clone()
                };
                result(&e, Some(v.to_string()), synonyms, version)
            }
            _ => result(e, e.value.clone(), synonyms, version),
        })
        .collect()
}
