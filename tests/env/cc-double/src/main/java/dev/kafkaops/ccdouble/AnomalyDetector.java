package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Goal-violation and broker-failure detection over the real placement, as a real Cruise Control does it
 * (reference section 13): only the goals in {@code anomaly.detection.goals} are checked (CC's default
 * lists hard goals only, so replica skew raises nothing until ReplicaDistributionGoal /
 * LeaderReplicaDistributionGoal are added); every detection round that finds a violation records a new
 * GOAL_VIOLATION entry with a new anomalyId, even for the same violation; RackAwareGoal violations (two
 * replicas of a partition on one rack) are reported too, as unfixable when a partition has more replicas
 * than there are racks; a broker that disappears records a BROKER_FAILURE. With self-healing off (CC's
 * default) anomalies are IGNORED; with {@code --self-healing} a goal violation starts a rebalance
 * (FIX_STARTED) through the executor. Like CC, detection is skipped while the executor is busy, at most
 * 10 anomalies per type are kept (the oldest dropped), and the lists come out in no particular order.
 */
final class AnomalyDetector {
    static final int MAX_PER_TYPE = 10;
    static final List<String> TYPES = List.of("BROKER_FAILURE", "GOAL_VIOLATION", "METRIC_ANOMALY", "DISK_FAILURE",
        "TOPIC_ANOMALY", "MAINTENANCE_EVENT");
    /** CC's KafkaAnomalyType in declaration (priority) order, as its 400 texts list them. */
    static final List<String> TYPES_IN_CC_ORDER = List.of("BROKER_FAILURE", "MAINTENANCE_EVENT", "DISK_FAILURE", "METRIC_ANOMALY",
        "GOAL_VIOLATION", "TOPIC_ANOMALY");

    interface Healer {
        /** Starts a self-healing rebalance; returns false when it could not start. */
        boolean startFix(String anomalyId, Runnable onDone);
    }

    private final Map<String, Deque<ObjectNode>> recent = new HashMap<>();
    private final Set<Integer> knownBrokers = new TreeSet<>();
    private final Map<Integer, Long> failedSince = new TreeMap<>();
    /** The shipped {@code anomaly.detection.goals}: RackAwareGoal and the capacity goals (reference section 8). */
    static final List<String> DEFAULT_DETECTION_GOALS = List.of("RackAwareGoal", "ReplicaCapacityGoal", "DiskCapacityGoal",
        "NetworkInboundCapacityGoal", "NetworkOutboundCapacityGoal", "CpuCapacityGoal");

    private final double threshold;
    /** Self-healing per anomaly type (self.healing.*.enabled), toggled at runtime by POST /admin. */
    private final Map<String, Boolean> selfHealing = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> detectionGoals;
    private final java.util.Random shuffle = new java.util.Random();
    private double balancednessScore = 100.0;
    private int numSelfHealingStarted;
    private int numSelfHealingFailedToStart;
    private String ongoingSelfHealingAnomaly;

    AnomalyDetector(double threshold, boolean selfHealing, List<String> detectionGoals) {
        this.threshold = threshold;
        for (String t : TYPES) this.selfHealing.put(t, selfHealing && t.equals("GOAL_VIOLATION"));
        this.detectionGoals = List.copyOf(detectionGoals);
        for (String t : TYPES) recent.put(t, new ArrayDeque<>());
    }

    /** POST /admin: enables or disables self-healing for {@code type}; returns the previous setting. */
    boolean setSelfHealing(String type, boolean on) {
        Boolean old = selfHealing.put(type, on);
        return old != null && old;
    }

    /** One detection round on a fresh view. */
    void detect(ClusterView v, Healer healer) {
        long now = System.currentTimeMillis();
        boolean healGoals = selfHealing.getOrDefault("GOAL_VIOLATION", false);
        ObjectNode healing = null;
        synchronized (this) {
            // Broker failures: brokers seen before that are gone now.
            knownBrokers.addAll(v.brokers.keySet());
            Set<Integer> missing = new TreeSet<>(knownBrokers);
            missing.removeAll(v.brokers.keySet());
            boolean changed = !missing.equals(failedSince.keySet());
            failedSince.keySet().retainAll(missing);
            for (int b : missing) failedSince.putIfAbsent(b, now);
            if (changed && !missing.isEmpty()) {
                ObjectNode a = base(now, "CHECK_WITH_DELAY");
                ObjectNode f = a.putObject("failedBrokersByTimeMs");
                failedSince.forEach((b, t) -> f.put(String.valueOf(b), t));
                add("BROKER_FAILURE", a);
            }
            Map<Integer, Integer> replicas = new TreeMap<>();
            Map<Integer, Integer> leaders = new TreeMap<>();
            for (int b : v.brokers.keySet()) { replicas.put(b, 0); leaders.put(b, 0); }
            for (ClusterView.Partition p : v.partitions) {
                for (int b : p.replicas()) if (replicas.containsKey(b)) replicas.merge(b, 1, Integer::sum);
                if (leaders.containsKey(p.leader())) leaders.merge(p.leader(), 1, Integer::sum);
            }
            balancednessScore = Json.balancednessScore(replicas, leaders, threshold);
            List<String> violated = new ArrayList<>();
            List<String> unfixable = new ArrayList<>();
            if (detectionGoals.contains("RackAwareGoal") && v.racksKnown()) {
                boolean rackViolated = false;
                boolean fixable = true;
                int racks = v.numRacks();
                for (ClusterView.Partition p : v.partitions) {
                    Set<String> seen = new TreeSet<>();
                    for (int b : p.replicas()) {
                        String rack = v.rackOf(b);
                        if (rack != null && !seen.add(rack)) rackViolated = true;
                    }
                    if (p.replicas().size() > racks) { rackViolated = true; fixable = false; }
                }
                if (rackViolated) (fixable ? violated : unfixable).add("RackAwareGoal");
            }
            if (detectionGoals.contains("ReplicaDistributionGoal") && Planner.skewed(replicas, threshold)) {
                violated.add("ReplicaDistributionGoal");
            }
            if (detectionGoals.contains("LeaderReplicaDistributionGoal") && Planner.skewed(leaders, threshold)) {
                violated.add("LeaderReplicaDistributionGoal");
            }
            if (!violated.isEmpty() || !unfixable.isEmpty()) {
                ObjectNode a = base(now, healGoals ? "DETECTED" : "IGNORED");
                ArrayNode fx = a.putArray("fixableViolatedGoals");
                violated.forEach(fx::add);
                ArrayNode ufx = a.putArray("unfixableViolatedGoals");
                unfixable.forEach(ufx::add);
                add("GOAL_VIOLATION", a);
                // CC does not self-heal a violation with unfixable goals.
                if (healGoals && ongoingSelfHealingAnomaly == null && unfixable.isEmpty()) healing = a;
            }
        }
        if (healing != null) {
            String id = healing.get("anomalyId").asText();
            boolean started = healer.startFix(id, () -> {
                synchronized (AnomalyDetector.this) { ongoingSelfHealingAnomaly = null; }
            });
            synchronized (this) {
                healing.put("status", started ? "FIX_STARTED" : "FIX_FAILED_TO_START");
                healing.put("statusUpdateMs", System.currentTimeMillis());
                if (started) { numSelfHealingStarted++; ongoingSelfHealingAnomaly = id; } else numSelfHealingFailedToStart++;
            }
        }
    }

    private static ObjectNode base(long now, String status) {
        ObjectNode a = Json.obj();
        a.put("anomalyId", UUID.randomUUID().toString());
        a.put("status", status);
        a.put("detectionMs", now);
        a.put("statusUpdateMs", now);
        return a;
    }

    private void add(String type, ObjectNode a) {
        Deque<ObjectNode> d = recent.get(type);
        d.addLast(a);
        while (d.size() > MAX_PER_TYPE) d.removeFirst();
    }

    /** AnomalyDetectorState (CC's {@code AnomalyDetectorState#getJsonStructure}). */
    synchronized ObjectNode stateJson() {
        ObjectNode o = Json.obj();
        ArrayNode enabled = o.putArray("selfHealingEnabled");
        ArrayNode disabled = o.putArray("selfHealingDisabled");
        ObjectNode ratio = o.putObject("selfHealingEnabledRatio");
        for (String t : TYPES) {
            boolean on = selfHealing.getOrDefault(t, false);
            (on ? enabled : disabled).add(t);
            ratio.put(t, on ? 1.0 : 0.0);
        }
        o.set("recentGoalViolations", list("GOAL_VIOLATION"));
        o.set("recentBrokerFailures", list("BROKER_FAILURE"));
        o.set("recentMetricAnomalies", list("METRIC_ANOMALY"));
        o.set("recentDiskFailures", list("DISK_FAILURE"));
        o.set("recentTopicAnomalies", list("TOPIC_ANOMALY"));
        o.set("recentMaintenanceEvents", list("MAINTENANCE_EVENT"));
        ObjectNode m = o.putObject("metrics");
        ObjectNode mtba = m.putObject("meanTimeBetweenAnomaliesMs");
        for (String t : TYPES) mtba.put(t, meanGap(t));
        m.put("meanTimeToStartFixMs", 0.0);
        m.put("numSelfHealingStarted", numSelfHealingStarted);
        m.put("numSelfHealingFailedToStart", numSelfHealingFailedToStart);
        m.put("ongoingAnomalyDurationMs", 0);
        if (ongoingSelfHealingAnomaly != null) o.put("ongoingSelfHealingAnomaly", ongoingSelfHealingAnomaly);
        o.put("balancednessScore", balancednessScore);
        return o;
    }

    /** A type's entries in no particular order (CC builds the list from a Set). */
    private ArrayNode list(String type) {
        List<ObjectNode> entries = new ArrayList<>(recent.get(type));
        java.util.Collections.shuffle(entries, shuffle);
        ArrayNode a = Json.MAPPER.createArrayNode();
        entries.forEach(x -> a.add(x.deepCopy()));
        return a;
    }

    private double meanGap(String type) {
        Deque<ObjectNode> d = recent.get(type);
        if (d.size() < 2) return 0.0;
        long first = d.getFirst().get("detectionMs").asLong();
        long last = d.getLast().get("detectionMs").asLong();
        return (double) (last - first) / (d.size() - 1);
    }
}
