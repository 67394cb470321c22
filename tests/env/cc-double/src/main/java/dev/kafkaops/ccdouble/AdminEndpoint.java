package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code POST /admin}, as Cruise Control's AdminRequest and AdminParameters handle it (reference sections 3.9 and
 * 14):
 * <ul>
 *   <li>no action at all: 400 {@code Nothing executable found in request.};</li>
 *   <li>concurrency: applies to the running execution at once (the executor reads the values before each batch)
 *       and answers {@code ongoingConcurrencyChangeRequest}, one line per value in CC's words
 *       ({@code Cluster Leadership movement concurrency is set to N}, ...);</li>
 *   <li>{@code enable_self_healing_for} / {@code disable_self_healing_for}: toggle self-healing per anomaly type at
 *       runtime ({@code selfHealingEnabledBefore} / {@code selfHealingEnabledAfter}; the state's
 *       {@code selfHealingEnabled} lists follow);</li>
 *   <li>{@code drop_recently_removed_brokers} / {@code drop_recently_demoted_brokers}: {@code dropRecentBrokersRequest};</li>
 *   <li>the concurrency adjuster toggles are remembered and reported, but the double has no adjuster.</li>
 * </ul>
 */
final class AdminEndpoint {
    static final List<String> PARAMS = List.of("concurrent_partition_movements_per_broker",
        "max_partition_movements_in_cluster", "concurrent_intra_broker_partition_movements", "concurrent_leader_movements",
        "broker_concurrent_leader_movements", "execution_progress_check_interval_ms", "enable_self_healing_for",
        "disable_self_healing_for", "drop_recently_removed_brokers", "drop_recently_demoted_brokers",
        "enable_concurrency_adjuster_for", "disable_concurrency_adjuster_for", "min_isr_based_concurrency_adjustment",
        "review_id");

    /** CC's ConcurrencyType, in its declaration order. */
    static final List<String> CONCURRENCY_TYPES = List.of("INTER_BROKER_REPLICA", "LEADERSHIP_CLUSTER", "INTRA_BROKER_REPLICA",
        "LEADERSHIP_BROKER");

    /** Concurrency-adjuster switches (state only: the double adjusts nothing). */
    private static final java.util.Map<String, Boolean> ADJUSTER = new java.util.concurrent.ConcurrentHashMap<>();
    private static volatile boolean minIsrAdjustment = true;

    private AdminEndpoint() {}

    static CruiseControlDouble.Operation op(Params p, Executor executor, AnomalyDetector detector) throws CcException {
        if (p.has("review_id")) throw CcException.badRequest(CruiseControlDouble.REVIEW_ID_WITHOUT_TWO_STEP);
        Integer perBroker = p.positive("concurrent_partition_movements_per_broker");
        Integer inCluster = p.positive("max_partition_movements_in_cluster");
        Integer intra = p.positive("concurrent_intra_broker_partition_movements");
        Integer leader = p.positive("concurrent_leader_movements");
        Integer brokerLeader = p.positive("broker_concurrent_leader_movements");
        Long interval = p.longValue("execution_progress_check_interval_ms");
        Set<String> enable = anomalyTypes(p, "enable_self_healing_for");
        Set<String> disable = anomalyTypes(p, "disable_self_healing_for");
        disjoint(enable, disable, "The same anomaly cannot be specified in both disable and enable parameters");
        Set<Integer> dropRemoved = p.intSet("drop_recently_removed_brokers");
        Set<Integer> dropDemoted = p.intSet("drop_recently_demoted_brokers");
        Set<String> adjusterOn = concurrencyTypes(p, "enable_concurrency_adjuster_for");
        Set<String> adjusterOff = concurrencyTypes(p, "disable_concurrency_adjuster_for");
        disjoint(adjusterOn, adjusterOff, "The same concurrency type cannot be specified in both disable and enable parameters");
        Boolean minIsr = p.has("min_isr_based_concurrency_adjustment") ? p.bool("min_isr_based_concurrency_adjustment", false) : null;
        boolean concurrency = perBroker != null || inCluster != null || intra != null || leader != null || brokerLeader != null
            || interval != null;
        boolean selfHealing = !enable.isEmpty() || !disable.isEmpty();
        boolean drop = !dropRemoved.isEmpty() || !dropDemoted.isEmpty();
        boolean adjuster = !adjusterOn.isEmpty() || !adjusterOff.isEmpty() || minIsr != null;
        if (!concurrency && !selfHealing && !drop && !adjuster) throw CcException.badRequest("Nothing executable found in request.");
        return new CruiseControlDouble.Operation("Admin", task -> {
            ObjectNode o = Json.obj();
            // 1. Concurrency, in CC's order and words.
            executor.changeConcurrency(perBroker, inCluster, leader, brokerLeader);
            StringBuilder sb = new StringBuilder();
            if (perBroker != null) sb.append("Inter-broker partition movement concurrency is set to ").append(perBroker).append('\n');
            if (intra != null) sb.append("Intra-broker partition movement concurrency is set to ").append(intra).append('\n');
            if (leader != null) sb.append("Cluster Leadership movement concurrency is set to ").append(leader).append('\n');
            if (brokerLeader != null) sb.append("Broker Leadership movement concurrency is set to ").append(brokerLeader).append('\n');
            if (interval != null) sb.append("Execution progress check interval is set to ").append(interval).append("Ms\n");
            if (inCluster != null) sb.append("Max inter-broker partition movements is set to ").append(inCluster).append('\n');
            // 2. Self-healing per anomaly type.
            if (selfHealing) {
                ObjectNode before = Json.obj();
                ObjectNode after = Json.obj();
                for (String t : disable) { before.put(t, detector.setSelfHealing(t, false)); after.put(t, false); }
                for (String t : enable) { before.put(t, detector.setSelfHealing(t, true)); after.put(t, true); }
                o.set("selfHealingEnabledBefore", before);
                o.set("selfHealingEnabledAfter", after);
            }
            if (sb.length() > 0) o.put("ongoingConcurrencyChangeRequest", sb.toString());
            // 3. Recently removed / demoted brokers.
            StringBuilder dr = new StringBuilder();
            if (!dropRemoved.isEmpty()) {
                boolean dropped = executor.dropRecentlyRemoved(dropRemoved);
                Set<Integer> now = executor.recentlyRemovedBrokers();
                dr.append(dropped
                    ? "Dropped recently removed brokers (requested: " + dropRemoved + " after-dropping: " + now + ").\n"
                    : "None of the brokers to drop (" + dropRemoved + ") are in the recently removed broker set (" + now + ").\n");
            }
            if (!dropDemoted.isEmpty()) {
                dr.append("None of the brokers to drop (").append(dropDemoted).append(") are in the recently demoted broker set ([]).\n");
            }
            if (dr.length() > 0) o.put("dropRecentBrokersRequest", dr.toString());
            // 4. Concurrency adjuster (remembered only).
            if (!adjusterOn.isEmpty() || !adjusterOff.isEmpty()) {
                ObjectNode before = Json.obj();
                ObjectNode after = Json.obj();
                for (String t : adjusterOff) { before.put(t, ADJUSTER.getOrDefault(t, false)); ADJUSTER.put(t, false); after.put(t, false); }
                for (String t : adjusterOn) { before.put(t, ADJUSTER.getOrDefault(t, false)); ADJUSTER.put(t, true); after.put(t, true); }
                o.set("concurrencyAdjusterEnabledBefore", before);
                o.set("concurrencyAdjusterEnabledAfter", after);
            }
            if (minIsr != null) {
                boolean old = minIsrAdjustment;
                minIsrAdjustment = minIsr;
                o.put("minIsrBasedConcurrencyAdjustmentRequest",
                    "MinISR-based concurrency adjustment is modified (before: " + old + " after: " + minIsr + ").");
            }
            o.put("version", 1);
            return o;
        });
    }

    private static Set<String> anomalyTypes(Params p, String name) throws CcException {
        Set<String> given = new LinkedHashSet<>(p.list(name));
        Set<String> out = new TreeSet<>();
        for (String s : given) {
            String t = s.toUpperCase(Locale.ROOT);
            if (!AnomalyDetector.TYPES_IN_CC_ORDER.contains(t)) {
                throw CcException.badRequest("Unsupported anomaly types in " + given + ". Supported: " + AnomalyDetector.TYPES_IN_CC_ORDER);
            }
            out.add(t);
        }
        return out;
    }

    private static Set<String> concurrencyTypes(Params p, String name) throws CcException {
        Set<String> given = new LinkedHashSet<>(p.list(name));
        Set<String> out = new TreeSet<>();
        for (String s : given) {
            String t = s.toUpperCase(Locale.ROOT);
            if (!CONCURRENCY_TYPES.contains(t)) {
                throw CcException.badRequest("Unsupported concurrency types in " + given + ". Supported: " + CONCURRENCY_TYPES);
            }
            out.add(t);
        }
        return out;
    }

    private static void disjoint(Set<String> a, Set<String> b, String message) throws CcException {
        List<String> both = new ArrayList<>(a);
        both.retainAll(b);
        if (!both.isEmpty()) throw CcException.badRequest(message + ". Intersection: " + both + ".");
    }
}
