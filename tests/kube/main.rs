//! kafkaops against a real Kubernetes API server (`tests/env/kube/`, `support::kube`) in front of
//! real Kafka clusters: Strimzi discovery and its operator guard, rolls of pods, port-forwards,
//! in-cluster configuration, `operate` with a Lease; and the shipped files (image layout, Helm
//! chart, alert rules, krew manifest) checked with the real tools (`tests/env/ship/`).
//!
//! One test binary (each links the whole crate; see `tests/env/README.md`, "Test binaries").
//!
//! Run with `cargo test --test kube` (one module: `cargo test --test kube kube_roll::`).

mod kube_holds;
mod kube_incluster;
mod kube_journal;
mod kube_operate;
mod kube_operate_holds;
mod kube_platform;
mod kube_roll;
mod ship;
mod strimzi_guard;

#[path = "../support/mod.rs"]
mod support;
