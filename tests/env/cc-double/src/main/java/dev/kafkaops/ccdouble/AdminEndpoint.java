package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * {@code POST /admin}: the concurrency part of Cruise Control's AdminRequest
 * ({@code processChangeExecutionConcurrencyRequest}). The requested values apply to the running execution
 * at once (the executor reads them before each batch it submits); the answer is CC's AdminResult with
 * {@code ongoingConcurrencyChangeRequest}, one sentence per changed value. Self-healing and
 * recently-removed/demoted toggles are accepted as parameters but not modelled (400 says so).
 */
final class AdminEndpoint {
    static final List<String> PARAMS = List.of("concurrent_partition_movements_per_broker",
        "max_partition_movements_in_cluster", "concurrent_intra_broker_partition_movements", "concurrent_leader_movements",
        "broker_concurrent_leader_movements", "execution_progress_check_interval_ms", "enable_self_healing_for",
        "disable_self_healing_for", "drop_recently_removed_brokers", "drop_recently_demoted_brokers",
        "enable_concurrency_adjuster_for", "disable_concurrency_adjuster_for", "min_isr_based_concurrency_adjustment",
        "review_id");

    private static final List<String> UNMODELLED = List.of("enable_self_healing_for", "disable_self_healing_for",
        "drop_recently_removed_brokers", "drop_recently_demoted_brokers", "enable_concurrency_adjuster_for",
        "disable_concurrency_adjuster_for", "min_isr_based_concurrency_adjustment");

    private AdminEndpoint() {}

    static CruiseControlDouble.Operation op(Params p, Executor executor) throws CcException {
        for (String u : UNMODELLED) {
            if (p.has(u)) throw CcException.badRequest(u + " is not modelled by the Cruise Control test double.");
        }
        if (p.has("review_id")) throw CcException.badRequest("review_id is only allowed with two-step verification, which is disabled.");
        Integer perBroker = p.positive("concurrent_partition_movements_per_broker");
        Integer inCluster = p.positive("max_partition_movements_in_cluster");
        Integer intra = p.positive("concurrent_intra_broker_partition_movements");
        Integer leader = p.positive("concurrent_leader_movements");
        Integer brokerLeader = p.positive("broker_concurrent_leader_movements");
        Integer interval = p.positive("execution_progress_check_interval_ms");
        return new CruiseControlDouble.Operation("Admin", task -> {
            executor.changeConcurrency(perBroker, inCluster, leader);
            StringBuilder sb = new StringBuilder();
            if (perBroker != null) sb.append("Inter-broker partition movement concurrency is set to ").append(perBroker).append('\n');
            if (inCluster != null) sb.append("Max inter-broker partition movements per cluster is set to ").append(inCluster).append('\n');
            if (intra != null) sb.append("Intra-broker partition movement concurrency is set to ").append(intra).append('\n');
            if (leader != null) sb.append("Leadership movement concurrency is set to ").append(leader).append('\n');
            if (brokerLeader != null) sb.append("Per-broker leadership movement concurrency is set to ").append(brokerLeader).append('\n');
            ObjectNode o = Json.obj();
            if (sb.length() > 0) o.put("ongoingConcurrencyChangeRequest", sb.toString());
            if (interval != null) o.put("changeExecutionProgressCheckIntervalRequest", "Execution progress check interval is set to " + interval + " ms\n");
            o.put("version", 1);
            return o;
        });
    }
}
