package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;

/**
 * Executes a plan on the real cluster, one execution at a time, as Cruise Control's Executor does:
 * inter-broker moves are submitted as partition reassignments within the per-broker and cluster
 * concurrency limits, progress is read back from listPartitionReassignments, then leadership is moved by
 * preferred-leader election within the per-broker (default 250) and cluster (default 1000) leadership caps.
 * Every proposal whose replica list changes is a partition movement, leader-only reorders included, as CC's
 * ExecutionTaskPlanner counts them (reference section 14: 34 proposed replica movements, 0/38 partitions).
 *
 * <p>Start and stop as a real CC shows them (section 14): {@code STARTING_EXECUTION} for
 * {@code --first-move-delay-millis} before the first reassignment; a stop is noticed at the next progress check
 * (the state stays in its phase until then), cancels the reassignments in flight and lingers in
 * {@code STOPPING_EXECUTION} for {@code --stop-linger-millis} before the executor is idle and the task ends
 * CompletedWithError. A reassignment Kafka refuses (a destination whose log dirs are all cordoned:
 * InvalidReplicaAssignmentException) is a dead task, and dead tasks make CC stop the execution itself: the
 * rest is cancelled and the task ends CompletedWithError. Removed brokers are "recently removed" from the
 * moment their removal starts.
 * With replication_throttle, the
 * replica phase runs throttled as Cruise Control's ReplicationThrottleHelper does it, batch by batch: before
 * a batch is submitted its brokers get leader./follower.replication.throttled.rate = the throttle when unset
 * or different (a rate changed by hand is set back at the next batch involving that broker), each moving topic
 * its leader (old replicas) and follower (new replicas) throttled.replicas unless they are "*"; after a batch,
 * brokers with no task left in progress lose their (non-static) rates, and at the end, completed or stopped,
 * everything the submitted tasks were throttled with is cleared.
 */
final class Executor {
    enum TaskState { PENDING, IN_PROGRESS, ABORTING, ABORTED, DEAD, COMPLETED }

    static final class Task {
        final long executionId;
        final String type;
        final Planner.Proposal proposal;
        final long bytes;
        volatile TaskState state = TaskState.PENDING;
        long finishedSeenMs;

        Task(long id, String type, Planner.Proposal p, long bytes) {
            this.executionId = id; this.type = type; this.proposal = p; this.bytes = bytes;
        }

        Set<Integer> brokersInvolved() {
            Set<Integer> s = new HashSet<>(proposal.oldReplicas());
            s.addAll(proposal.newReplicas());
            Set<Integer> both = new HashSet<>(proposal.oldReplicas());
            both.retainAll(proposal.newReplicas());
            s.removeAll(both);
            return s;
        }
    }

    static final class Execution {
        final String userTaskId;
        final boolean selfHealing;
        final String reason;
        // Volatile, not final: POST /admin changes them while the execution runs.
        volatile int perBroker;
        volatile int maxInCluster;
        /** Cluster leadership cap (concurrent_leader_movements, CC default 1000). */
        volatile int leaderConcurrency;
        /** Per-broker leadership cap (broker_concurrent_leader_movements, CC default 250). */
        volatile int brokerLeaderConcurrency = DEFAULT_BROKER_LEADER_CONCURRENCY;
        final List<Task> replicaTasks = new ArrayList<>();
        final List<Task> leaderTasks = new ArrayList<>();
        final Set<Integer> removedBrokers = new TreeSet<>();
        final Consumer<Boolean> onDone;
        volatile String state = "STARTING_EXECUTION";
        volatile boolean stopRequested;
        /** Who stopped it: the user (stop_proposal_execution) or CC itself (dead tasks). */
        volatile boolean stoppedByUser;
        /** replication_throttle in bytes/s (null: none). */
        volatile Long throttle;

        Execution(String userTaskId, boolean selfHealing, String reason, int perBroker, int maxInCluster,
                  int leaderConcurrency, Consumer<Boolean> onDone) {
            this.userTaskId = userTaskId; this.selfHealing = selfHealing; this.reason = reason;
            this.perBroker = perBroker; this.maxInCluster = maxInCluster; this.leaderConcurrency = leaderConcurrency;
            this.onDone = onDone;
        }
    }

    static final int DEFAULT_BROKER_LEADER_CONCURRENCY = 250;
    static final int DEFAULT_INTRA_BROKER_CONCURRENCY = 2;

    private final Admin admin;
    private final long pollMillis;
    private long stopLingerMillis;
    private long firstMoveDelayMillis;
    private final AtomicLong nextTaskId = new AtomicLong();
    private Execution current;
    private final Set<Integer> recentlyRemovedBrokers = new TreeSet<>();

    Executor(Admin admin, long pollMillis) { this(admin, pollMillis, 0); }

    /** @param progressStepMillis how often the reported counters refresh (0: live), see {@link ProgressSteps} */
    Executor(Admin admin, long pollMillis, long progressStepMillis) {
        this.admin = admin;
        this.pollMillis = pollMillis;
        this.steps = new ProgressSteps(progressStepMillis);
    }

    private final ProgressSteps steps;

    /** {@code --stop-linger-millis} and {@code --first-move-delay-millis} (both 0 by default). */
    void timing(long stopLingerMillis, long firstMoveDelayMillis) {
        this.stopLingerMillis = stopLingerMillis;
        this.firstMoveDelayMillis = firstMoveDelayMillis;
    }

    /** admin?drop_recently_removed_brokers: false when none of them was recently removed. */
    synchronized boolean dropRecentlyRemoved(Set<Integer> brokers) {
        return recentlyRemovedBrokers.removeAll(brokers);
    }

    synchronized boolean hasOngoingExecution() { return current != null; }

    synchronized Set<Integer> recentlyRemovedBrokers() { return new TreeSet<>(recentlyRemovedBrokers); }

    /** Builds an execution for {@code plan}. The caller starts it with {@link #start}. */
    Execution prepare(Planner.Plan plan, String userTaskId, boolean selfHealing, String reason, int perBroker, int maxInCluster,
                      int leaderConcurrency, Consumer<Boolean> onDone) {
        Execution e = new Execution(userTaskId, selfHealing, reason, perBroker, maxInCluster, leaderConcurrency, onDone);
        for (Planner.Proposal p : plan.proposals) {
            // Any change of the replica list, a leader-only reorder included, is a partition movement (section 14).
            if (!p.newReplicas().equals(p.oldReplicas())) {
                e.replicaTasks.add(new Task(nextTaskId.getAndIncrement(), "INTER_BROKER_REPLICA_ACTION", p,
                    plan.before.size(p.tp()) * p.addedReplicas()));
            }
            // A replication-factor increase runs a replica phase, then a leader phase (reference section 13).
            boolean rfIncrease = plan.mode == Planner.Mode.REPLICATION_FACTOR && p.addedReplicas() > 0;
            if (p.newLeader() != p.oldLeader() || rfIncrease) {
                e.leaderTasks.add(new Task(nextTaskId.getAndIncrement(), "LEADER_ACTION", p, 0));
            }
        }
        if (plan.mode == Planner.Mode.REMOVE_BROKER) e.removedBrokers.addAll(plan.modeBrokers);
        return e;
    }

    /** Starts {@code e} on its own thread; fails like CC when another execution is running. */
    synchronized void start(Execution e) throws CcException {
        if (current != null) throw CcException.ongoingExecution();
        current = e;
        // CC records the removal when the execution starts, so the brokers show in recentlyRemovedBrokers during
        // the removal and after it, however it ends (reference section 14).
        recentlyRemovedBrokers.addAll(e.removedBrokers);
        Thread t = new Thread(() -> run(e), "cc-double-executor");
        t.setDaemon(true);
        t.start();
    }

    /** POST /admin: new concurrency for the running execution (null keeps a value); false when idle. */
    synchronized boolean changeConcurrency(Integer perBroker, Integer inCluster, Integer leader, Integer brokerLeader) {
        if (current == null) return false;
        if (perBroker != null) current.perBroker = perBroker;
        if (inCluster != null) current.maxInCluster = inCluster;
        if (leader != null) current.leaderConcurrency = leader;
        if (brokerLeader != null) current.brokerLeaderConcurrency = brokerLeader;
        return true;
    }

    /** Asks the running execution to stop; returns at once (CC does not wait for the in-flight batch). */
    synchronized void stop() {
        if (current != null && !current.stopRequested) {
            current.stoppedByUser = true;
            current.stopRequested = true;
        }
    }

    /** Stops the running execution and waits until it has ended (stop_ongoing_execution=true). */
    void stopAndWait(long timeoutMs) throws CcException {
        stop();
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (hasOngoingExecution()) {
            if (System.currentTimeMillis() > deadline) throw CcException.ongoingExecution();
            sleep(50);
        }
    }

    private void run(Execution e) {
        boolean ok = true;
        try {
            stopExternalReassignments(e);
            // Before the first move a real CC spends 10-45 s in STARTING_EXECUTION (section 14).
            e.state = "STARTING_EXECUTION";
            long until = System.currentTimeMillis() + firstMoveDelayMillis;
            while (!e.stopRequested && System.currentTimeMillis() < until) sleep(Math.min(50, until - System.currentTimeMillis()));
            if (!e.stopRequested) {
                // Throttles are set batch by batch inside (ReplicationThrottleHelper).
                ok = moveReplicas(e) && ok;
            }
            if (!e.stopRequested) ok = moveLeaders(e) && ok;
            if (e.stopRequested) ok = false;
        } catch (Exception ex) {
            System.err.println("cc-double: execution failed: " + ex);
            ok = false;
        } finally {
            if (e.stopRequested) {
                e.state = "STOPPING_EXECUTION";
                System.err.println("cc-double: execution " + e.userTaskId + " phase STOPPING_EXECUTION (stopped by "
                    + (e.stoppedByUser ? "user" : "Cruise Control") + ")");
                sleep(stopLingerMillis);
            }
            try {
                clearThrottles(e);
            } catch (Exception ex) {
                System.err.println("cc-double: clearing the throttles failed: " + ex);
            }
            synchronized (this) {
                current = null;
            }
            e.state = "NO_TASK_IN_PROGRESS";
            e.onDone.accept(ok);
        }
    }

    /** Dead tasks make Cruise Control stop the execution itself (its handleDeadInterBrokerReplicaTasks). */
    private static void stopForDeadTasks(Execution e, int dead) {
        if (e.stopRequested) return;
        System.err.println("cc-double: execution " + e.userTaskId + ": stop the execution due to " + dead + " dead tasks");
        e.stoppedByUser = false;
        e.stopRequested = true;
    }

    private static final String LEADER_RATE = "leader.replication.throttled.rate";
    private static final String FOLLOWER_RATE = "follower.replication.throttled.rate";
    private static final String LEADER_REPLICAS = "leader.replication.throttled.replicas";
    private static final String FOLLOWER_REPLICAS = "follower.replication.throttled.replicas";

    /** The brokers of {@code tasks}' proposals, old and new replicas (CC's getParticipatingBrokers). */
    private static Set<Integer> throttledBrokers(List<Task> tasks) {
        Set<Integer> brokers = new TreeSet<>();
        for (Task t : tasks) {
            brokers.addAll(t.proposal.oldReplicas());
            brokers.addAll(t.proposal.newReplicas());
        }
        return brokers;
    }

    private static org.apache.kafka.common.config.ConfigResource broker(int b) {
        return new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.BROKER,
            String.valueOf(b));
    }

    private static org.apache.kafka.common.config.ConfigResource topic(String t) {
        return new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC, t);
    }

    /** The entry of {@code key} on {@code r} (null: unset or Kafka's default). */
    private org.apache.kafka.clients.admin.ConfigEntry entry(org.apache.kafka.common.config.ConfigResource r, String key)
        throws Exception {
        var config = admin.describeConfigs(List.of(r)).all().get(20, TimeUnit.SECONDS).get(r);
        var entry = config == null ? null : config.get(key);
        if (entry == null || entry.value() == null || entry.value().isEmpty()) return null;
        if (entry.source() == org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DEFAULT_CONFIG) return null;
        return entry;
    }

    /** The current value of {@code key} on {@code r} (null: unset). */
    private String current(org.apache.kafka.common.config.ConfigResource r, String key) throws Exception {
        var entry = entry(r, key);
        return entry == null ? null : entry.value();
    }

    /** Per topic: the throttled-replica entries ("partition:broker") of {@code tasks}, leader and follower side. */
    private static Map<String, List<Set<String>>> throttledReplicas(List<Task> tasks) {
        Map<String, List<Set<String>>> out = new java.util.TreeMap<>();
        for (Task t : tasks) {
            TopicPartition tp = t.proposal.tp();
            List<Set<String>> sides = out.computeIfAbsent(tp.topic(), k -> List.of(new TreeSet<>(), new TreeSet<>()));
            for (int b : t.proposal.oldReplicas()) sides.get(0).add(tp.partition() + ":" + b);
            for (int b : t.proposal.newReplicas()) {
                if (!t.proposal.oldReplicas().contains(b)) sides.get(1).add(tp.partition() + ":" + b);
            }
        }
        return out;
    }

    /**
     * replication_throttle, before a batch of replica moves is submitted, as Cruise Control's
     * ReplicationThrottleHelper.setThrottles does (setThrottledRateIfNecessary, since linkedin/cruise-control#2080, 2023): every
     * broker of the batch gets leader./follower.replication.throttled.rate = the execution's throttle when it
     * is unset or differs (so a rate changed by hand during the execution is set back at the next batch that
     * involves that broker); the batch's replicas are added to each topic's throttled replicas unless "*".
     */
    private void setThrottles(Execution e, List<Task> batch) throws Exception {
        if (e.throttle == null || batch.isEmpty()) return;
        String rate = String.valueOf(e.throttle);
        Map<org.apache.kafka.common.config.ConfigResource, java.util.Collection<org.apache.kafka.clients.admin.AlterConfigOp>> ops =
            new HashMap<>();
        Set<Integer> reset = new TreeSet<>();
        for (int b : throttledBrokers(batch)) {
            List<org.apache.kafka.clients.admin.AlterConfigOp> mine = new ArrayList<>();
            for (String key : List.of(LEADER_RATE, FOLLOWER_RATE)) {
                if (!rate.equals(current(broker(b), key))) {
                    mine.add(set(key, rate));
                    reset.add(b);
                }
            }
            if (!mine.isEmpty()) ops.put(broker(b), mine);
        }
        for (var entry : throttledReplicas(batch).entrySet()) {
            List<org.apache.kafka.clients.admin.AlterConfigOp> mine = new ArrayList<>();
            List<String> keys = List.of(LEADER_REPLICAS, FOLLOWER_REPLICAS);
            for (int i = 0; i < 2; i++) {
                String now = current(topic(entry.getKey()), keys.get(i));
                if ("*".equals(now) || entry.getValue().get(i).isEmpty()) continue;
                Set<String> merged = new TreeSet<>(entry.getValue().get(i));
                if (now != null) for (String x : now.split(",")) if (!x.isBlank()) merged.add(x.trim());
                mine.add(set(keys.get(i), String.join(",", merged)));
            }
            if (!mine.isEmpty()) ops.put(topic(entry.getKey()), mine);
        }
        if (!ops.isEmpty()) admin.incrementalAlterConfigs(ops).all().get(20, TimeUnit.SECONDS);
        System.err.println("cc-double: execution " + e.userTaskId + " throttled to " + rate + " B/s; rates set on " + reset);
    }

    /**
     * After a batch, as ReplicationThrottleHelper.clearThrottles does: the brokers of the finished tasks that
     * have no task in progress lose their throttle rates (whatever their value, unless static), the finished
     * tasks' replicas leave the topics' throttled replicas.
     */
    private void clearThrottles(Execution e, List<Task> finished, java.util.Collection<Task> inProgress) throws Exception {
        if (e.throttle == null || finished.isEmpty()) return;
        Map<org.apache.kafka.common.config.ConfigResource, java.util.Collection<org.apache.kafka.clients.admin.AlterConfigOp>> ops =
            new HashMap<>();
        Set<Integer> brokers = throttledBrokers(finished);
        brokers.removeAll(throttledBrokers(new ArrayList<>(inProgress)));
        for (int b : brokers) {
            List<org.apache.kafka.clients.admin.AlterConfigOp> mine = new ArrayList<>();
            for (String key : List.of(LEADER_RATE, FOLLOWER_RATE)) {
                var now = entry(broker(b), key);
                if (now != null && now.source() != org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG) {
                    mine.add(delete(key));
                }
            }
            if (!mine.isEmpty()) ops.put(broker(b), mine);
        }
        for (var entry : throttledReplicas(finished).entrySet()) {
            List<org.apache.kafka.clients.admin.AlterConfigOp> mine = new ArrayList<>();
            List<String> keys = List.of(LEADER_REPLICAS, FOLLOWER_REPLICAS);
            for (int i = 0; i < 2; i++) {
                String now = current(topic(entry.getKey()), keys.get(i));
                if (now == null || "*".equals(now)) continue;
                Set<String> left = new TreeSet<>();
                for (String x : now.split(",")) if (!x.isBlank()) left.add(x.trim());
                left.removeAll(entry.getValue().get(i));
                mine.add(left.isEmpty() ? delete(keys.get(i)) : set(keys.get(i), String.join(",", left)));
            }
            if (!mine.isEmpty()) ops.put(topic(entry.getKey()), mine);
        }
        if (!ops.isEmpty()) admin.incrementalAlterConfigs(ops).all().get(20, TimeUnit.SECONDS);
    }

    /** At the end (completed or stopped): what the submitted tasks may still hold is cleared. */
    private void clearThrottles(Execution e) throws Exception {
        List<Task> submitted = new ArrayList<>();
        for (Task t : e.replicaTasks) if (t.state != TaskState.PENDING) submitted.add(t);
        clearThrottles(e, submitted, List.of());
    }

    private static org.apache.kafka.clients.admin.AlterConfigOp set(String k, String v) {
        return new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(k, v),
            org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET);
    }

    private static org.apache.kafka.clients.admin.AlterConfigOp delete(String k) {
        return new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(k, ""),
            org.apache.kafka.clients.admin.AlterConfigOp.OpType.DELETE);
    }

    /** auto.stop.external.agent=true: reassignments CC did not start are cancelled before it starts. */
    private void stopExternalReassignments(Execution e) throws Exception {
        var ongoing = admin.listPartitionReassignments().reassignments().get(20, TimeUnit.SECONDS);
        if (ongoing.isEmpty()) return;
        e.state = "STOPPING_EXECUTION";
        Map<TopicPartition, Optional<NewPartitionReassignment>> cancel = new HashMap<>();
        for (TopicPartition tp : ongoing.keySet()) cancel.put(tp, Optional.empty());
        try {
            admin.alterPartitionReassignments(cancel).all().get(20, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // A reassignment that finished in between cannot be cancelled; that is fine.
        }
        waitNoReassignments(cancel.keySet(), 30_000);
    }

    private boolean moveReplicas(Execution e) throws Exception {
        if (e.replicaTasks.isEmpty()) return true;
        e.state = "INTER_BROKER_REPLICA_MOVEMENT_TASK_IN_PROGRESS";
        System.err.println("cc-double: execution " + e.userTaskId + " phase " + e.state);
        boolean ok = true;
        Map<TopicPartition, Task> inFlight = new LinkedHashMap<>();
        while (true) {
            if (e.stopRequested) {
                e.state = "STOPPING_EXECUTION";
                Map<TopicPartition, Optional<NewPartitionReassignment>> cancel = new HashMap<>();
                for (var t : inFlight.values()) { t.state = TaskState.ABORTING; cancel.put(t.proposal.tp(), Optional.empty()); }
                if (!cancel.isEmpty()) {
                    var futures = admin.alterPartitionReassignments(cancel).values();
                    for (var f : futures.entrySet()) {
                        try { f.getValue().get(20, TimeUnit.SECONDS); } catch (Exception ignored) { /* already finished */ }
                    }
                    waitNoReassignments(cancel.keySet(), 30_000);
                }
                for (var t : inFlight.values()) t.state = TaskState.ABORTED;
                return false;
            }
            // Submit pending tasks within the concurrency limits.
            Map<Integer, Integer> perBroker = new HashMap<>();
            for (Task t : inFlight.values()) for (int b : t.brokersInvolved()) perBroker.merge(b, 1, Integer::sum);
            Map<TopicPartition, Optional<NewPartitionReassignment>> submit = new LinkedHashMap<>();
            List<Task> submitted = new ArrayList<>();
            for (Task t : e.replicaTasks) {
                if (t.state != TaskState.PENDING) continue;
                if (inFlight.size() + submitted.size() >= e.maxInCluster) break;
                boolean fits = true;
                for (int b : t.brokersInvolved()) if (perBroker.getOrDefault(b, 0) >= e.perBroker) fits = false;
                if (!fits) continue;
                for (int b : t.brokersInvolved()) perBroker.merge(b, 1, Integer::sum);
                submit.put(t.proposal.tp(), Optional.of(new NewPartitionReassignment(t.proposal.newReplicas())));
                submitted.add(t);
            }
            if (!submit.isEmpty()) {
                setThrottles(e, submitted);
                var futures = admin.alterPartitionReassignments(submit).values();
                for (Task t : submitted) {
                    try {
                        futures.get(t.proposal.tp()).get(20, TimeUnit.SECONDS);
                        t.state = TaskState.IN_PROGRESS;
                        inFlight.put(t.proposal.tp(), t);
                    } catch (Exception ex) {
                        // E.g. Kafka 4.4: "The manual partition assignment includes broker 4, but all its log
                        // directories are cordoned." (InvalidReplicaAssignmentException): a dead task.
                        Throwable cause = ex instanceof java.util.concurrent.ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
                        System.err.println("cc-double: reassignment of " + t.proposal.tp() + " refused: " + cause);
                        t.state = TaskState.DEAD;
                        ok = false;
                    }
                }
                long dead = submitted.stream().filter(t -> t.state == TaskState.DEAD).count();
                if (dead > 0) stopForDeadTasks(e, (int) dead);
            }
            if (inFlight.isEmpty() && e.replicaTasks.stream().noneMatch(t -> t.state == TaskState.PENDING)) return ok;
            sleep(pollMillis);
            if (!inFlight.isEmpty()) {
                Set<TopicPartition> ongoing = admin.listPartitionReassignments(inFlight.keySet())
                    .reassignments().get(20, TimeUnit.SECONDS).keySet();
                Set<TopicPartition> done = new HashSet<>(inFlight.keySet());
                done.removeAll(ongoing);
                if (!done.isEmpty()) {
                    // Metadata can lag behind the controller for a moment: a finished reassignment
                    // whose new replicas are not visible yet is checked again on the next round.
                    Map<TopicPartition, List<Integer>> actual = replicasOf(done);
                    long now = System.currentTimeMillis();
                    List<Task> finished = new ArrayList<>();
                    for (TopicPartition tp : done) {
                        Task t = inFlight.get(tp);
                        boolean reached = new HashSet<>(t.proposal.newReplicas()).equals(new HashSet<>(actual.getOrDefault(tp, List.of())));
                        if (reached) {
                            inFlight.remove(tp);
                            t.state = TaskState.COMPLETED;
                            finished.add(t);
                        } else if (t.finishedSeenMs == 0) {
                            t.finishedSeenMs = now;
                        } else if (now - t.finishedSeenMs > 30_000) {
                            inFlight.remove(tp);
                            t.state = TaskState.DEAD;
                            finished.add(t);
                            ok = false;
                            System.err.println("cc-double: reassignment of " + tp + " ended with replicas "
                                + actual.get(tp) + " instead of " + t.proposal.newReplicas());
                            stopForDeadTasks(e, 1);
                        }
                    }
                    clearThrottles(e, finished, inFlight.values());
                }
            }
        }
    }

    private boolean moveLeaders(Execution e) throws Exception {
        if (e.leaderTasks.isEmpty()) return true;
        e.state = "LEADER_MOVEMENT_TASK_IN_PROGRESS";
        System.err.println("cc-double: execution " + e.userTaskId + " phase " + e.state);
        // Leader-only proposals were reordered in the replica phase, so every new leader is the preferred one now.
        boolean ok = true;
        while (true) {
            if (e.stopRequested) return false;
            List<Task> batch = nextLeaderBatch(e);
            if (batch.isEmpty()) return ok;
            Set<TopicPartition> tps = new HashSet<>();
            for (Task t : batch) { t.state = TaskState.IN_PROGRESS; tps.add(t.proposal.tp()); }
            long deadline = System.currentTimeMillis() + 30_000;
            Set<TopicPartition> remaining = new HashSet<>(tps);
            while (!remaining.isEmpty() && System.currentTimeMillis() < deadline) {
                Map<TopicPartition, Optional<Throwable>> res;
                try {
                    res = admin.electLeaders(ElectionType.PREFERRED, remaining).partitions().get(20, TimeUnit.SECONDS);
                } catch (Exception ex) {
                    res = Map.of();
                }
                for (var r : res.entrySet()) {
                    if (r.getValue().isEmpty() || r.getValue().get() instanceof ElectionNotNeededException) {
                        remaining.remove(r.getKey());
                    } else if (System.currentTimeMillis() + pollMillis >= deadline) {
                        System.err.println("cc-double: preferred election of " + r.getKey() + " failed: " + r.getValue().get());
                    }
                }
                if (!remaining.isEmpty()) sleep(pollMillis);
            }
            // A real executor sees a batch done only at its next progress check: leader batches take a poll each.
            sleep(pollMillis);
            for (Task t : batch) {
                t.state = remaining.contains(t.proposal.tp()) ? TaskState.DEAD : TaskState.COMPLETED;
                if (t.state == TaskState.DEAD) {
                    ok = false;
                    System.err.println("cc-double: leadership of " + t.proposal.tp() + " did not move to " + t.proposal.newLeader());
                }
            }
        }
    }

    /**
     * The next leadership batch as CC's ExecutionTaskPlanner picks it: at most the cluster cap, and each task takes
     * one of the per-broker cap of every broker in its new replica list.
     */
    private static List<Task> nextLeaderBatch(Execution e) {
        List<Task> batch = new ArrayList<>();
        Map<Integer, Integer> left = new HashMap<>();
        int quota = e.leaderConcurrency;
        for (Task t : e.leaderTasks) {
            if (quota <= 0) break;
            if (t.state != TaskState.PENDING) continue;
            boolean fits = true;
            for (int b : new HashSet<>(t.proposal.newReplicas())) {
                if (left.getOrDefault(b, e.brokerLeaderConcurrency) <= 0) fits = false;
            }
            if (!fits) continue;
            for (int b : new HashSet<>(t.proposal.newReplicas())) left.put(b, left.getOrDefault(b, e.brokerLeaderConcurrency) - 1);
            batch.add(t);
            quota--;
        }
        return batch;
    }

    private Map<TopicPartition, List<Integer>> replicasOf(Set<TopicPartition> tps) throws Exception {
        Set<String> topics = new HashSet<>();
        for (TopicPartition tp : tps) topics.add(tp.topic());
        Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames().get(20, TimeUnit.SECONDS);
        Map<TopicPartition, List<Integer>> out = new HashMap<>();
        for (var e : d.entrySet()) {
            for (TopicPartitionInfo p : e.getValue().partitions()) {
                out.put(new TopicPartition(e.getKey(), p.partition()), p.replicas().stream().map(Node::id).toList());
            }
        }
        return out;
    }

    private void waitNoReassignments(Set<TopicPartition> tps, long timeoutMs) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            if (admin.listPartitionReassignments(tps).reassignments().get(20, TimeUnit.SECONDS).isEmpty()) return;
            sleep(pollMillis);
        }
    }

    private static void sleep(long ms) {
        try { Thread.sleep(ms); } catch (InterruptedException ie) { Thread.currentThread().interrupt(); }
    }

    /** ExecutorState as in CC's {@code ExecutorState#getJsonStructure}: each state has its own fields. */
    ObjectNode stateJson(boolean verbose) {
        ObjectNode o = Json.obj();
        Execution e;
        Set<Integer> removed;
        synchronized (this) { e = current; removed = new TreeSet<>(recentlyRemovedBrokers); }
        if (!removed.isEmpty()) {
            ArrayNode a = o.putArray("recentlyRemovedBrokers");
            removed.forEach(a::add);
        }
        if (e == null) {
            o.put("state", "NO_TASK_IN_PROGRESS");
            return o;
        }
        String state = e.state;
        o.put("state", state);
        o.put("triggeredUserTaskId", e.selfHealing ? "" : e.userTaskId);
        o.put("triggeredSelfHealingTaskId", e.selfHealing ? e.userTaskId : "");
        o.put("triggeredTaskReason", e.reason);
        switch (state) {
            case "STARTING_EXECUTION" -> { /* ids and reason only */ }
            case "LEADER_MOVEMENT_TASK_IN_PROGRESS" -> {
                int total = e.leaderTasks.size();
                long pending = e.leaderTasks.stream().filter(t -> t.state == TaskState.PENDING).count();
                long finished = e.leaderTasks.stream().filter(t -> t.state == TaskState.COMPLETED || t.state == TaskState.DEAD).count();
                o.put("numTotalLeadershipMovements", total);
                o.put("numPendingLeadershipMovements", pending);
                o.put("numFinishedLeadershipMovements", finished);
                // Per-broker cap (250 by default) and cluster cap (1000) differ (reference section 14).
                o.put("maximumBrokerLeaderMovementConcurrency", e.brokerLeaderConcurrency);
                o.put("minimumBrokerLeaderMovementConcurrency", e.brokerLeaderConcurrency);
                o.put("averageBrokerLeaderMovementConcurrency", (double) e.brokerLeaderConcurrency);
                o.put("clusterLeaderMovementConcurrency", e.leaderConcurrency);
                if (verbose) {
                    ArrayNode a = o.putArray("pendingLeadershipMovement");
                    for (Task t : e.leaderTasks) if (t.state == TaskState.PENDING) a.add(taskJson(t));
                }
            }
            case "STOPPING_EXECUTION" -> {
                long inProgress = e.replicaTasks.stream().filter(t -> t.state == TaskState.IN_PROGRESS).count();
                long aborting = e.replicaTasks.stream().filter(t -> t.state == TaskState.ABORTING).count();
                long cancelled = e.replicaTasks.stream().filter(t -> t.state == TaskState.PENDING).count();
                long cancelledLeaders = e.leaderTasks.stream().filter(t -> t.state == TaskState.PENDING).count();
                o.put("maximumConcurrentPartitionMovementsPerBroker", e.perBroker);
                o.put("maximumConcurrentIntraBrokerPartitionMovementsPerBroker", DEFAULT_INTRA_BROKER_CONCURRENCY);
                o.put("maximumBrokerLeaderMovementConcurrency", e.brokerLeaderConcurrency);
                o.put("clusterLeaderMovementConcurrency", e.leaderConcurrency);
                o.put("numCancelledLeadershipMovements", cancelledLeaders);
                o.put("numInProgressPartitionMovements", inProgress);
                o.put("abortingPartitions", aborting);
                o.put("numCancelledPartitionMovements", cancelled);
                o.put("numInProgressIntraBrokerPartitionMovements", 0);
                o.put("numAbortingIntraBrokerPartitionMovements", 0);
                o.put("numCancelledIntraBrokerPartitionMovements", 0);
                if (verbose) {
                    ArrayNode cl = o.putArray("cancelledLeadershipMovement");
                    for (Task t : e.leaderTasks) if (t.state == TaskState.PENDING) cl.add(taskJson(t));
                    ArrayNode cp = o.putArray("cancelledPartitionMovement");
                    ArrayNode ip = o.putArray("inProgressPartitionMovement");
                    ArrayNode ap = o.putArray("abortingPartitionMovement");
                    for (Task t : e.replicaTasks) {
                        if (t.state == TaskState.PENDING) cp.add(taskJson(t));
                        if (t.state == TaskState.IN_PROGRESS) ip.add(taskJson(t));
                        if (t.state == TaskState.ABORTING) ap.add(taskJson(t));
                    }
                    o.putArray("cancelledIntraBrokerPartitionMovement");
                    o.putArray("inProgressIntraBrokerPartitionMovement");
                    o.putArray("abortingIntraBrokerPartitionMovement");
                }
            }
            default -> {
                o.setAll(steps.counters(e, () -> replicaCounters(e)));
                verboseLists(o, e, verbose);
            }
        }
        return o;
    }

    private static ObjectNode taskJson(Task t) {
        ObjectNode j = Json.obj();
        j.put("executionId", t.executionId);
        j.put("type", t.type);
        j.put("state", t.state.name());
        j.set("proposal", Json.proposal(t.proposal));
        j.putNull("brokerId");
        return j;
    }

    /** The partition-movement counters of the replica phase, as they are right now. */
    private static ObjectNode replicaCounters(Execution e) {
        ObjectNode o = Json.obj();
        long pending = 0, inProgress = 0, aborting = 0, finished = 0, finishedBytes = 0, totalBytes = 0;
        for (Task t : e.replicaTasks) {
            totalBytes += t.bytes;
            switch (t.state) {
                case PENDING -> pending++;
                case IN_PROGRESS -> inProgress++;
                case ABORTING -> aborting++;
                default -> { finished++; if (t.state == TaskState.COMPLETED) finishedBytes += t.bytes; }
            }
        }
        o.put("numTotalPartitionMovements", e.replicaTasks.size());
        o.put("numPendingPartitionMovements", pending);
        o.put("numInProgressPartitionMovements", inProgress);
        o.put("abortingPartitions", aborting);
        o.put("numFinishedPartitionMovements", finished);
        o.put("finishedDataMovement", finishedBytes / (1024 * 1024));
        o.put("totalDataToMove", totalBytes / (1024 * 1024));
        o.put("maximumConcurrentPartitionMovementsPerBroker", e.perBroker);
        o.put("minimumConcurrentPartitionMovementsPerBroker", e.perBroker);
        // A float in CC's answer (reference section 14).
        o.put("averageConcurrentPartitionMovementsPerBroker", (double) e.perBroker);
        return o;
    }

    private static void verboseLists(ObjectNode o, Execution e, boolean verbose) {
        if (verbose) {
            ArrayNode inProgress = o.putArray("inProgressPartitionMovement");
            ArrayNode pending = o.putArray("pendingPartitionMovement");
            ArrayNode dead = o.putArray("deadPartitionMovement");
            ArrayNode completed = o.putArray("completedPartitionMovement");
            ArrayNode aborting = o.putArray("abortingPartitionMovement");
            ArrayNode aborted = o.putArray("abortedPartitionMovement");
            for (Task t : e.replicaTasks) {
                ArrayNode target = switch (t.state) {
                    case PENDING -> pending; case IN_PROGRESS -> inProgress; case ABORTING -> aborting;
                    case ABORTED -> aborted; case DEAD -> dead; case COMPLETED -> completed;
                };
                target.add(taskJson(t));
            }
        }
    }
}
