//! Broker states from a broker-state endpoint (Strimzi's KafkaAgent or a Jolokia read of
//! `kafka.server:type=KafkaServer,name=BrokerState`): the URL of each broker, the answers'
//! shapes, and the observation's fan-out over them.

use std::collections::BTreeMap;

use futures::StreamExt;

use super::{FAN_OUT, KafkaClient};
use crate::kafka::ffi::{ClusterDescription, NodeAddress};
use crate::kafka::observation::{BrokerState, EndpointState, EndpointStates, RecoveryProgress};

impl KafkaClient {
    /// Each broker's state from the broker-state endpoint (unfenced and fenced brokers), with
    /// the URL setting; `None` when no endpoint is configured.
    pub(super) async fn endpoint_states(
        &self,
        cluster: &ClusterDescription,
        fenced_brokers: Option<&Vec<NodeAddress>>,
    ) -> Option<(String, EndpointStates)> {
        let template = self.config.broker_state_url.as_ref()?;
        let nodes: Vec<(i32, String)> = cluster
            .nodes
            .iter()
            .chain(fenced_brokers.into_iter().flatten())
            .map(|n| (n.id, n.host.clone()))
            .collect();
        let states = futures::stream::iter(nodes)
            .map(|(id, host)| async move { (id, self.broker_state(template, id, &host).await) })
            .buffer_unordered(FAN_OUT)
            .collect::<BTreeMap<_, _>>()
            .await;
        Some((template.clone(), states))
    }

    async fn broker_state(
        &self,
        setting: &str,
        id: i32,
        host: &str,
    ) -> std::result::Result<EndpointState, String> {
        let url = broker_state_url(setting, id, host)
            .ok_or_else(|| format!("no broker-state URL for node {id} in {setting:?}"))?;
        let response = self
            .http
            .get(&url)
            .send()
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{url}: HTTP {status}"));
        }
        let body: serde_json::Value = response.json().await.map_err(|e| format!("{url}: {e}"))?;
        parse_broker_state(&body).ok_or_else(|| format!("{url}: no brokerState in {body}"))
    }
}

/// Reads a broker-state endpoint answer: Strimzi KafkaAgent's
/// `{"brokerState": 2, "recoveryState": {...}}` or a Jolokia read of the
/// `kafka.server:type=KafkaServer,name=BrokerState` gauge (`{"value": 3, "status": 200}`).
#[must_use]
pub fn parse_broker_state(body: &serde_json::Value) -> Option<EndpointState> {
    let code = |v: &serde_json::Value| v.as_i64().or_else(|| v.as_f64().map(|f| f as i64));
    if let Some(state) = body.get("brokerState").and_then(code) {
        let recovery = body.get("recoveryState").and_then(|r| {
            Some(RecoveryProgress {
                remaining_logs: r.get("remainingLogsToRecover")?.as_i64()?,
                remaining_segments: r.get("remainingSegmentsToRecover")?.as_i64()?,
            })
        });
        return Some(EndpointState {
            state: BrokerState::from_code(state),
            recovery,
        });
    }
    if body.get("status").and_then(serde_json::Value::as_i64) == Some(200) {
        return Some(EndpointState {
            state: BrokerState::from_code(body.get("value").and_then(code)?),
            recovery: None,
        });
    }
    None
}

/// The broker-state URL of node `id`: `setting` is a template (`{host}`, `{id}`) or a
/// list `ID=URL,ID=URL`.
#[must_use]
pub fn broker_state_url(setting: &str, id: i32, host: &str) -> Option<String> {
    if setting.contains("{host}") || setting.contains("{id}") || !setting.contains('=') {
        return Some(
            setting
                .replace("{host}", host)
                .replace("{id}", &id.to_string()),
        );
    }
    // URLs may contain commas (JMX names): an entry starts only at `<digits>=`.
    let mut entries: Vec<(i32, String)> = Vec::new();
    for part in setting.split(',') {
        let starts_entry = part
            .split_once('=')
            .and_then(|(n, _)| n.trim().parse::<i32>().ok());
        match (starts_entry, entries.last_mut()) {
            (Some(n), _) => {
                let url = part.split_once('=').map_or("", |(_, u)| u);
                entries.push((n, url.trim().to_string()));
            }
            (None, Some((_, url))) => {
                url.push(',');
                url.push_str(part);
            }
            (None, None) => {}
        }
    }
    entries
        .into_iter()
        .find(|(n, _)| *n == id)
        .map(|(_, url)| url)
}

/// The broker ids a broker-state list (`ID=URL,ID=URL`) has no entry for; empty for a
/// template (`{host}`, `{id}`) or a single URL, which cover every broker.
#[must_use]
pub fn missing_broker_state_ids(setting: &str, ids: impl IntoIterator<Item = i32>) -> Vec<i32> {
    let mut missing: Vec<i32> = ids
        .into_iter()
        .filter(|id| broker_state_url(setting, *id, "").is_none())
        .collect();
    missing.sort_unstable();
    missing.dedup();
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strimzi_agent_answers() {
        let s = parse_broker_state(&serde_json::json!({"brokerState": 3})).unwrap();
        assert_eq!((s.state, s.recovery), (BrokerState::Running, None));
        let s = parse_broker_state(&serde_json::json!({
            "brokerState": 2,
            "recoveryState": {"remainingLogsToRecover": 5, "remainingSegmentsToRecover": 40}
        }))
        .unwrap();
        assert_eq!(s.state, BrokerState::Recovery);
        assert_eq!(s.recovery.unwrap().remaining_logs, 5);
        assert!(parse_broker_state(&serde_json::json!({"x": 1})).is_none());
        let s = parse_broker_state(&serde_json::json!({"value": 3, "status": 200})).unwrap();
        assert_eq!(s.state, BrokerState::Running);
        assert!(
            parse_broker_state(&serde_json::json!({"status": 404, "error": "no mbean"})).is_none()
        );
    }

    #[test]
    fn broker_state_urls() {
        assert_eq!(
            broker_state_url("http://{host}:8080/v1/broker-state/", 3, "k3").as_deref(),
            Some("http://k3:8080/v1/broker-state/")
        );
        let list = "1=http://a:1/x,2=http://b:2/jolokia/read/kafka.server:type=KafkaServer,name=BrokerState/Value";
        assert_eq!(
            broker_state_url(list, 1, "h").as_deref(),
            Some("http://a:1/x")
        );
        assert_eq!(
            broker_state_url(list, 2, "h").as_deref(),
            Some("http://b:2/jolokia/read/kafka.server:type=KafkaServer,name=BrokerState/Value")
        );
        assert_eq!(broker_state_url(list, 3, "h"), None);
        assert_eq!(missing_broker_state_ids(list, [3, 1, 2, 5]), vec![3, 5]);
        assert!(missing_broker_state_ids("http://{host}:8080/", [1, 2]).is_empty());
    }
}
