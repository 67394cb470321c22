package dev.kafkaops.ccdouble;

import java.util.Map;

/**
 * The sentence a real Cruise Control puts in a 202 body's {@code progress[].operation} (its
 * {@code OperationFuture} names, e.g. "Add brokers"), from the double's internal operation name
 * (reference section 13, "202 bodies").
 */
final class OperationNames {
    private OperationNames() {}

    private static final Map<String, String> SENTENCES = Map.of(
        "GetProposals", "Get customized proposals",
        "Rebalance", "Rebalance",
        "AddBroker", "Add brokers",
        "RemoveBroker", "Remove brokers",
        "UpdateTopicConfiguration", "Update Topic Configuration",
        "GetState", "Get state",
        "Load", "Get broker stats",
        "StopProposalExecution", "Stop proposal execution",
        "KafkaClusterState", "Get Kafka cluster state",
        "UserTasks", "Get user tasks");

    static String sentence(String operation) { return SENTENCES.getOrDefault(operation, operation); }
}
