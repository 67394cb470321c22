//! Unit tests: directory ids, ApiVersions features, UpdateFeatures requests, controller
//! endpoints and the quorum view.

use super::*;
use crate::kafka::observation::RawQuorum;
use kafka_protocol::messages::api_versions_response::{FinalizedFeatureKey, SupportedFeatureKey};
use kafka_protocol::protocol::{Decodable, Encodable};
use std::collections::BTreeSet;

#[test]
fn directory_ids_round_trip_in_kafkas_text_form() {
    // A directory id as the 4.4.0 storage tool wrote it to meta.properties.
    let text = "GVggfGC5QpqGcRcUJNm86Q";
    let id = parse_directory_id(text).unwrap();
    assert_eq!(directory_id_text(&id).as_deref(), Some(text));
    assert_eq!(directory_id_text(&uuid::Uuid::nil()), None);
    assert!(parse_directory_id("not-base64!").is_err());
    assert!(parse_directory_id("AAAA").is_err());
}

#[test]
fn api_versions_features_are_read_per_node() {
    let response = ApiVersionsResponse::default()
        .with_supported_features(vec![
            SupportedFeatureKey::default()
                .with_name(StrBytes::from_static_str("metadata.version"))
                .with_min_version(7)
                .with_max_version(33),
            SupportedFeatureKey::default()
                .with_name(StrBytes::from_static_str("kraft.version"))
                .with_min_version(0)
                .with_max_version(1),
        ])
        .with_finalized_features_epoch(42)
        .with_finalized_features(vec![
            FinalizedFeatureKey::default()
                .with_name(StrBytes::from_static_str("metadata.version"))
                .with_min_version_level(30)
                .with_max_version_level(30),
        ]);
    // Through the codec at v4, as a v4 answer arrives.
    let mut buf = bytes::BytesMut::new();
    response.encode(&mut buf, 4).unwrap();
    let decoded = ApiVersionsResponse::decode(&mut buf.freeze(), 4).unwrap();
    let f = NodeFeatures::from_api_versions(&decoded, 4);
    assert_eq!(
        f.supported["metadata.version"],
        LevelRange { min: 7, max: 33 }
    );
    assert_eq!(f.supported["kraft.version"], LevelRange { min: 0, max: 1 });
    assert_eq!(f.finalized["metadata.version"], 30);
    assert_eq!(f.finalized_epoch, Some(42));
    // kraft.version 0 is left out of the finalized features: static.
    assert_eq!(finalized_kraft_version(&f), Some(0));
    let unknown = NodeFeatures::default();
    assert_eq!(finalized_kraft_version(&unknown), None);
}

#[test]
fn update_features_request_carries_validate_only_and_the_upgrade_type() {
    let r = update_features_request(
        &[FeatureUpdate {
            feature: "metadata.version".into(),
            level: 33,
            kind: UpgradeKind::Upgrade,
        }],
        true,
        5000,
    );
    assert!(r.validate_only);
    assert_eq!(r.feature_updates[0].upgrade_type, 1);
    assert!(!r.feature_updates[0].allow_downgrade);
    assert_eq!(r.feature_updates[0].max_version_level, 33);
    // v0 cannot carry ValidateOnly (the codec refuses rather than drop it); v1+ can.
    r.encode(&mut bytes::BytesMut::new(), 2).unwrap();
    r.encode(&mut bytes::BytesMut::new(), 1).unwrap();
    assert!(r.encode(&mut bytes::BytesMut::new(), 0).is_err());
}

#[test]
fn controller_endpoints_follow_the_names_and_prefer_advertised() {
    let e = controller_endpoints(
        Some("PLAINTEXT://0.0.0.0:9092,CONTROLLER://:9093"),
        Some("PLAINTEXT://b1:9092,CONTROLLER://c1.example:9093"),
        "CONTROLLER",
    )
    .unwrap();
    assert_eq!(
        e,
        vec![RaftEndpoint {
            name: "CONTROLLER".into(),
            host: "c1.example".into(),
            port: 9093
        }]
    );
    let local = controller_endpoints(Some("CONTROLLER://:9093"), None, "controller").unwrap();
    assert_eq!(local[0].host, "localhost");
    assert!(controller_endpoints(Some("PLAINTEXT://:9092"), None, "CONTROLLER").is_err());
}

#[test]
fn quorum_view_keeps_directory_ids_and_running_answers() {
    let q = RawQuorum {
        leader_id: Some(1),
        leader_epoch: 4,
        high_watermark: -1,
        voters: vec![super::super::observation::ReplicaObservation {
            id: 1,
            log_end_offset: -1,
            last_fetch_timestamp: Some(10),
            last_caught_up_timestamp: Some(10),
            directory_id: Some("d1".into()),
        }],
        observers: vec![],
        answered_by: "c:1".into(),
        voter_endpoints: BTreeMap::new(),
        version: 2,
    };
    let v = quorum_view(
        &q,
        Some(1),
        &BTreeSet::from([1]),
        &BTreeMap::from([(1, true)]),
    );
    assert_eq!(v.high_watermark, None);
    assert_eq!(v.voters[0].log_end_offset, None);
    assert_eq!(v.voters[0].directory_id.as_deref(), Some("d1"));
    assert_eq!(v.voters[0].running, Some(true));
}
