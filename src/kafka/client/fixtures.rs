//! Test builders the client's unit tests share (a broker address, a topic of given replica
//! lists), so each test module does not keep its own copy.

use crate::kafka::ffi::{NodeAddress, PartitionDescription, TopicDescription};

/// Broker `id` at `b{id}:9092`.
pub(crate) fn addr(id: i32) -> NodeAddress {
    NodeAddress {
        id,
        host: format!("b{id}"),
        port: 9092,
        rack: None,
    }
}

/// Topic `name` whose partition `i` has replicas `replicas[i]`, all in sync, the first leading.
pub(crate) fn topic(name: &str, replicas: &[&[i32]]) -> TopicDescription {
    TopicDescription {
        name: name.into(),
        internal: false,
        partitions: replicas
            .iter()
            .enumerate()
            .map(|(i, r)| PartitionDescription {
                partition: i32::try_from(i).unwrap(),
                leader: r.first().copied(),
                replicas: r.to_vec(),
                isr: r.to_vec(),
            })
            .collect(),
    }
}
