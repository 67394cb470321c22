package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;

/**
 * JSON shapes Cruise Control returns (OptimizationResult, BrokerStats, cluster state), built from a plan and
 * a {@link ClusterView}. Field names follow CC's Gson output exactly; numbers the double cannot know (CPU,
 * network rates) are 0.0.
 */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    static ObjectNode obj() { return MAPPER.createObjectNode(); }

    static String write(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static JsonNode read(String s) throws JsonProcessingException { return MAPPER.readTree(s); }

    static ObjectNode topicPartition(TopicPartition tp) {
        ObjectNode o = obj();
        o.put("hash", tp.hashCode());
        o.put("partition", tp.partition());
        o.put("topic", tp.topic());
        return o;
    }

    static ObjectNode proposal(Planner.Proposal p) {
        ObjectNode o = obj();
        o.set("topicPartition", topicPartition(p.tp()));
        o.put("oldLeader", p.oldLeader());
        ArrayNode oldR = o.putArray("oldReplicas");
        p.oldReplicas().forEach(oldR::add);
        ArrayNode newR = o.putArray("newReplicas");
        p.newReplicas().forEach(newR::add);
        return o;
    }

    /** The shipped {@code default.goals} (reference section 9.3; the real server of sections 13 and 14 ran it). */
    static final List<String> DEFAULT_GOALS = List.of(
        "RackAwareGoal", "ReplicaCapacityGoal", "DiskCapacityGoal", "NetworkInboundCapacityGoal", "NetworkOutboundCapacityGoal",
        "CpuCapacityGoal", "ReplicaDistributionGoal", "PotentialNwOutGoal", "DiskUsageDistributionGoal",
        "NetworkInboundUsageDistributionGoal", "NetworkOutboundUsageDistributionGoal", "CpuUsageDistributionGoal",
        "TopicReplicaDistributionGoal", "LeaderReplicaDistributionGoal", "LeaderBytesInDistributionGoal");
    /** The shipped {@code hard.goals}. */
    static final List<String> HARD_GOALS = List.of(
        "RackAwareGoal", "ReplicaCapacityGoal", "DiskCapacityGoal", "NetworkInboundCapacityGoal", "NetworkOutboundCapacityGoal",
        "CpuCapacityGoal");
    /**
     * Every goal a request may name: the shipped {@code goals} plus {@code intra.broker.goals}, sorted as CC's
     * case-insensitive TreeMap lists them in "Goals [..] are not supported. Supported: [..]" (22, section 14).
     */
    static final List<String> SUPPORTED_GOALS;
    static {
        java.util.TreeSet<String> g = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        g.addAll(DEFAULT_GOALS);
        g.addAll(List.of("BrokerSetAwareGoal", "RackAwareDistributionGoal", "KafkaAssignerDiskUsageDistributionGoal",
            "KafkaAssignerEvenRackAwareGoal", "PreferredLeaderElectionGoal", "IntraBrokerDiskCapacityGoal",
            "IntraBrokerDiskUsageDistributionGoal"));
        SUPPORTED_GOALS = List.copyOf(g);
    }

    /** BrokerStats (same shape as /load) for a placement. */
    static ObjectNode brokerStats(ClusterView v, Map<TopicPartition, List<Integer>> placement, Map<TopicPartition, Integer> leaders) {
        ObjectNode o = obj();
        ArrayNode hosts = o.putArray("hosts");
        ArrayNode brokers = o.putArray("brokers");
        Map<Integer, Integer> replicas = ClusterView.replicaCounts(v.brokers.keySet(), placement.values());
        Map<Integer, Integer> leaderCounts = Planner.leaderCounts(v, leaders);
        Map<Integer, Double> diskMb = new java.util.TreeMap<>();
        for (int b : v.brokers.keySet()) diskMb.put(b, 0.0);
        for (int b : v.deadBrokers) diskMb.put(b, 0.0);
        for (var e : placement.entrySet()) {
            for (int b : e.getValue()) diskMb.merge(b, v.size(e.getKey()) / (1024.0 * 1024.0), Double::sum);
        }
        Map<String, ObjectNode> byHost = new java.util.TreeMap<>();
        // A dead broker has no host or rack in Kafka's metadata (Node(id, "", -1)): CC shows them empty (section 14).
        java.util.List<ClusterView.Broker> all = new java.util.ArrayList<>(v.brokers.values());
        for (int d : v.deadBrokers) all.add(new ClusterView.Broker(d, "", ""));
        all.sort(java.util.Comparator.comparingInt(ClusterView.Broker::id));
        for (ClusterView.Broker b : all) {
            ObjectNode j = brokers.addObject();
            fillLoad(j, b.host(), replicas.getOrDefault(b.id(), 0), leaderCounts.getOrDefault(b.id(), 0), diskMb.getOrDefault(b.id(), 0.0));
            j.put("Broker", b.id());
            j.put("BrokerState", v.deadBrokers.contains(b.id()) ? "DEAD" : "ALIVE");
            j.put("Rack", b.rack() == null ? b.host() : b.rack());
            j.put("DiskCapacityMB", 100000.0);
            j.put("NetworkInCapacity", 10000.0);
            j.put("NetworkOutCapacity", 10000.0);
            j.put("NumCore", 1.0);
            ObjectNode h = byHost.get(b.host());
            if (h == null) {
                h = obj();
                fillLoad(h, b.host(), 0, 0, 0.0);
                // Host capacity fields, as a real CC reports them (reference section 13).
                h.put("Rack", b.rack() == null ? b.host() : b.rack());
                h.put("NumCore", 0.0);
                h.put("DiskCapacityMB", 0.0);
                h.put("NetworkInCapacity", 0.0);
                h.put("NetworkOutCapacity", 0.0);
                byHost.put(b.host(), h);
            }
            h.put("NumCore", h.get("NumCore").asDouble() + 1.0);
            h.put("DiskCapacityMB", h.get("DiskCapacityMB").asDouble() + 100000.0);
            h.put("NetworkInCapacity", h.get("NetworkInCapacity").asDouble() + 10000.0);
            h.put("NetworkOutCapacity", h.get("NetworkOutCapacity").asDouble() + 10000.0);
            h.put("Replicas", h.get("Replicas").asInt() + replicas.getOrDefault(b.id(), 0));
            h.put("Leaders", h.get("Leaders").asInt() + leaderCounts.getOrDefault(b.id(), 0));
            h.put("DiskMB", h.get("DiskMB").asDouble() + diskMb.getOrDefault(b.id(), 0.0));
            h.put("DiskPct", h.get("DiskMB").asDouble() / 1000.0);
        }
        byHost.values().forEach(hosts::add);
        return o;
    }

    private static void fillLoad(ObjectNode j, String host, int replicas, int leaders, double diskMb) {
        j.put("Host", host);
        j.put("Replicas", replicas);
        j.put("Leaders", leaders);
        j.put("DiskMB", diskMb);
        j.put("DiskPct", diskMb / 1000.0);
        j.put("CpuPct", 0.0);
        j.put("LeaderNwInRate", 0.0);
        j.put("FollowerNwInRate", 0.0);
        j.put("NwOutRate", 0.0);
        j.put("PnwOutRate", 0.0);
    }

    private static ObjectNode modelStats(ClusterView v, Map<TopicPartition, List<Integer>> placement, Map<TopicPartition, Integer> leaders) {
        ObjectNode o = obj();
        ObjectNode meta = o.putObject("metadata");
        meta.put("brokers", v.brokers.size());
        meta.put("replicas", placement.values().stream().mapToInt(List::size).sum());
        meta.put("topics", v.topics().size());
        Map<Integer, Integer> r = ClusterView.replicaCounts(v.brokers.keySet(), placement.values());
        Map<Integer, Integer> l = Planner.leaderCounts(v, leaders);
        ObjectNode stats = o.putObject("statistics");
        for (String kind : List.of("AVG", "MAX", "MIN", "STD")) {
            ObjectNode s = stats.putObject(kind);
            s.put("cpu", 0.0);
            s.put("networkInbound", 0.0);
            s.put("networkOutbound", 0.0);
            s.put("disk", 0.0);
            s.put("potentialNwOut", 0.0);
            putStat(s, kind, "replicas", r.values());
            putStat(s, kind, "leaderReplicas", l.values());
            putStat(s, kind, "topicReplicas", topicReplicaCounts(v, placement));
        }
        return o;
    }

    /** MIN and MAX of counts are integers in CC's output, AVG and STD floats (reference section 13). */
    private static void putStat(ObjectNode s, String kind, String name, java.util.Collection<Integer> values) {
        double v = stat(kind, values);
        if (kind.equals("MIN") || kind.equals("MAX")) s.put(name, (int) v); else s.put(name, v);
    }

    /** Replicas of one topic on one broker, for every (topic, broker) pair. */
    static java.util.List<Integer> topicReplicaCounts(ClusterView v, Map<TopicPartition, List<Integer>> placement) {
        Map<String, Map<Integer, Integer>> byTopic = new java.util.TreeMap<>();
        for (var e : placement.entrySet()) {
            Map<Integer, Integer> m = byTopic.computeIfAbsent(e.getKey().topic(), t -> {
                Map<Integer, Integer> z = new java.util.TreeMap<>();
                for (int b : v.brokers.keySet()) z.put(b, 0);
                return z;
            });
            for (int b : e.getValue()) m.merge(b, 1, Integer::sum);
        }
        java.util.List<Integer> out = new java.util.ArrayList<>();
        byTopic.values().forEach(m -> out.addAll(m.values()));
        return out;
    }

    private static double stat(String kind, java.util.Collection<Integer> values) {
        if (values.isEmpty()) return 0.0;
        double avg = values.stream().mapToInt(i -> i).average().orElse(0);
        return switch (kind) {
            case "AVG" -> avg;
            case "MAX" -> values.stream().mapToInt(i -> i).max().orElse(0);
            case "MIN" -> values.stream().mapToInt(i -> i).min().orElse(0);
            default -> Math.sqrt(values.stream().mapToDouble(i -> (i - avg) * (i - avg)).sum() / values.size());
        };
    }

    static double balancednessScore(Map<Integer, Integer> replicas, Map<Integer, Integer> leaders, double threshold) {
        double score = 100.0;
        if (Planner.skewed(replicas, threshold)) score -= 15.0;
        if (Planner.skewed(leaders, threshold)) score -= 10.0;
        return score;
    }

    /** OptimizationResult (CC's {@code OptimizationResult#getJsonString}). */
    static ObjectNode optimizationResult(Planner.Plan plan, List<String> goals, boolean verbose, double threshold) {
        ClusterView v = plan.before;
        Map<TopicPartition, List<Integer>> beforePlacement = new java.util.LinkedHashMap<>();
        Map<TopicPartition, Integer> beforeLeaders = new java.util.HashMap<>();
        for (ClusterView.Partition p : v.partitions) {
            beforePlacement.put(p.tp(), p.replicas());
            beforeLeaders.put(p.tp(), p.leader());
        }
        Map<Integer, Integer> rBefore = ClusterView.replicaCounts(v.brokers.keySet(), beforePlacement.values());
        Map<Integer, Integer> rAfter = ClusterView.replicaCounts(v.brokers.keySet(), plan.after.values());
        Map<Integer, Integer> lBefore = Planner.leaderCounts(v, beforeLeaders);
        Map<Integer, Integer> lAfter = Planner.leaderCounts(v, plan.leaderAfter);

        ObjectNode o = obj();
        ObjectNode s = o.putObject("summary");
        s.put("numReplicaMovements", plan.numReplicaMovements());
        s.put("dataToMoveMB", plan.dataToMoveBytes() / (1024 * 1024));
        s.put("numIntraBrokerReplicaMovements", 0);
        s.put("intraBrokerDataToMoveMB", 0);
        s.put("numLeaderMovements", plan.numLeaderMovements());
        s.put("recentWindows", 1);
        s.put("monitoredPartitionsPercentage", 100.0);
        ArrayNode et = s.putArray("excludedTopics");
        plan.excludedTopics.forEach(et::add);
        ArrayNode el = s.putArray("excludedBrokersForLeadership");
        plan.excludedBrokersForLeadership.forEach(el::add);
        ArrayNode er = s.putArray("excludedBrokersForReplicaMove");
        plan.excludedBrokersForReplicaMove.forEach(er::add);
        s.put("onDemandBalancednessScoreBefore", Balancedness.score(v, beforePlacement, beforeLeaders, goals, threshold));
        s.put("onDemandBalancednessScoreAfter", Balancedness.score(v, plan.after, plan.leaderAfter, goals, threshold));
        s.put("provisionStatus", "RIGHT_SIZED");
        s.put("provisionRecommendation", "");

        ArrayNode gs = o.putArray("goalSummary");
        ObjectNode statsAfter = modelStats(v, plan.after, plan.leaderAfter);
        for (String g : goals) {
            boolean before = false, after = false;
            if (g.equals("ReplicaDistributionGoal")) { before = Planner.skewed(rBefore, threshold); after = Planner.skewed(rAfter, threshold); }
            if (g.equals("LeaderReplicaDistributionGoal")) { before = Planner.skewed(lBefore, threshold); after = Planner.skewed(lAfter, threshold); }
            ObjectNode j = gs.addObject();
            j.put("goal", g);
            j.put("status", before ? (after ? "VIOLATED" : "FIXED") : "NO-ACTION");
            j.put("optimizationTimeMs", 1);
            j.set("clusterModelStats", statsAfter);
        }
        o.set("loadAfterOptimization", brokerStats(v, plan.after, plan.leaderAfter));
        if (verbose) {
            ArrayNode ps = o.putArray("proposals");
            for (Planner.Proposal p : plan.proposals) ps.add(proposal(p));
            o.set("loadBeforeOptimization", brokerStats(v, beforePlacement, beforeLeaders));
        }
        o.put("version", 1);
        return o;
    }

    /** /kafka_cluster_state (CC's {@code ClusterBrokerState} and {@code ClusterPartitionState}). */
    static ObjectNode kafkaClusterState(ClusterView v, Pattern topic, boolean verbose) {
        ObjectNode o = obj();
        ObjectNode kb = o.putObject("KafkaBrokerState");
        Map<Integer, Integer> leaders = new java.util.TreeMap<>();
        Map<Integer, Integer> replicas = new java.util.TreeMap<>();
        Map<Integer, Integer> oos = new java.util.TreeMap<>();
        Map<Integer, Integer> offline = new java.util.TreeMap<>();
        for (int b : v.brokers.keySet()) { leaders.put(b, 0); replicas.put(b, 0); oos.put(b, 0); offline.put(b, 0); }
        ObjectNode kp = obj();
        ArrayNode offlineP = kp.putArray("offline");
        ArrayNode withOffline = kp.putArray("with-offline-replicas");
        ArrayNode urp = kp.putArray("urp");
        ArrayNode underMinIsr = kp.putArray("under-min-isr");
        ArrayNode other = verbose ? MAPPER.createArrayNode() : null;
        int totalReplicas = 0;
        java.util.Set<String> topics = new java.util.TreeSet<>();
        for (ClusterView.Partition p : v.partitions) {
            if (topic != null && !topic.matcher(p.topic()).matches()) continue;
            topics.add(p.topic());
            totalReplicas += p.replicas().size();
            if (p.leader() >= 0) leaders.merge(p.leader(), 1, Integer::sum);
            java.util.List<Integer> off = new java.util.ArrayList<>();
            java.util.List<Integer> out = new java.util.ArrayList<>();
            for (int b : p.replicas()) {
                replicas.merge(b, 1, Integer::sum);
                if (!v.brokers.containsKey(b)) { off.add(b); offline.merge(b, 1, Integer::sum); }
                if (!p.isr().contains(b)) { out.add(b); oos.merge(b, 1, Integer::sum); }
            }
            int minIsr = v.minIsr.getOrDefault(p.topic(), 1);
            ObjectNode e = obj();
            e.put("topic", p.topic());
            e.put("partition", p.partition());
            e.put("leader", p.leader());
            ArrayNode ra = e.putArray("replicas"); p.replicas().forEach(ra::add);
            ArrayNode ia = e.putArray("in-sync"); p.isr().forEach(ia::add);
            ArrayNode oa = e.putArray("out-of-sync"); out.forEach(oa::add);
            ArrayNode fa = e.putArray("offline"); off.forEach(fa::add);
            e.put("min-isr", minIsr);
            if (p.leader() < 0) offlineP.add(e);
            else if (!off.isEmpty()) withOffline.add(e);
            else if (p.isr().size() < minIsr) underMinIsr.add(e);
            else if (!out.isEmpty()) urp.add(e);
            else if (other != null) other.add(e);
        }
        if (other != null && !other.isEmpty()) kp.set("other", other);
        kb.set("LeaderCountByBrokerId", intMap(leaders));
        // CC lists only brokers with a non-zero count here: {} when all are zero (reference section 13).
        kb.set("OutOfSyncCountByBrokerId", intMap(nonZero(oos)));
        kb.set("ReplicaCountByBrokerId", intMap(replicas));
        kb.set("OfflineReplicaCountByBrokerId", intMap(nonZero(offline)));
        ObjectNode ctrl = kb.putObject("IsController");
        for (int b : v.brokers.keySet()) ctrl.put(String.valueOf(b), b == v.controllerId);
        ObjectNode online = kb.putObject("OnlineLogDirsByBrokerId");
        for (var e : v.onlineLogDirs.entrySet()) { ArrayNode a = online.putArray(String.valueOf(e.getKey())); e.getValue().forEach(a::add); }
        ObjectNode offl = kb.putObject("OfflineLogDirsByBrokerId");
        for (var e : v.offlineLogDirs.entrySet()) { ArrayNode a = offl.putArray(String.valueOf(e.getKey())); e.getValue().forEach(a::add); }
        kb.putObject("BrokerSetByBrokerId");
        ObjectNode sum = kb.putObject("Summary");
        int nb = v.brokers.size();
        sum.put("Brokers", nb);
        sum.put("Topics", topics.size());
        sum.put("Replicas", totalReplicas);
        int totalLeaders = leaders.values().stream().mapToInt(i -> i).sum();
        sum.put("Leaders", totalLeaders);
        int partitions = (int) v.partitions.stream().filter(p -> topic == null || topic.matcher(p.topic()).matches()).count();
        sum.put("AvgReplicationFactor", partitions == 0 ? 0.0 : (double) totalReplicas / partitions);
        sum.put("AvgReplicasPerBroker", nb == 0 ? 0.0 : (double) totalReplicas / nb);
        sum.put("AvgLeadersPerBroker", nb == 0 ? 0.0 : (double) totalLeaders / nb);
        sum.put("MaxReplicasPerBroker", replicas.values().stream().mapToInt(i -> i).max().orElse(0));
        sum.put("MaxLeadersPerBroker", leaders.values().stream().mapToInt(i -> i).max().orElse(0));
        sum.put("StdReplicasPerBroker", stat("STD", replicas.values()));
        sum.put("StdLeadersPerBroker", stat("STD", leaders.values()));
        o.set("KafkaPartitionState", kp);
        o.put("version", 1);
        return o;
    }

    private static Map<Integer, Integer> nonZero(Map<Integer, Integer> m) {
        Map<Integer, Integer> out = new java.util.TreeMap<>();
        m.forEach((k, v) -> { if (v != 0) out.put(k, v); });
        return out;
    }

    private static ObjectNode intMap(Map<Integer, Integer> m) {
        ObjectNode o = obj();
        m.forEach((k, v) -> o.put(String.valueOf(k), v));
        return o;
    }
}
