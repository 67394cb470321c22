package dev.kafkaops.ccdouble;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code onDemandBalancednessScoreBefore/After} computed from the model, the way Cruise Control does it:
 * every goal of the request weighs {@code 1.1^(goals after it)}, hard goals 1.5 times more, and the score
 * is the weighted share of goals the placement satisfies, in percent. A real server reported 60-83 where
 * the double used to print constants (reference section 13). The double can judge only the goals its
 * model has numbers for (racks, replica / leader / per-topic counts, disk sizes); the others count as
 * satisfied.
 */
final class Balancedness {
    private Balancedness() {}

    static final double PRIORITY_WEIGHT = 1.1;
    static final double STRICTNESS_WEIGHT = 1.5;

    static double score(ClusterView v, Map<TopicPartition, List<Integer>> placement, Map<TopicPartition, Integer> leaders,
                        List<String> goals, double threshold) {
        double total = 0, satisfied = 0;
        for (int i = 0; i < goals.size(); i++) {
            String g = goals.get(i);
            double w = Math.pow(PRIORITY_WEIGHT, goals.size() - 1 - i) * (Json.HARD_GOALS.contains(g) ? STRICTNESS_WEIGHT : 1.0);
            total += w;
            if (!violated(g, v, placement, leaders, threshold)) satisfied += w;
        }
        if (total == 0) return 100.0;
        return Math.round(100.0 * satisfied / total * 1000.0) / 1000.0;
    }

    static boolean violated(String goal, ClusterView v, Map<TopicPartition, List<Integer>> placement,
                            Map<TopicPartition, Integer> leaders, double threshold) {
        return switch (goal) {
            case "RackAwareGoal" -> rackViolations(v, placement) > 0;
            case "ReplicaDistributionGoal" -> Planner.skewed(ClusterView.replicaCounts(v.brokers.keySet(), placement.values()), threshold);
            case "LeaderReplicaDistributionGoal" -> Planner.skewed(Planner.leaderCounts(v, leaders), threshold);
            case "TopicReplicaDistributionGoal" -> topicSkewed(v, placement, threshold);
            case "DiskUsageDistributionGoal" -> diskSkewed(v, placement, threshold);
            default -> false;
        };
    }

    /** Partitions with two replicas on one rack although the cluster has enough racks for all of them. */
    static int rackViolations(ClusterView v, Map<TopicPartition, List<Integer>> placement) {
        if (!v.racksKnown()) return 0;
        int n = 0;
        for (List<Integer> r : placement.values()) {
            if (r.size() > v.numRacks()) continue;
            Set<String> racks = new HashSet<>();
            for (int b : r) racks.add(v.rackOf(b));
            if (racks.size() < r.size()) n++;
        }
        return n;
    }

    private static boolean topicSkewed(ClusterView v, Map<TopicPartition, List<Integer>> placement, double threshold) {
        Map<String, Map<Integer, Integer>> byTopic = new TreeMap<>();
        for (var e : placement.entrySet()) {
            Map<Integer, Integer> m = byTopic.computeIfAbsent(e.getKey().topic(), t -> {
                Map<Integer, Integer> z = new TreeMap<>();
                for (int b : v.brokers.keySet()) z.put(b, 0);
                return z;
            });
            for (int b : e.getValue()) if (m.containsKey(b)) m.merge(b, 1, Integer::sum);
        }
        for (Map<Integer, Integer> m : byTopic.values()) if (Planner.skewed(m, threshold)) return true;
        return false;
    }

    private static boolean diskSkewed(ClusterView v, Map<TopicPartition, List<Integer>> placement, double threshold) {
        Map<Integer, Double> mb = new TreeMap<>();
        for (int b : v.brokers.keySet()) mb.put(b, 0.0);
        for (var e : placement.entrySet()) {
            for (int b : e.getValue()) if (mb.containsKey(b)) mb.merge(b, v.size(e.getKey()) / (1024.0 * 1024.0), Double::sum);
        }
        double max = mb.values().stream().mapToDouble(d -> d).max().orElse(0);
        double min = mb.values().stream().mapToDouble(d -> d).min().orElse(0);
        double avg = mb.values().stream().mapToDouble(d -> d).average().orElse(0);
        return avg > 1.0 && max - min > 1.0 && (max - avg) / avg > threshold;
    }
}
