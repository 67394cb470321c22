package dev.kafkaops.ccdouble;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * A snapshot of the real cluster, read through Kafka's Admin API. This is the double's whole "cluster
 * model": placement, racks and on-disk sizes. There is no metric sampling; load means replica and leader
 * counts (plus partition sizes for the data-to-move figures).
 */
final class ClusterView {
    record Broker(int id, String host, String rack) {}

    record Partition(String topic, int partition, List<Integer> replicas, int leader, List<Integer> isr) {
        TopicPartition tp() { return new TopicPartition(topic, partition); }
    }

    /** Alive brokers (describeCluster). */
    final TreeMap<Integer, Broker> brokers = new TreeMap<>();
    /**
     * Brokers that are down but still named in partitions' replica lists: Cruise Control keeps them in its model
     * as {@code "BrokerState":"DEAD"} (host and rack unknown) and its proposals move their replicas away
     * (reference section 14). A down broker that holds no replica is not known at all.
     */
    final java.util.TreeSet<Integer> deadBrokers = new java.util.TreeSet<>();
    /** Partitions sorted by topic then partition, so the greedy planner is deterministic. */
    final List<Partition> partitions = new ArrayList<>();
    final Map<TopicPartition, Long> sizeBytes = new HashMap<>();
    final Map<String, Integer> minIsr = new HashMap<>();
    final Map<Integer, List<String>> onlineLogDirs = new TreeMap<>();
    final Map<Integer, List<String>> offlineLogDirs = new TreeMap<>();
    int controllerId = -1;

    static ClusterView load(Admin admin, boolean withSizes, boolean withConfigs) throws Exception {
        ClusterView v = new ClusterView();
        DescribeClusterResult dc = admin.describeCluster();
        for (Node n : dc.nodes().get(20, TimeUnit.SECONDS)) {
            v.brokers.put(n.id(), new Broker(n.id(), n.host(), n.rack()));
        }
        Node controller = dc.controller().get(20, TimeUnit.SECONDS);
        v.controllerId = controller == null ? -1 : controller.id();
        Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(20, TimeUnit.SECONDS);
        Map<String, TopicDescription> descs = names.isEmpty()
            ? Map.of() : admin.describeTopics(names).allTopicNames().get(20, TimeUnit.SECONDS);
        for (String t : new java.util.TreeSet<>(descs.keySet())) {
            for (TopicPartitionInfo p : descs.get(t).partitions()) {
                v.partitions.add(new Partition(t, p.partition(),
                    p.replicas().stream().map(Node::id).toList(),
                    p.leader() == null ? -1 : p.leader().id(),
                    p.isr().stream().map(Node::id).toList()));
            }
        }
        v.partitions.sort((a, b) -> a.topic.equals(b.topic) ? Integer.compare(a.partition, b.partition) : a.topic.compareTo(b.topic));
        v.findDeadBrokers();
        if (withSizes && !v.brokers.isEmpty()) {
            Map<Integer, Map<String, LogDirDescription>> dirs =
                admin.describeLogDirs(v.brokers.keySet()).allDescriptions().get(20, TimeUnit.SECONDS);
            for (var e : dirs.entrySet()) {
                List<String> online = new ArrayList<>();
                List<String> offline = new ArrayList<>();
                for (var d : e.getValue().entrySet()) {
                    if (d.getValue().error() == null) online.add(d.getKey()); else offline.add(d.getKey());
                    for (Map.Entry<TopicPartition, ReplicaInfo> r : d.getValue().replicaInfos().entrySet()) {
                        v.sizeBytes.merge(r.getKey(), r.getValue().size(), Math::max);
                    }
                }
                v.onlineLogDirs.put(e.getKey(), online);
                v.offlineLogDirs.put(e.getKey(), offline);
            }
        }
        if (withConfigs && !names.isEmpty()) {
            List<ConfigResource> res = names.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
            Map<ConfigResource, Config> cfgs = admin.describeConfigs(res).all().get(20, TimeUnit.SECONDS);
            for (var e : cfgs.entrySet()) {
                var entry = e.getValue().get("min.insync.replicas");
                v.minIsr.put(e.getKey().name(), entry == null || entry.value() == null ? 1 : Integer.parseInt(entry.value()));
            }
        }
        return v;
    }

    /** Fills {@link #deadBrokers} from the partitions (call after adding partitions by hand, as tests do). */
    void findDeadBrokers() {
        deadBrokers.clear();
        for (Partition p : partitions) for (int b : p.replicas) if (!brokers.containsKey(b)) deadBrokers.add(b);
    }

    /** Alive or dead: a broker Cruise Control's model knows. */
    boolean known(int broker) { return brokers.containsKey(broker) || deadBrokers.contains(broker); }

    Set<String> topics() {
        Set<String> s = new HashSet<>();
        for (Partition p : partitions) s.add(p.topic);
        return s;
    }

    /** Racks as Cruise Control sees them. Brokers without {@code broker.rack} count as "no rack constraint". */
    boolean racksKnown() {
        return !brokers.isEmpty() && brokers.values().stream().allMatch(b -> b.rack() != null && !b.rack().isEmpty());
    }

    int numRacks() {
        Set<String> r = new HashSet<>();
        for (Broker b : brokers.values()) r.add(b.rack() == null ? b.host() : b.rack());
        return r.size();
    }

    String rackOf(int broker) {
        Broker b = brokers.get(broker);
        return b == null ? null : b.rack();
    }

    long size(TopicPartition tp) { return sizeBytes.getOrDefault(tp, 0L); }

    static Map<Integer, Integer> replicaCounts(Collection<Integer> brokerIds, Collection<List<Integer>> assignments) {
        Map<Integer, Integer> c = new TreeMap<>();
        for (int b : brokerIds) c.put(b, 0);
        for (List<Integer> r : assignments) for (int b : r) c.merge(b, 1, Integer::sum);
        return c;
    }
}
