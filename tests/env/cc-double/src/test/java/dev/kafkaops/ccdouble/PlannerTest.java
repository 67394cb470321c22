package dev.kafkaops.ccdouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The greedy planner's boundaries: what each operation may move, racks, RF changes, errors. */
class PlannerTest {
    /** Brokers 1..n (racks optional) and partitions given as replica lists (leader = first). */
    static ClusterView view(int brokers, List<String> racks, Map<String, List<List<Integer>>> topics) {
        ClusterView v = new ClusterView();
        for (int b = 1; b <= brokers; b++) {
            v.brokers.put(b, new ClusterView.Broker(b, "localhost", racks.isEmpty() ? null : racks.get(b - 1)));
        }
        for (var e : new TreeMap<>(topics).entrySet()) {
            int p = 0;
            for (List<Integer> r : e.getValue()) {
                v.partitions.add(new ClusterView.Partition(e.getKey(), p++, r, r.get(0), r));
            }
        }
        v.findDeadBrokers();
        return v;
    }

    static List<List<Integer>> onFirstThree(int partitions) {
        int[] a = {1, 2, 3};
        java.util.ArrayList<List<Integer>> out = new java.util.ArrayList<>();
        for (int i = 0; i < partitions; i++) out.add(List.of(a[i % 3], a[(i + 1) % 3]));
        return out;
    }

    static Map<Integer, Integer> counts(ClusterView v, Planner.Plan plan) {
        return ClusterView.replicaCounts(v.brokers.keySet(), plan.after.values());
    }

    @Test
    void addBrokerMovesOnlyOntoTheNewBroker() throws Exception {
        ClusterView v = view(4, List.of(), Map.of("t", onFirstThree(12)));
        Planner.Plan plan = Planner.balance(v, Planner.Mode.ADD_BROKER, Set.of(4), Set.of(), null, Set.of(), false);
        assertFalse(plan.isEmpty());
        for (Planner.Proposal p : plan.proposals) {
            for (int b : p.newReplicas()) if (!p.oldReplicas().contains(b)) assertEquals(4, b, p.toString());
        }
        Map<Integer, Integer> c = counts(v, plan);
        assertEquals(6, c.get(4), c.toString());
        assertEquals(24, c.values().stream().mapToInt(i -> i).sum());
        assertTrue(Planner.leaderCounts(v, plan.leaderAfter).get(4) >= 2, "broker 4 gets leaders too");
    }

    @Test
    void removeBrokerMovesEverythingOffIncludingExcludedTopics() throws Exception {
        ClusterView v = view(4, List.of(), Map.of("t", List.of(List.of(4, 1), List.of(1, 2), List.of(2, 4)),
            "x", List.of(List.of(4, 3))));
        Planner.Plan plan = Planner.balance(v, Planner.Mode.REMOVE_BROKER, Set.of(4), Set.of(), Pattern.compile("x"), Set.of(), false);
        assertEquals(0, counts(v, plan).get(4));
        for (Planner.Proposal p : plan.proposals) {
            Set<Integer> added = new HashSet<>(p.newReplicas());
            added.removeAll(p.oldReplicas());
            Set<Integer> removed = new HashSet<>(p.oldReplicas());
            removed.removeAll(p.newReplicas());
            assertEquals(Set.of(4), removed, "only broker 4 loses replicas: " + p);
        }
        assertEquals(List.of("x"), plan.excludedTopics);
    }

    @Test
    void removeBrokerHonoursDestinations() throws Exception {
        ClusterView v = view(4, List.of(), Map.of("t", List.of(List.of(4, 1), List.of(4, 2))));
        Planner.Plan plan = Planner.balance(v, Planner.Mode.REMOVE_BROKER, Set.of(4), Set.of(3), null, Set.of(), false);
        for (Planner.Proposal p : plan.proposals) assertTrue(p.newReplicas().contains(3), p.toString());
    }

    @Test
    void rebalanceEvensCountsAndKeepsExcludedTopicsInPlace() throws Exception {
        ClusterView v = view(3, List.of(), Map.of("a", List.of(List.of(1, 2), List.of(1, 2), List.of(1, 2), List.of(1, 2)),
            "keep", List.of(List.of(1, 2))));
        Planner.Plan plan = Planner.balance(v, Planner.Mode.REBALANCE, Set.of(), Set.of(), Pattern.compile("keep"), Set.of(), false);
        Map<Integer, Integer> c = counts(v, plan);
        int max = c.values().stream().mapToInt(i -> i).max().orElse(0);
        int min = c.values().stream().mapToInt(i -> i).min().orElse(0);
        assertTrue(max - min <= 1, c.toString());
        assertTrue(plan.proposals.stream().noneMatch(p -> p.tp().topic().equals("keep")));
        assertFalse(Planner.skewed(c, 0.25));
    }

    @Test
    void balancedClusterGivesAnEmptyPlan() throws Exception {
        ClusterView v = view(3, List.of(), Map.of("t", onFirstThree(6)));
        assertTrue(Planner.balance(v, Planner.Mode.REBALANCE, Set.of(), Set.of(), null, Set.of(), false).isEmpty());
    }

    @Test
    void racksStayDistinct() throws Exception {
        // Broker 2 is alone on rack r2: balancing counts naively would move its replicas onto r1.
        ClusterView v = view(4, List.of("r1", "r2", "r1", "r1"), Map.of("t", List.of(List.of(1, 2), List.of(1, 2), List.of(1, 2),
            List.of(1, 2), List.of(1, 2), List.of(1, 2))));
        Planner.Plan plan = Planner.balance(v, Planner.Mode.REBALANCE, Set.of(), Set.of(), null, Set.of(), false);
        for (List<Integer> r : plan.after.values()) {
            assertEquals(2, new HashSet<>(r.stream().map(v::rackOf).toList()).size(), "distinct racks: " + r);
        }
        Map<Integer, Integer> c = counts(v, plan);
        assertEquals(Map.of(1, 2, 2, 6, 3, 2, 4, 2), c, "only rack-r1 replicas spread out");
    }

    @Test
    void unknownBrokerIsTheRealError() {
        ClusterView v = view(3, List.of(), Map.of("t", onFirstThree(3)));
        CcException e = assertThrows(CcException.class,
            () -> Planner.balance(v, Planner.Mode.ADD_BROKER, Set.of(9), Set.of(), null, Set.of(), false));
        assertTrue(e.getMessage().endsWith("java.lang.IllegalArgumentException: Broker [9] does not exist."), e.getMessage());
    }

    @Test
    void replicationFactorUpAndDownKeepsLeaderAndRacks() throws Exception {
        ClusterView v = view(4, List.of("r1", "r2", "r3", "r1"), Map.of("up", List.of(List.of(1, 2), List.of(2, 3)),
            "down", List.of(List.of(1, 4, 2))));
        Planner.Plan plan = Planner.replicationFactor(v, Map.of(3, "up", 2, "down"), false);
        for (var e : plan.after.entrySet()) {
            List<Integer> r = e.getValue();
            if (e.getKey().topic().equals("up")) {
                assertEquals(3, r.size());
                assertEquals(3, new HashSet<>(r.stream().map(v::rackOf).toList()).size(), "distinct racks: " + r);
            } else {
                assertEquals(2, r.size());
                assertEquals(1, r.get(0), "the leader stays");
                assertFalse(r.contains(4), "the replica sharing rack r1 with the leader goes: " + r);
            }
        }
    }

    @Test
    void replicationFactorErrors() throws Exception {
        ClusterView v = view(3, List.of("r1", "r1", "r2"), Map.of("t", List.of(List.of(1, 2))));
        assertTrue(assertThrows(CcException.class, () -> Planner.replicationFactor(v, Map.of(4, "t"), true))
            .getMessage().contains("only 3 alive brokers"));
        assertTrue(assertThrows(CcException.class, () -> Planner.replicationFactor(v, Map.of(3, "t"), false))
            .getMessage().contains("only 2 racks"));
        Planner.replicationFactor(v, Map.of(3, "t"), true);
        assertTrue(assertThrows(CcException.class, () -> Planner.replicationFactor(v, Map.of(2, "t"), false))
            .getMessage().contains("already have target replication factor"));
        assertTrue(assertThrows(CcException.class, () -> Planner.replicationFactor(v, Map.of(2, "t.+"), false))
            .getMessage().contains("There is no topic in cluster matching pattern 't.+'."));
    }

    @Test
    void aDeadBrokerIsKnownAndRebalanceDrainsIt() throws Exception {
        // Broker 4 is down but still holds replicas: CC's model has it as DEAD and moves its replicas away.
        ClusterView v = view(3, List.of(), Map.of("t", List.of(List.of(1, 4), List.of(2, 4), List.of(3, 1))));
        assertEquals(Set.of(4), v.deadBrokers);
        Planner.Plan plan = Planner.balance(v, Planner.Mode.REBALANCE, Set.of(), Set.of(), null, Set.of(), false);
        for (List<Integer> r : plan.after.values()) assertFalse(r.contains(4), "drained: " + plan.after);
        var brokers = Json.brokerStats(v, plan.after, plan.leaderAfter).get("brokers");
        boolean dead = false;
        for (var b : brokers) if (b.get("Broker").asInt() == 4) dead = b.get("BrokerState").asText().equals("DEAD");
        assertTrue(dead, brokers.toString());
        // remove_broker of the dead broker is allowed (it is known); add_broker never fills it.
        Planner.balance(v, Planner.Mode.REMOVE_BROKER, Set.of(4), Set.of(), null, Set.of(), false);
        Planner.Plan add = Planner.balance(v, Planner.Mode.ADD_BROKER, Set.of(4), Set.of(), null, Set.of(), false);
        for (Planner.Proposal p : add.proposals) assertFalse(p.newReplicas().contains(4) && !p.oldReplicas().contains(4), p.toString());
    }

    @Test
    void replicationFactorChangeAlsoEvensOtherTopicsLeaders() throws Exception {
        // "other" has every leader on broker 1; changing "rf" also proposes leader moves on "other" (section 14),
        // never on the changed topic itself.
        ClusterView v = view(3, List.of(), Map.of("rf", List.of(List.of(2)),
            "other", List.of(List.of(1, 2, 3), List.of(1, 2, 3), List.of(1, 3, 2), List.of(1, 3, 2))));
        Planner.Plan plan = Planner.replicationFactor(v, Map.of(2, "rf"), true);
        long otherLeaderMoves = plan.proposals.stream()
            .filter(p -> p.tp().topic().equals("other") && p.newLeader() != p.oldLeader()).count();
        assertTrue(otherLeaderMoves >= 2, plan.proposals.toString());
        for (Planner.Proposal p : plan.proposals) {
            if (p.tp().topic().equals("rf")) assertEquals(2, p.newLeader(), "the changed topic keeps its leader");
            if (p.tp().topic().equals("other")) assertEquals(new HashSet<>(p.oldReplicas()), new HashSet<>(p.newReplicas()));
        }
        Planner.Plan excluded = Planner.replicationFactor(v, Map.of(2, "rf"), true, Pattern.compile("other"), Set.of());
        assertTrue(excluded.proposals.stream().noneMatch(p -> p.tp().topic().equals("other")), excluded.proposals.toString());
    }
}
