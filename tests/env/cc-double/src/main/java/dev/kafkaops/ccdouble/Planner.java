package dev.kafkaops.ccdouble;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;

/**
 * Pure proposal computation: a greedy balancer of replica and leader counts over a {@link ClusterView}.
 * Cruise Control optimises many goals over sampled load; the double only evens out counts, but it respects
 * the same boundaries a client relies on: add_broker moves replicas only onto the new brokers, remove_broker
 * only off the removed ones, excluded topics stay put (except on removed brokers), racks stay distinct when
 * brokers have racks, and leadership follows the preferred (first) replica.
 */
final class Planner {
    private Planner() {}

    enum Mode { REBALANCE, ADD_BROKER, REMOVE_BROKER, REPLICATION_FACTOR }

    record Proposal(TopicPartition tp, List<Integer> oldReplicas, int oldLeader, List<Integer> newReplicas) {
        boolean movesReplicas() { return !new HashSet<>(oldReplicas).equals(new HashSet<>(newReplicas)); }
        int newLeader() { return newReplicas.get(0); }
        int addedReplicas() {
            int n = 0;
            for (int b : newReplicas) if (!oldReplicas.contains(b)) n++;
            return n;
        }
        int removedReplicas() {
            int n = 0;
            for (int b : oldReplicas) if (!newReplicas.contains(b)) n++;
            return n;
        }
    }

    static final class Plan {
        final ClusterView before;
        final Mode mode;
        final List<Proposal> proposals = new ArrayList<>();
        /** Placement after the plan, partition -> replicas (preferred leader first). */
        final Map<TopicPartition, List<Integer>> after = new LinkedHashMap<>();
        final Map<TopicPartition, Integer> leaderAfter = new HashMap<>();
        final List<String> excludedTopics = new ArrayList<>();
        final Set<Integer> excludedBrokersForReplicaMove = new TreeSet<>();
        final Set<Integer> excludedBrokersForLeadership = new TreeSet<>();
        final Set<Integer> modeBrokers = new TreeSet<>();

        Plan(ClusterView before, Mode mode) { this.before = before; this.mode = mode; }

        /** Added replicas, and for a replication-factor decrease the deleted ones (as CC counts them, reference section 13). */
        int numReplicaMovements() { return proposals.stream().mapToInt(p -> Math.max(p.addedReplicas(), p.removedReplicas())).sum(); }

        int numLeaderMovements() {
            int n = 0;
            for (Proposal p : proposals) if (!p.movesReplicas() && p.newLeader() != p.oldLeader()) n++;
            return n;
        }

        long dataToMoveBytes() {
            long b = 0;
            for (Proposal p : proposals) b += before.size(p.tp()) * p.addedReplicas();
            return b;
        }

        boolean isEmpty() { return proposals.isEmpty(); }
    }

    /** Skew test shared by the planner's goal summary and the anomaly detector. */
    static boolean skewed(Map<Integer, Integer> counts, double threshold) {
        if (counts.isEmpty()) return false;
        int max = counts.values().stream().mapToInt(i -> i).max().orElse(0);
        int min = counts.values().stream().mapToInt(i -> i).min().orElse(0);
        double avg = counts.values().stream().mapToInt(i -> i).average().orElse(0);
        return avg > 0 && max - min > 1 && (max - avg) / avg > threshold;
    }

    static Map<Integer, Integer> replicaCounts(ClusterView v, Map<TopicPartition, List<Integer>> assign) {
        return ClusterView.replicaCounts(v.brokers.keySet(), assign.values());
    }

    static Map<Integer, Integer> leaderCounts(ClusterView v, Map<TopicPartition, Integer> leaders) {
        Map<Integer, Integer> c = new TreeMap<>();
        for (int b : v.brokers.keySet()) c.put(b, 0);
        for (int l : leaders.values()) if (l >= 0) c.merge(l, 1, Integer::sum);
        return c;
    }

    /**
     * @param modeBrokers brokers named by add_broker / remove_broker (empty for rebalance)
     * @param destinations explicit destination_broker_ids for rebalance and remove_broker (empty = any (other) alive broker)
     * @param excluded topics that must not move (except off removed brokers)
     * @param excludedForReplicaMove brokers that must receive no replicas (recently removed ones)
     */
    static Plan balance(ClusterView v, Mode mode, Set<Integer> modeBrokers, Set<Integer> destinations,
                        Pattern excluded, Set<Integer> excludedForReplicaMove, boolean leadersOnly) throws CcException {
        for (int b : modeBrokers) {
            if (v.known(b)) continue;
            // The real texts differ: remove_broker "Broker 99 does not exist.", add_broker "Broker [99] ..." (section 13).
            String id = mode == Mode.REMOVE_BROKER ? String.valueOf(b) : "[" + b + "]";
            throw CcException.operation("java.lang.IllegalArgumentException: Broker " + id + " does not exist.");
        }
        for (int b : destinations) {
            if (!v.brokers.containsKey(b)) throw CcException.operation("java.lang.IllegalArgumentException: Broker [" + b + "] does not exist.");
        }
        Plan plan = new Plan(v, mode);
        plan.modeBrokers.addAll(modeBrokers);
        Map<TopicPartition, List<Integer>> assign = new LinkedHashMap<>();
        Map<TopicPartition, Integer> leader = new HashMap<>();
        Map<TopicPartition, ClusterView.Partition> byTp = new HashMap<>();
        Set<String> excludedTopics = new TreeSet<>();
        for (ClusterView.Partition p : v.partitions) {
            assign.put(p.tp(), new ArrayList<>(p.replicas()));
            leader.put(p.tp(), p.leader() >= 0 && p.replicas().contains(p.leader()) ? p.leader() : p.replicas().get(0));
            byTp.put(p.tp(), p);
            if (excluded != null && excluded.matcher(p.topic()).matches()) excludedTopics.add(p.topic());
        }
        plan.excludedTopics.addAll(excludedTopics);
        Set<Integer> alive = v.brokers.keySet();

        Set<Integer> sources = new TreeSet<>();
        Set<Integer> dests = new TreeSet<>();
        Set<Integer> leaderDests = new TreeSet<>();
        switch (mode) {
            case REBALANCE -> {
                // destination_broker_ids (CC's requestedDestinationBrokerIds) limits where replicas move;
                // leadership may still move to any alive broker.
                sources.addAll(alive);
                dests.addAll(destinations.isEmpty() ? alive : destinations);
                leaderDests.addAll(alive);
            }
            case ADD_BROKER -> {
                sources.addAll(alive); sources.removeAll(modeBrokers);
                dests.addAll(modeBrokers); leaderDests.addAll(modeBrokers);
            }
            case REMOVE_BROKER -> {
                sources.addAll(modeBrokers);
                if (destinations.isEmpty()) { dests.addAll(alive); dests.removeAll(modeBrokers); } else dests.addAll(destinations);
                dests.removeAll(modeBrokers);
                leaderDests.addAll(dests);
            }
            default -> throw new IllegalStateException();
        }
        dests.removeAll(excludedForReplicaMove);
        dests.removeAll(v.deadBrokers);
        leaderDests.removeAll(v.deadBrokers);
        plan.excludedBrokersForReplicaMove.addAll(excludedForReplicaMove);
        // remove_broker reports excludedBrokersForLeadership [] unless asked (reference section 13); the removed
        // brokers lose leadership anyway because they lose every replica.

        Map<Integer, Integer> counts = replicaCounts(v, assign);
        if (!leadersOnly && mode != Mode.ADD_BROKER && !v.deadBrokers.isEmpty()) {
            // Replicas on dead brokers (down, but still named in the partitions' replica lists) are offline: CC's
            // goals move them to alive brokers first, excluded topics too (reference section 14).
            Set<Integer> drainTo = new TreeSet<>(dests);
            drainTo.removeAll(modeBrokers);
            drainOff(v, assign, leader, counts, v.deadBrokers, drainTo);
        }
        if (!leadersOnly) {
            if (mode == Mode.REMOVE_BROKER) {
                for (ClusterView.Partition p : v.partitions) {
                    List<Integer> r = assign.get(p.tp());
                    for (int i = 0; i < r.size(); i++) {
                        int b = r.get(i);
                        if (!modeBrokers.contains(b)) continue;
                        Integer d = pickDestination(v, r, i, dests, counts);
                        if (d == null) {
                            throw CcException.optimizationFailure("ReplicaDistributionGoal", "Insufficient brokers to move replica of "
                                + p.tp() + " from decommissioned broker " + b + " (candidates: " + dests + ").");
                        }
                        r.set(i, d);
                        counts.merge(b, -1, Integer::sum);
                        counts.merge(d, 1, Integer::sum);
                        if (leader.get(p.tp()) == b) leader.put(p.tp(), r.get(0));
                    }
                }
            } else {
                greedyReplicas(v, assign, counts, sources, dests, excludedTopics);
            }
        }
        // Leadership: the preferred (first) replica leads once the plan is executed.
        for (var e : assign.entrySet()) {
            List<Integer> r = e.getValue();
            if (!r.equals(byTp.get(e.getKey()).replicas()) || !r.contains(leader.get(e.getKey()))) leader.put(e.getKey(), r.get(0));
        }
        if (mode != Mode.REMOVE_BROKER) {
            Set<Integer> leaderSources = new TreeSet<>(alive);
            if (mode == Mode.ADD_BROKER) leaderSources.removeAll(modeBrokers);
            greedyLeaders(v, assign, leader, leaderSources, leaderDests, excludedTopics);
        }
        finish(plan, v, assign, leader);
        return plan;
    }

    /** Moves every replica on {@code from} to the least-loaded of {@code dests} (distinct racks first). */
    private static void drainOff(ClusterView v, Map<TopicPartition, List<Integer>> assign, Map<TopicPartition, Integer> leader,
                                 Map<Integer, Integer> counts, Set<Integer> from, Set<Integer> dests) throws CcException {
        for (ClusterView.Partition p : v.partitions) {
            List<Integer> r = assign.get(p.tp());
            for (int i = 0; i < r.size(); i++) {
                int b = r.get(i);
                if (!from.contains(b)) continue;
                Integer d = pickDestination(v, r, i, dests, counts);
                if (d == null) {
                    throw CcException.optimizationFailure("ReplicaDistributionGoal", "Insufficient brokers to move replica of "
                        + p.tp() + " from dead broker " + b + " (candidates: " + dests + ").");
                }
                r.set(i, d);
                counts.merge(b, -1, Integer::sum);
                counts.merge(d, 1, Integer::sum);
                if (leader.get(p.tp()) == b) leader.put(p.tp(), r.get(0));
            }
        }
    }

    private static Integer pickDestination(ClusterView v, List<Integer> replicas, int slot, Set<Integer> dests, Map<Integer, Integer> counts) {
        Integer best = null;
        for (boolean needRack : new boolean[] {true, false}) {
            for (int d : dests) {
                if (replicas.contains(d)) continue;
                if (needRack && !rackOk(v, replicas, slot, d)) continue;
                if (best == null || counts.get(d) < counts.get(best)) best = d;
            }
            if (best != null) return best;
        }
        return null;
    }

    /** True when putting {@code candidate} into {@code slot} keeps replicas on distinct racks (if racks exist). */
    static boolean rackOk(ClusterView v, List<Integer> replicas, int slot, int candidate) {
        if (!v.racksKnown() || replicas.size() > v.numRacks()) return true;
        String rack = v.rackOf(candidate);
        for (int i = 0; i < replicas.size(); i++) {
            if (i != slot && rack.equals(v.rackOf(replicas.get(i)))) return false;
        }
        return true;
    }

    private static void greedyReplicas(ClusterView v, Map<TopicPartition, List<Integer>> assign, Map<Integer, Integer> counts,
                                       Set<Integer> sources, Set<Integer> dests, Set<String> excludedTopics) {
        for (int iter = 0; iter < 100_000; iter++) {
            List<Integer> src = new ArrayList<>(sources);
            src.sort(Comparator.comparing((Integer b) -> -counts.get(b)).thenComparing(b -> b));
            List<Integer> dst = new ArrayList<>(dests);
            dst.sort(Comparator.comparing((Integer b) -> counts.get(b)).thenComparing(b -> b));
            boolean moved = false;
            outer:
            for (int s : src) {
                for (int d : dst) {
                    if (s == d || counts.get(s) - counts.get(d) <= 1) continue;
                    // Prefer moving followers so leadership stays where it is.
                    for (int pass = 0; pass < 2 && !moved; pass++) {
                        for (var e : assign.entrySet()) {
                            if (excludedTopics.contains(e.getKey().topic())) continue;
                            List<Integer> r = e.getValue();
                            int i = r.indexOf(s);
                            if (i < 0 || r.contains(d) || (pass == 0 && i == 0)) continue;
                            if (!rackOk(v, r, i, d)) continue;
                            r.set(i, d);
                            counts.merge(s, -1, Integer::sum);
                            counts.merge(d, 1, Integer::sum);
                            moved = true;
                            break;
                        }
                    }
                    if (moved) break outer;
                }
            }
            if (!moved) return;
        }
    }

    private static void greedyLeaders(ClusterView v, Map<TopicPartition, List<Integer>> assign, Map<TopicPartition, Integer> leader,
                                      Set<Integer> sources, Set<Integer> dests, Set<String> excludedTopics) {
        Map<Integer, Integer> lc = leaderCounts(v, leader);
        for (int iter = 0; iter < 100_000; iter++) {
            List<Integer> src = new ArrayList<>(sources);
            src.sort(Comparator.comparing((Integer b) -> -lc.get(b)).thenComparing(b -> b));
            List<Integer> dst = new ArrayList<>(dests);
            dst.sort(Comparator.comparing((Integer b) -> lc.get(b)).thenComparing(b -> b));
            boolean moved = false;
            outer:
            for (int s : src) {
                for (int d : dst) {
                    if (s == d || lc.get(s) - lc.get(d) <= 1) continue;
                    for (var e : assign.entrySet()) {
                        if (excludedTopics.contains(e.getKey().topic())) continue;
                        if (leader.get(e.getKey()) != s || !e.getValue().contains(d)) continue;
                        leader.put(e.getKey(), d);
                        lc.merge(s, -1, Integer::sum);
                        lc.merge(d, 1, Integer::sum);
                        moved = true;
                        break outer;
                    }
                }
            }
            if (!moved) return;
        }
    }

    private static void finish(Plan plan, ClusterView v, Map<TopicPartition, List<Integer>> assign, Map<TopicPartition, Integer> leader) {
        for (ClusterView.Partition p : v.partitions) {
            List<Integer> r = new ArrayList<>(assign.get(p.tp()));
            int l = leader.get(p.tp());
            int oldLeader = p.leader();
            boolean setChanged = !new HashSet<>(r).equals(new HashSet<>(p.replicas()));
            if (!setChanged && l == oldLeader) {
                // Untouched: keep the order as it is, even when the current leader is not the preferred one.
                plan.after.put(p.tp(), p.replicas());
                plan.leaderAfter.put(p.tp(), oldLeader);
                continue;
            }
            if (r.get(0) != l && r.contains(l)) { r.remove(Integer.valueOf(l)); r.add(0, l); }
            plan.after.put(p.tp(), r);
            plan.leaderAfter.put(p.tp(), r.get(0));
            plan.proposals.add(new Proposal(p.tp(), p.replicas(), oldLeader, List.copyOf(r)));
        }
    }

    /**
     * topic_configuration: change the replication factor of the topics matched by each regex (full match).
     * New replicas go to the least-loaded brokers (distinct racks first), dropped replicas come off the
     * most-loaded followers; the current leader is kept.
     */
    static Plan replicationFactor(ClusterView v, Map<Integer, String> patternByRf, boolean skipRackAwarenessCheck) throws CcException {
        return replicationFactor(v, patternByRf, skipRackAwarenessCheck, null, Set.of());
    }

    /**
     * As Cruise Control's {@code UpdateTopicConfigurationRunnable}: the sanity checks of its {@code init()} fail with
     * IllegalStateException (offline replicas, no matching topic, all at target, a topic with two factors), the
     * broker and rack counts are checked while working with the cluster model (RuntimeException wrapped in
     * KafkaCruiseControlException, reference section 14). Like CC's goals, the proposal then also evens out
     * leadership on the other topics (section 14: an RF change moves other topics' leaders), except those
     * matching {@code excluded}. New replicas avoid {@code excludedForReplicaMove} (recently removed brokers, while
     * exclude_recently_removed_brokers=true) unless no other broker fits.
     */
    static Plan replicationFactor(ClusterView v, Map<Integer, String> patternByRf, boolean skipRackAwarenessCheck, Pattern excluded,
                                  Set<Integer> excludedForReplicaMove) throws CcException {
        for (ClusterView.Partition p : v.partitions) {
            Set<Integer> off = new TreeSet<>();
            for (int b : p.replicas()) if (!v.brokers.containsKey(b)) off.add(b);
            if (!off.isEmpty()) {
                throw CcException.illegalState("Topic partition " + p.topic() + "-" + p.partition() + " has offline replicas on brokers "
                    + off + ".");
            }
        }
        Set<String> topics = new TreeSet<>(v.topics());
        Map<Integer, Set<String>> toChangeByRf = new TreeMap<>();
        for (var e : patternByRf.entrySet()) {
            Pattern pat = Pattern.compile(e.getValue());
            Set<String> matching = new TreeSet<>();
            for (String t : topics) if (pat.matcher(t).matches()) matching.add(t);
            if (matching.isEmpty()) throw CcException.illegalState("There is no topic in cluster matching pattern '" + e.getValue() + "'.");
            Set<String> toChange = new TreeSet<>();
            for (String t : matching) {
                int rf = e.getKey();
                if (v.partitions.stream().anyMatch(p -> p.topic().equals(t) && p.replicas().size() != rf)) toChange.add(t);
            }
            if (!toChange.isEmpty()) toChangeByRf.put(e.getKey(), toChange);
        }
        if (toChangeByRf.isEmpty()) {
            throw CcException.illegalState("All topics matching given pattern already have target replication factor. "
                + "Requested topic pattern by replication factor: " + patternByRf + ".");
        }
        Map<String, Integer> changing = new TreeMap<>();
        Set<String> twice = new TreeSet<>();
        for (var e : toChangeByRf.entrySet()) {
            for (String t : e.getValue()) if (changing.put(t, e.getKey()) != null) twice.add(t);
        }
        if (!twice.isEmpty()) {
            throw CcException.illegalState("Topics " + twice + " are requested with more than one target replication factor.");
        }
        for (var e : toChangeByRf.entrySet()) {
            int rf = e.getKey();
            if (rf > v.brokers.size()) {
                throw CcException.operation("java.lang.RuntimeException: Unable to change replication factor (RF) of topics "
                    + e.getValue() + " to " + rf + " since there are only " + v.brokers.size()
                    + " alive brokers in the cluster. Requested RF cannot be more than number of alive brokers.");
            }
            if (!skipRackAwarenessCheck && v.racksKnown() && rf > v.numRacks()) {
                throw CcException.operation("java.lang.RuntimeException: Unable to change replication factor of topics "
                    + e.getValue() + " to " + rf + " since there are only " + v.numRacks() + " racks in the cluster, to skip the "
                    + "rack-awareness check, set skip_rack_awareness_check to true in the request.");
            }
        }
        Plan plan = new Plan(v, Mode.REPLICATION_FACTOR);
        plan.excludedBrokersForReplicaMove.addAll(excludedForReplicaMove);
        Map<TopicPartition, List<Integer>> assign = new LinkedHashMap<>();
        for (ClusterView.Partition p : v.partitions) assign.put(p.tp(), new ArrayList<>(p.replicas()));
        Map<Integer, Integer> counts = replicaCounts(v, assign);
        Map<TopicPartition, Integer> leader = new HashMap<>();
        for (ClusterView.Partition p : v.partitions) {
            List<Integer> r = assign.get(p.tp());
            int l = p.leader() >= 0 && r.contains(p.leader()) ? p.leader() : r.get(0);
            Integer rf = changing.get(p.topic());
            if (rf != null) {
                while (r.size() < rf) {
                    Integer best = null;
                    search:
                    for (boolean allowExcluded : new boolean[] {false, true}) {
                        for (boolean needRack : new boolean[] {true, false}) {
                            for (int b : v.brokers.keySet()) {
                                if (r.contains(b)) continue;
                                if (!allowExcluded && excludedForReplicaMove.contains(b)) continue;
                                if (needRack && !newRackOk(v, r, b, rf)) continue;
                                if (best == null || counts.get(b) < counts.get(best)) best = b;
                            }
                            if (best != null) break search;
                        }
                    }
                    r.add(best);
                    counts.merge(best, 1, Integer::sum);
                }
                while (r.size() > rf) {
                    int drop = -1;
                    for (int b : r) {
                        if (b == l) continue;
                        if (drop < 0 || dropScore(v, r, b, counts) > dropScore(v, r, drop, counts)) drop = b;
                    }
                    r.remove(Integer.valueOf(drop));
                    counts.merge(drop, -1, Integer::sum);
                }
            }
            leader.put(p.tp(), l);
        }
        Set<String> keepLeaders = new TreeSet<>(changing.keySet());
        for (String t : topics) if (excluded != null && excluded.matcher(t).matches()) keepLeaders.add(t);
        greedyLeaders(v, assign, leader, v.brokers.keySet(), v.brokers.keySet(), keepLeaders);
        finish(plan, v, assign, leader);
        return plan;
    }

    private static boolean newRackOk(ClusterView v, List<Integer> r, int candidate, int rf) {
        if (!v.racksKnown() || rf > v.numRacks()) return true;
        String rack = v.rackOf(candidate);
        for (int b : r) if (rack.equals(v.rackOf(b))) return false;
        return true;
    }

    /** Higher = better to drop: replicas sharing a rack first, then the busiest broker. */
    private static int dropScore(ClusterView v, List<Integer> r, int b, Map<Integer, Integer> counts) {
        int sameRack = 0;
        if (v.racksKnown()) for (int o : r) if (o != b && v.rackOf(o).equals(v.rackOf(b))) sameRack++;
        return sameRack * 1_000_000 + counts.getOrDefault(b, 0);
    }
}
