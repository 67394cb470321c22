package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * In-memory user tasks, modelled on CC's UserTaskManager: every request (sync ones too) becomes a task that
 * holds one of {@code max.active.user.tasks} slots until the periodic scanner sees it done; a non-dry run
 * moves to InExecution when the executor takes it and to Completed/CompletedWithError when it ends;
 * completed tasks are dropped {@code retention} after their start. Nothing survives a restart.
 */
final class UserTasks {
    enum Status { Active, InExecution, Completed, CompletedWithError }

    /** A finished HTTP answer of a task (what CC caches and replays). */
    record Reply(int status, String body, boolean json) {}

    static final class Task {
        final UUID id;
        final String endpoint;
        final String method;
        final String requestUrl;
        final String client;
        final long startMs;
        final Map<String, Set<String>> paramKey;
        final String operation;
        final CompletableFuture<Reply> future = new CompletableFuture<>();
        final List<ObjectNode> steps = new ArrayList<>();
        volatile Status status = Status.Active;
        volatile boolean executionStarted;
        private long stepStart = System.currentTimeMillis();

        Task(UUID id, String endpoint, String method, String requestUrl, String client, Map<String, Set<String>> paramKey, String operation) {
            this.id = id; this.endpoint = endpoint; this.method = method; this.requestUrl = requestUrl; this.client = client;
            this.paramKey = paramKey; this.operation = operation; this.startMs = System.currentTimeMillis();
            step("PENDING", "Operation enqueued, waiting to be executed.");
        }

        /** Records a progress step as CC's OperationProgress does; earlier steps end at 100%. */
        synchronized void step(String name, String description) {
            long now = System.currentTimeMillis();
            if (!steps.isEmpty()) steps.get(steps.size() - 1).put("time-in-ms", now - stepStart);
            stepStart = now;
            ObjectNode s = Json.obj();
            s.put("step", name);
            s.put("description", description);
            s.put("time-in-ms", 0);
            s.put("completionPercentage", 0.0);
            for (ObjectNode prev : steps) prev.put("completionPercentage", 100.0);
            steps.add(s);
        }

        synchronized ObjectNode progressJson() {
            if (!steps.isEmpty()) steps.get(steps.size() - 1).put("time-in-ms", System.currentTimeMillis() - stepStart);
            ObjectNode o = Json.obj();
            ArrayNode progress = o.putArray("progress");
            ObjectNode op = progress.addObject();
            op.put("operation", OperationNames.sentence(operation));
            ArrayNode ops = op.putArray("operationProgress");
            steps.forEach(s -> ops.add(s.deepCopy()));
            o.put("version", 1);
            return o;
        }
    }

    private final Map<UUID, Task> tasks = new LinkedHashMap<>();
    private final int maxActive;
    private final long retentionMs;
    private final int maxCachedCompleted;

    UserTasks(int maxActive, long retentionMs, int maxCachedCompleted) {
        this.maxActive = maxActive; this.retentionMs = retentionMs; this.maxCachedCompleted = maxCachedCompleted;
    }

    synchronized Task create(String endpoint, String method, String requestUrl, String client, Map<String, Set<String>> paramKey,
                             String operation) throws CcException {
        long active = tasks.values().stream().filter(t -> t.status == Status.Active).count();
        if (active >= maxActive) {
            throw CcException.server("java.lang.RuntimeException: There are already " + active
                + " active user tasks, which has reached the servlet capacity.");
        }
        Task t = new Task(UUID.randomUUID(), endpoint, method, requestUrl, client, paramKey, operation);
        tasks.put(t.id, t);
        return t;
    }

    /** The task a re-sent request names in its User-Task-ID header, or null (CC then says "Unexpected header"). */
    synchronized Task find(UUID id, String method, String endpoint, Map<String, Set<String>> paramKey) {
        Task t = tasks.get(id);
        if (t == null || !t.method.equals(method) || !t.endpoint.equals(endpoint) || !t.paramKey.equals(paramKey)) return null;
        return t;
    }

    synchronized void markExecutionStarted(Task t) {
        t.executionStarted = true;
        t.status = Status.InExecution;
        System.err.println("cc-double: task " + System.currentTimeMillis() + " " + t.id + " " + t.status);
    }

    synchronized void markExecutionFinished(Task t, boolean ok) {
        t.status = ok ? Status.Completed : Status.CompletedWithError;
        System.err.println("cc-double: task " + System.currentTimeMillis() + " " + t.id + " " + t.status);
    }

    /** The periodic scan: finished Active tasks become completed; old completed tasks are evicted. */
    synchronized void scan() {
        long now = System.currentTimeMillis();
        for (Task t : tasks.values()) {
            if (t.status == Status.Active && t.future.isDone() && !t.executionStarted) {
                Reply r = t.future.getNow(null);
                t.status = r != null && r.status() < 300 ? Status.Completed : Status.CompletedWithError;
            }
        }
        Map<String, Integer> completedPerEndpoint = new LinkedHashMap<>();
        List<Task> newestFirst = new ArrayList<>(tasks.values());
        java.util.Collections.reverse(newestFirst);
        for (Task t : newestFirst) {
            if (t.status != Status.Completed && t.status != Status.CompletedWithError) continue;
            int n = completedPerEndpoint.merge(t.endpoint, 1, Integer::sum);
            if (t.startMs + retentionMs < now || n > maxCachedCompleted) tasks.remove(t.id);
        }
    }

    synchronized List<Task> snapshot() { return new ArrayList<>(tasks.values()); }

    /** One user_tasks entry (CC's {@code UserTaskInfo#getJsonStructure}). */
    static ObjectNode entry(Task t, boolean fetchCompleted) {
        ObjectNode o = Json.obj();
        o.put("UserTaskId", t.id.toString());
        o.put("RequestURL", t.requestUrl);
        o.put("ClientIdentity", t.client);
        o.put("StartMs", String.valueOf(t.startMs));
        o.put("Status", t.status.name());
        if (fetchCompleted && t.status != Status.Active) {
            if (t.status == Status.CompletedWithError) {
                o.put("originalResponse", "CompletedWithError");
            } else {
                Reply r = t.future.getNow(null);
                if (r != null) o.put("originalResponse", r.body());
            }
        }
        return o;
    }

}
