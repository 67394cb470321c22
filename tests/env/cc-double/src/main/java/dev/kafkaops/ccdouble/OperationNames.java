package dev.kafkaops.ccdouble;

import java.util.Map;

/**
 * The sentence a real Cruise Control puts in a 202 body's {@code progress[].operation} (its
 * {@code OperationFuture} names, e.g. "Add brokers"), from the double's internal operation name
 * (reference section 13, "202 bodies").
 */
final class OperationNames {
    private OperationNames() {}

    private static final Map<String, String> SENTENCES = Map.ofEntries(
        Map.entry("GetProposals", "Get customized proposals"),
        Map.entry("Rebalance", "Rebalance"),
        Map.entry("AddBroker", "Add brokers"),
        Map.entry("RemoveBroker", "Remove brokers"),
        Map.entry("UpdateTopicConfiguration", "Update Topic Configuration"),
        Map.entry("GetState", "Get state"),
        Map.entry("Load", "Get broker stats"),
        Map.entry("StopProposalExecution", "Stop proposal execution"),
        Map.entry("KafkaClusterState", "Get Kafka cluster state"),
        Map.entry("UserTasks", "Get user tasks"));

    /** CC names the partition-load operation with its time range: "Get partition load from START to END". */
    static String partitionLoad(long startMs, long endMs) { return "Get partition load from " + startMs + " to " + endMs; }

    static String sentence(String operation) {
        if (operation.equals("PartitionLoad")) return partitionLoad(-1, System.currentTimeMillis());
        return SENTENCES.getOrDefault(operation, operation);
    }
}
