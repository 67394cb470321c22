package dev.kafkaops.ccdouble;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * Cruise Control's check for reassignments it did not start ({@code KafkaCruiseControl#sanityCheckDryRun}):
 * before a non-dry run with no execution of its own in progress, it lists the partitions being reassigned;
 * with {@code auto.stop.external.agent=false} it refuses with an IllegalStateException naming them, with
 * {@code true} (its default) it stops them, which {@link Executor} does when the execution starts.
 */
final class ExternalAgent {
    private ExternalAgent() {}

    static void sanityCheck(Admin admin, boolean autoStop) throws CcException {
        if (autoStop) return;
        Set<TopicPartition> ongoing;
        try {
            ongoing = admin.listPartitionReassignments().reassignments().get(20, TimeUnit.SECONDS).keySet();
        } catch (Exception e) {
            throw CcException.illegalState("Cannot execute new proposals due to failure to "
                + "retrieve whether the Kafka cluster has an already ongoing partition reassignment.");
        }
        if (ongoing.isEmpty()) return;
        Set<String> names = new TreeSet<>();
        for (TopicPartition tp : ongoing) names.add(tp.toString());
        throw CcException.illegalState("Cannot execute new proposals while there are ongoing "
            + "partition reassignments initiated by external agent: " + names);
    }
}
