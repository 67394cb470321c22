package dev.kafkaops.ccdouble;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Hard goals are enforced, as in Cruise Control: a plan that would leave a hard goal violated fails with
 * {@code OptimizationFailureException} and the goal's own message; there is never a partial proposal
 * (reference section 13, "A proposal that cannot satisfy a hard goal fails"). The double checks the hard
 * goal it can judge, {@code RackAwareGoal}: every partition the plan touches keeps its replicas on distinct
 * racks whenever the cluster has as many racks as the partition has replicas.
 */
final class HardGoals {
    private HardGoals() {}

    static void check(Planner.Plan plan, List<String> goals) throws CcException {
        if (!goals.contains("RackAwareGoal")) return;
        ClusterView v = plan.before;
        if (!v.racksKnown()) return;
        for (Planner.Proposal p : plan.proposals) {
            List<Integer> r = p.newReplicas();
            if (r.size() > v.numRacks()) continue;
            Set<String> seen = new TreeSet<>();
            for (int i = 0; i < r.size(); i++) {
                int b = r.get(i);
                String rack = v.rackOf(b);
                if (seen.add(rack)) continue;
                Set<String> others = new TreeSet<>();
                for (int o : r) if (o != b) others.add(v.rackOf(o));
                String replica = "Replica[isLeader=" + (i == 0) + ",rack=" + rack + ",broker=" + b + ",TopicPartition=" + p.tp()
                    + ",origPos=" + p.oldReplicas().indexOf(b) + ",newPos=" + i + "]";
                throw CcException.optimizationFailure("RackAwareGoal", "Cannot move " + replica + " to a broker in a rack other than "
                    + others + ". Add at least 1 broker to a rack other than " + others + ".");
            }
        }
    }
}
