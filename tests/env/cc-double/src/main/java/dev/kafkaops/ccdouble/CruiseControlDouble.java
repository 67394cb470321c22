package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.TopicPartition;

/**
 * The HTTP face of the double: endpoints, parameter validation, error bodies, the 202 / User-Task-ID
 * protocol and the active-task limit, wired to the planner, executor and anomaly detector. Shapes and
 * messages follow shared/reference/cruise-control.md (sections 1 to 7).
 */
final class CruiseControlDouble {
    static final String PREFIX = "/kafkacruisecontrol/";
    static final String VERSION = "2.5.146-kafkaops-double";

    enum Kind { SYNC, ASYNC }

    record Endpoint(String name, String method, Kind kind, Set<String> params) {}

    private static final Set<String> COMMON = Set.of("json", "get_response_schema", "doas", "reason");
    private static final List<String> PROPOSAL_PARAMS = List.of("goals", "kafka_assigner", "rebalance_disk",
        "destination_broker_ids", "ignore_proposal_cache", "data_from", "use_ready_default_goals", "excluded_topics",
        "exclude_recently_removed_brokers", "exclude_recently_demoted_brokers", "allow_capacity_estimation", "verbose",
        "fast_mode");
    private static final List<String> EXECUTION_PARAMS = List.of("dryrun", "concurrent_partition_movements_per_broker",
        "max_partition_movements_in_cluster", "concurrent_leader_movements", "broker_concurrent_leader_movements",
        "execution_progress_check_interval_ms", "skip_hard_goal_check", "replica_movement_strategies",
        "replication_throttle", "review_id", "stop_ongoing_execution");
    private static final List<String> ADD_REMOVE_PARAMS = List.of("brokerid", "goals", "kafka_assigner", "data_from",
        "use_ready_default_goals", "excluded_topics", "exclude_recently_removed_brokers", "exclude_recently_demoted_brokers",
        "allow_capacity_estimation", "verbose", "fast_mode");

    static final Map<String, Endpoint> ENDPOINTS = new LinkedHashMap<>();

    private static void def(String name, String method, Kind kind, List<String> params) {
        Set<String> all = new TreeSet<>(COMMON);
        all.addAll(params);
        ENDPOINTS.put(name, new Endpoint(name, method, kind, all));
    }

    private static List<String> concat(List<?>... lists) {
        List<String> out = new ArrayList<>();
        for (List<?> l : lists) for (Object o : l) out.add((String) o);
        return out;
    }

    static {
        def("state", "GET", Kind.ASYNC, List.of("substates", "verbose", "super_verbose"));
        def("kafka_cluster_state", "GET", Kind.SYNC, List.of("topic", "verbose"));
        def("user_tasks", "GET", Kind.SYNC, List.of("user_task_ids", "client_ids", "endpoints", "types", "entries",
            "fetch_completed_task"));
        def("proposals", "GET", Kind.ASYNC, PROPOSAL_PARAMS);
        def("rebalance", "POST", Kind.ASYNC, concat(PROPOSAL_PARAMS, EXECUTION_PARAMS,
            List.of("concurrent_intra_broker_partition_movements")));
        def("add_broker", "POST", Kind.ASYNC, concat(ADD_REMOVE_PARAMS, EXECUTION_PARAMS, List.of("throttle_added_broker")));
        def("remove_broker", "POST", Kind.ASYNC, concat(ADD_REMOVE_PARAMS, EXECUTION_PARAMS,
            List.of("throttle_removed_broker", "destination_broker_ids")));
        def("topic_configuration", "POST", Kind.ASYNC, concat(EXECUTION_PARAMS, List.of("topic", "replication_factor",
            "skip_rack_awareness_check", "goals", "data_from", "use_ready_default_goals", "excluded_topics",
            "exclude_recently_removed_brokers", "exclude_recently_demoted_brokers", "allow_capacity_estimation", "verbose",
            "fast_mode")));
        def("stop_proposal_execution", "POST", Kind.SYNC, List.of("force_stop", "stop_external_agent", "review_id"));
        def("admin", "POST", Kind.SYNC, AdminEndpoint.PARAMS);
        def("review_board", "GET", Kind.SYNC, List.of("review_ids"));
        def("review", "POST", Kind.SYNC, List.of("approve", "discard"));
        def("load", "GET", Kind.ASYNC, List.of("start", "end", "time", "allow_capacity_estimation", "populate_disk_info",
            "capacity_only", "brokerid", "verbose"));
    }

    /** Endpoints real CC has that the double does not model: answered with a clear 500. */
    private static final Set<String> UNMODELLED_GET = Set.of("bootstrap", "train", "partition_load", "permissions");
    private static final Set<String> UNMODELLED_POST = Set.of("fix_offline_replicas", "pause_sampling", "resume_sampling",
        "demote_broker", "rightsize", "remove_disks");

    private static final Set<String> MOVEMENT_STRATEGIES = Set.of("BaseReplicaMovementStrategy",
        "PostponeUrpReplicaMovementStrategy", "PrioritizeLargeReplicaMovementStrategy", "PrioritizeSmallReplicaMovementStrategy",
        "PrioritizeMinIsrWithOfflineReplicasStrategy", "PrioritizeOneAboveMinIsrWithOfflineReplicasStrategy");

    private final Config config;
    private final long startedMs = System.currentTimeMillis();
    private Admin admin;
    private Executor executor;
    private UserTasks tasks;
    private AnomalyDetector detector;
    private HttpServer server;
    private ExecutorService workers;
    private ScheduledExecutorService scheduler;
    private final Purgatory purgatory = new Purgatory();

    CruiseControlDouble(Config config) { this.config = config; }

    int start() throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        p.put(AdminClientConfig.METADATA_MAX_AGE_CONFIG, "2000");
        p.putAll(config.kafkaProperties);
        admin = Admin.create(p);
        executor = new Executor(admin, config.executionPollMillis, config.progressStepMillis);
        tasks = new UserTasks(config.maxActiveTasks, config.taskRetentionMs, config.maxCachedCompletedTasks);
        detector = new AnomalyDetector(config.anomalySkewThreshold, config.selfHealing, config.anomalyDetectionGoals);
        workers = Executors.newCachedThreadPool(r -> { Thread t = new Thread(r, "cc-double-worker"); t.setDaemon(true); return t; });
        scheduler = Executors.newScheduledThreadPool(2, r -> { Thread t = new Thread(r, "cc-double-scheduler"); t.setDaemon(true); return t; });
        scheduler.scheduleAtFixedRate(tasks::scan, config.taskScanMillis, config.taskScanMillis, TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::detectAnomalies, config.anomalyIntervalSeconds, config.anomalyIntervalSeconds, TimeUnit.SECONDS);

        InetSocketAddress addr = new InetSocketAddress(config.bindAddress, config.port);
        if (config.tlsKeystore != null) {
            char[] pw = config.tlsPassword.toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = new FileInputStream(config.tlsKeystore)) { ks.load(in, pw); }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, pw);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, null);
            HttpsServer https = HttpsServer.create(addr, 64);
            https.setHttpsConfigurator(new HttpsConfigurator(ctx));
            server = https;
        } else {
            server = HttpServer.create(addr, 64);
        }
        server.createContext("/", this::handle);
        server.setExecutor(workers);
        server.start();
        return server.getAddress().getPort();
    }

    void stop() {
        if (server != null) server.stop(0);
        if (scheduler != null) scheduler.shutdownNow();
        if (admin != null) admin.close(java.time.Duration.ofSeconds(2));
    }

    boolean warmingUp() { return System.currentTimeMillis() < startedMs + config.warmupSeconds * 1000L; }

    /** A restart with stored samples: the load monitor is LOADING them (reference section 13). */
    boolean loading() { return System.currentTimeMillis() < startedMs + config.loadingSeconds * 1000L; }

    // ---------------------------------------------------------------- HTTP plumbing

    private record Ctx(HttpExchange ex, Endpoint ep, Params params, boolean json, String body, String client) {
        String method() { return ex.getRequestMethod(); }
        String pathInfo() { return "/" + ep.name(); }
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            handleInner(ex);
        } catch (Throwable t) {
            System.err.println("cc-double: unexpected error: " + t);
            t.printStackTrace();
            try { send(ex, 500, "text/plain", "internal error in cc-double: " + t, null); } catch (IOException ignored) { /* gone */ }
        } finally {
            ex.close();
        }
    }

    private void handleInner(HttpExchange ex) throws IOException {
        if (config.basicAuthUser != null && !authorized(ex)) {
            ex.getResponseHeaders().add("WWW-Authenticate", "basic realm=\"CruiseControlRealm\"");
            send(ex, 401, "text/html;charset=iso-8859-1",
                "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n<title>Error 401 Unauthorized</title>\n"
                    + "</head>\n<body><h2>HTTP ERROR 401 Unauthorized</h2>\n</body>\n</html>\n", null);
            return;
        }
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
        Params params = Params.parse(ex.getRequestURI().getRawQuery());
        boolean json = params.bool("json", false);
        if (!path.startsWith(PREFIX)) {
            send(ex, 404, "text/plain", "Not Found", null);
            return;
        }
        String name = path.substring(PREFIX.length()).toLowerCase(Locale.ROOT);
        while (name.endsWith("/")) name = name.substring(0, name.length() - 1);
        Endpoint ep = ENDPOINTS.get(name);
        if (ep == null || !ep.method().equals(method)) {
            if ((method.equals("GET") && UNMODELLED_GET.contains(name)) || (method.equals("POST") && UNMODELLED_POST.contains(name))) {
                sendError(ex, json, 500, "Error processing " + method + " request '/" + name + "' due to: "
                    + "'java.lang.UnsupportedOperationException: the Cruise Control test double does not model /" + name + "'.", null);
                return;
            }
            List<String> supported = new ArrayList<>();
            for (Endpoint e : ENDPOINTS.values()) if (e.method().equals(method)) supported.add(e.name().toUpperCase(Locale.ROOT));
            (method.equals("GET") ? UNMODELLED_GET : UNMODELLED_POST).forEach(n -> supported.add(n.toUpperCase(Locale.ROOT)));
            sendError(ex, json, 404, "Unrecognized endpoint in request '/" + name + "'\nSupported " + method + " endpoints: "
                + new TreeSet<>(supported), null);
            return;
        }
        Set<String> unknown = new TreeSet<>(params.values.keySet());
        unknown.removeAll(ep.params());
        if (!unknown.isEmpty()) {
            sendError(ex, json, 400, "Unrecognized endpoint parameters in " + ep.name().toUpperCase(Locale.ROOT) + " " + method
                + " request: " + unknown + ".", null);
            return;
        }
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String client = ex.getRemoteAddress().getAddress().getHostAddress();
        String taskQuery = ex.getRequestURI().getRawQuery();
        if ((name.equals("review") || name.equals("review_board")) && !config.twoStepVerification) {
            sendError(ex, json, 403, "Two-step verification is disabled (two.step.verification.enabled=false): /" + name
                + " is not available.", null);
            return;
        }
        if (config.twoStepVerification && method.equals("POST") && !name.equals("review")
                && ex.getRequestHeaders().getFirst("User-Task-ID") == null) {
            String rid = params.get("review_id");
            if (rid == null) {
                // Held for review: nothing runs, no user task.
                Purgatory.Request held = purgatory.add(name, taskQuery, body, client, params.get("reason"));
                String info = Json.write(Purgatory.infoJson(List.of(held)));
                send(ex, 200, json ? "application/json" : "text/plain", info, null);
                return;
            }
            Set<String> others = new TreeSet<>(params.values.keySet());
            others.removeAll(Set.of("review_id", "json", "get_response_schema", "doas"));
            Purgatory.Request approved;
            try {
                if (!others.isEmpty()) {
                    throw CcException.badRequest("review_id must be the only parameter of a reviewed request; also given: " + others);
                }
                approved = purgatory.submit(Integer.parseInt(rid.trim()), name);
            } catch (NumberFormatException e) {
                sendError(ex, json, 400, "Bad " + method + " request '/" + name + "' due to 'For input string: \"" + rid + "\"'.", null);
                return;
            } catch (CcException e) {
                sendError(ex, json, 400, "Bad " + method + " request '/" + name + "' due to '" + e.getMessage() + "'.", null);
                return;
            }
            // From here on the approved request runs as if it had just been sent.
            params = Params.parse(approved.rawQuery);
            json = json || params.bool("json", false);
            body = approved.body;
            taskQuery = approved.rawQuery;
        }
        Ctx ctx = new Ctx(ex, ep, params, json, body, client);

        String header = ex.getRequestHeaders().getFirst("User-Task-ID");
        UserTasks.Task task;
        if (header != null) {
            task = null;
            try {
                task = tasks.find(UUID.fromString(header.trim()), method, ep.name(), params.matchKey);
            } catch (IllegalArgumentException ignored) {
                // malformed: same answer as an unknown id
            }
            if (task == null) {
                sendServerError(ctx, "java.lang.IllegalArgumentException: Unexpected header User-Task-ID (value: " + header
                    + ") in the request.", null);
                return;
            }
        } else {
            Operation op;
            try {
                op = prepare(ctx);
            } catch (CcException e) {
                if (e.userError) {
                    // A real CC answers 400 with the bare message (reference section 13).
                    sendError(ex, json, 400, e.getMessage(), null);
                } else {
                    sendServerError(ctx, e.getMessage(), null);
                }
                return;
            }
            String url = method + " " + path + (taskQuery == null || taskQuery.isEmpty() ? "" : "?" + taskQuery);
            try {
                task = tasks.create(ep.name(), method, url, client, params.matchKey, op.name);
            } catch (CcException e) {
                sendServerError(ctx, e.getMessage(), null);
                return;
            }
            UserTasks.Task t = task;
            if (method.equals("POST")) {
                // The request log: one line per POST (user tasks are forgotten on restart, this is
                // not), for tests that judge what reached Cruise Control across restarts.
                System.err.println("cc-double: request " + t.startMs + " " + t.id + " " + url
                    + (body.isEmpty() ? "" : " body=" + body.replaceAll("\\s+", "")));
            }
            if (ep.kind() == Kind.SYNC) {
                t.future.complete(run(ctx, op, t));
            } else {
                workers.submit(() -> t.future.complete(run(ctx, op, t)));
            }
        }
        UserTasks.Reply reply;
        try {
            reply = task.future.get(config.maxBlockMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            send(ex, 202, "application/json", Json.write(task.progressJson()), task.id.toString());
            return;
        } catch (Exception e) {
            reply = new UserTasks.Reply(500, "interrupted: " + e, false);
        }
        send(ex, reply.status(), reply.json() ? "application/json" : "text/plain", reply.body(), task.id.toString());
    }

    private boolean authorized(HttpExchange ex) {
        String h = ex.getRequestHeaders().getFirst("Authorization");
        if (h == null || !h.regionMatches(true, 0, "Basic ", 0, 6)) return false;
        String expected = config.basicAuthUser + ":" + config.basicAuthPassword;
        try {
            return new String(Base64.getDecoder().decode(h.substring(6).trim()), StandardCharsets.UTF_8).equals(expected);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private UserTasks.Reply run(Ctx ctx, Operation op, UserTasks.Task task) {
        try {
            JsonNode result = op.body.call(task);
            if (ctx.json()) return new UserTasks.Reply(200, Json.write(result), true);
            return new UserTasks.Reply(200, result.toPrettyString(), false);
        } catch (CcException e) {
            if (e.userError) return errorReply(ctx.json(), e.getMessage(), 400, null);
            return serverErrorReply(ctx, e.getMessage());
        } catch (Exception e) {
            return serverErrorReply(ctx, "com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: " + e);
        }
    }

    private static UserTasks.Reply errorReply(boolean json, String message, int status, String stackTrace) {
        if (!json) return new UserTasks.Reply(status, message, false);
        ObjectNode o = Json.obj();
        o.put("errorMessage", message);
        if (stackTrace == null) o.putNull("stackTrace"); else o.put("stackTrace", stackTrace);
        o.put("version", 1);
        return new UserTasks.Reply(status, Json.write(o), true);
    }

    private static UserTasks.Reply serverErrorReply(Ctx ctx, String causeText) {
        String msg = "Error processing " + ctx.method() + " request '" + ctx.pathInfo() + "' due to: '" + causeText + "'.";
        String stack = "java.util.concurrent.ExecutionException: " + causeText
            + "\n\tat dev.kafkaops.ccdouble (Cruise Control test double; no real stack)\n";
        return errorReply(ctx.json(), msg, 500, stack);
    }

    private void sendServerError(Ctx ctx, String causeText, String taskId) throws IOException {
        UserTasks.Reply r = serverErrorReply(ctx, causeText);
        send(ctx.ex(), r.status(), r.json() ? "application/json" : "text/plain", r.body(), taskId);
    }

    private void sendError(HttpExchange ex, boolean json, int status, String message, String taskId) throws IOException {
        UserTasks.Reply r = errorReply(json, message, status, null);
        send(ex, status, json ? "application/json" : "text/plain", r.body(), taskId);
    }

    private static void send(HttpExchange ex, int status, String contentType, String body, String taskId) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        var h = ex.getResponseHeaders();
        h.set("Content-Type", contentType.contains("charset") ? contentType : contentType + ";charset=utf-8");
        h.set("Cruise-Control-Version", VERSION);
        h.set("Cruise-Control-Commit_Id", "kafkaops-test-double");
        if (taskId != null) h.set("User-Task-ID", taskId);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream os = ex.getResponseBody()) { os.write(bytes); }
        }
    }

    // ---------------------------------------------------------------- operations

    @FunctionalInterface
    interface Body { JsonNode call(UserTasks.Task task) throws Exception; }

    record Operation(String name, Body body) {}

    /** Validates a new request (400s happen here, before a user task exists) and returns its work. */
    private Operation prepare(Ctx ctx) throws CcException {
        Params p = ctx.params();
        return switch (ctx.ep().name()) {
            case "state" -> stateOp(p);
            case "kafka_cluster_state" -> clusterStateOp(p);
            case "user_tasks" -> userTasksOp(p);
            case "stop_proposal_execution" -> stopOp(p);
            case "admin" -> AdminEndpoint.op(p, executor);
            case "review_board" -> reviewBoardOp(p);
            case "review" -> reviewOp(p);
            case "load" -> loadOp();
            case "proposals" -> goalBasedOp(ctx, "GetProposals", Planner.Mode.REBALANCE, true);
            case "rebalance" -> goalBasedOp(ctx, "Rebalance", Planner.Mode.REBALANCE, false);
            case "add_broker" -> goalBasedOp(ctx, "AddBroker", Planner.Mode.ADD_BROKER, false);
            case "remove_broker" -> goalBasedOp(ctx, "RemoveBroker", Planner.Mode.REMOVE_BROKER, false);
            case "topic_configuration" -> goalBasedOp(ctx, "UpdateTopicConfiguration", Planner.Mode.REPLICATION_FACTOR, false);
            default -> throw new IllegalStateException(ctx.ep().name());
        };
    }

    /** GET load: 200 with brokers[] and hosts[] (reference section 13), the current placement's BrokerStats. */
    private Operation loadOp() {
        return new Operation("Load", task -> {
            if (warmingUp()) throw CcException.notEnoughValidWindows(System.currentTimeMillis());
            ClusterView v = ClusterView.load(admin, true, false);
            Map<TopicPartition, List<Integer>> placement = new LinkedHashMap<>();
            Map<TopicPartition, Integer> leaders = new java.util.HashMap<>();
            for (ClusterView.Partition p : v.partitions) {
                placement.put(p.tp(), p.replicas());
                leaders.put(p.tp(), p.leader());
            }
            ObjectNode o = Json.brokerStats(v, placement, leaders);
            o.put("version", 1);
            return o;
        });
    }

    private static final List<String> SUBSTATES = List.of("executor", "analyzer", "monitor", "anomaly_detector");

    private Operation stateOp(Params p) throws CcException {
        List<String> wanted = new ArrayList<>();
        for (String s : p.list("substates")) {
            String l = s.toLowerCase(Locale.ROOT);
            if (!SUBSTATES.contains(l)) {
                throw CcException.badRequest("Unsupported substates in [" + p.get("substates") + "]. Supported: [ANALYZER, MONITOR, EXECUTOR, ANOMALY_DETECTOR]");
            }
            wanted.add(l);
        }
        if (wanted.isEmpty()) wanted.addAll(SUBSTATES);
        boolean verbose = p.bool("verbose", false) || p.bool("super_verbose", false);
        return new Operation("GetState", task -> {
            ObjectNode o = Json.obj();
            if (wanted.contains("monitor")) o.set("MonitorState", monitorState(verbose));
            if (wanted.contains("executor")) o.set("ExecutorState", executor.stateJson(verbose));
            if (wanted.contains("analyzer")) o.set("AnalyzerState", analyzerState(verbose));
            if (wanted.contains("anomaly_detector")) o.set("AnomalyDetectorState", detector.stateJson());
            o.put("version", 1);
            return o;
        });
    }

    private ObjectNode monitorState(boolean verbose) throws Exception {
        ClusterView v = ClusterView.load(admin, false, false);
        boolean ready = !warmingUp();
        long elapsed = System.currentTimeMillis() - startedMs;
        // As observed (reference section 13): numTotalPartitions is 0 while warming up; while LOADING stored
        // samples the monitor says 0 valid of 0 total; the progress percentages exist only while LOADING.
        boolean loading = loading();
        boolean counted = ready && !loading;
        ObjectNode m = Json.obj();
        m.put("state", loading ? "LOADING" : "RUNNING");
        m.put("trained", false);
        m.put("trainingPct", 0.0);
        int windows = ready ? 1 : 0;
        m.put("numMonitoredWindows", windows);
        m.put("numValidPartitions", counted ? v.partitions.size() : 0);
        m.put("numTotalPartitions", counted ? v.partitions.size() : 0);
        m.put("monitoringCoveragePct", counted ? 100.0 : 0.0);
        m.put("numFlawedPartitions", 0);
        m.put("reasonOfLatestPauseOrResume", "N/A");
        if (loading) {
            m.put("loadingProgressPct", Math.min(99.0, 100.0 * elapsed / Math.max(1, config.loadingSeconds * 1000L)));
        }
        if (verbose) {
            ObjectNode w = m.putObject("monitoredWindows");
            long windowMs = 20_000;
            for (int i = 0; i < windows; i++) {
                w.put(String.valueOf((System.currentTimeMillis() / windowMs - 1 - i) * windowMs), counted ? 1.0 : 0.0);
            }
        }
        return m;
    }

    private ObjectNode analyzerState(boolean verbose) {
        boolean ready = !warmingUp() && !loading();
        ObjectNode a = Json.obj();
        a.put("isProposalReady", ready);
        ArrayNode goals = a.putArray("readyGoals");
        if (ready) Json.DEFAULT_GOALS.forEach(goals::add);
        if (verbose) {
            ArrayNode gr = a.putArray("goalReadiness");
            for (String g : Json.DEFAULT_GOALS) {
                ObjectNode e = gr.addObject();
                e.put("name", g);
                e.put("status", ready ? "ready" : "notReady");
                ObjectNode req = e.putObject("modelCompleteRequirement");
                req.put("requiredNumSnapshots", 1);
                req.put("minMonitoredPartitionsPercentage", 0.0);
                req.put("includeAllTopics", g.equals("RackAwareGoal"));
            }
        }
        return a;
    }

    private Operation clusterStateOp(Params p) throws CcException {
        Pattern topic = regex(p, "topic");
        boolean verbose = p.bool("verbose", false);
        return new Operation("KafkaClusterState", task -> Json.kafkaClusterState(ClusterView.load(admin, true, true), topic, verbose));
    }

    private Operation userTasksOp(Params p) throws CcException {
        Set<UUID> ids = new TreeSet<>();
        for (String s : p.list("user_task_ids")) {
            try {
                ids.add(UUID.fromString(s));
            } catch (IllegalArgumentException e) {
                throw CcException.server("java.lang.IllegalArgumentException: Invalid UUID string: " + s);
            }
        }
        Set<String> clients = new TreeSet<>(p.list("client_ids"));
        Set<String> endpoints = new TreeSet<>();
        for (String e : p.list("endpoints")) endpoints.add(e.toUpperCase(Locale.ROOT));
        Set<String> types = new TreeSet<>();
        for (String t : p.list("types")) {
            try {
                types.add(UserTasks.Status.valueOf(t).name());
            } catch (IllegalArgumentException e) {
                throw CcException.badRequest("Unsupported types in " + p.get("types") + ". Supported: [Active, InExecution, Completed, CompletedWithError]");
            }
        }
        Long entries = p.longValue("entries");
        if (entries != null && entries <= 0) throw CcException.badRequest("entries parameter must be positive, got " + entries + ".");
        boolean fetch = p.bool("fetch_completed_task", false);
        return new Operation("UserTasks", task -> {
            ObjectNode o = Json.obj();
            ArrayNode a = o.putArray("userTasks");
            int n = 0;
            for (UserTasks.Task t : tasks.snapshot()) {
                if (!ids.isEmpty() && !ids.contains(t.id)) continue;
                if (!clients.isEmpty() && !clients.contains(t.client)) continue;
                if (!endpoints.isEmpty() && !endpoints.contains(t.endpoint.toUpperCase(Locale.ROOT))) continue;
                if (!types.isEmpty() && !types.contains(t.status.name())) continue;
                if (entries != null && n >= entries) break;
                a.add(UserTasks.entry(t, fetch));
                n++;
            }
            o.put("version", 1);
            return o;
        });
    }

    private Operation reviewBoardOp(Params p) throws CcException {
        List<Integer> ids = ints(p, "review_ids");
        return new Operation("ReviewBoard", task -> Purgatory.infoJson(purgatory.board(ids)));
    }

    private Operation reviewOp(Params p) throws CcException {
        List<Integer> approve = ints(p, "approve");
        List<Integer> discard = ints(p, "discard");
        if (approve.isEmpty() && discard.isEmpty()) throw CcException.badRequest("Nothing to review: give approve and/or discard.");
        List<Purgatory.Request> done = purgatory.review(approve, discard);
        return new Operation("Review", task -> Purgatory.infoJson(done));
    }

    private static List<Integer> ints(Params p, String name) throws CcException {
        List<Integer> out = new ArrayList<>();
        for (String s : p.list(name)) {
            try {
                out.add(Integer.parseInt(s.trim()));
            } catch (NumberFormatException e) {
                throw CcException.badRequest("For input string: \"" + s + "\"");
            }
        }
        return out;
    }

    private Operation stopOp(Params p) {
        if (p.has("force_stop")) System.err.println("cc-double: force_stop is deprecated and ignored");
        boolean stopExternal = p.bool("stop_external_agent", true);
        return new Operation("StopProposalExecution", task -> {
            if (executor.hasOngoingExecution()) {
                executor.stop();
            } else if (stopExternal) {
                var ongoing = admin.listPartitionReassignments().reassignments().get(20, TimeUnit.SECONDS);
                if (!ongoing.isEmpty()) {
                    Map<TopicPartition, java.util.Optional<NewPartitionReassignment>> cancel = new LinkedHashMap<>();
                    for (TopicPartition tp : ongoing.keySet()) cancel.put(tp, java.util.Optional.empty());
                    try { admin.alterPartitionReassignments(cancel).all().get(20, TimeUnit.SECONDS); } catch (Exception ignored) { /* finished */ }
                }
            }
            ObjectNode o = Json.obj();
            o.put("message", "Proposal execution stopped.");
            o.put("version", 1);
            return o;
        });
    }

    private static Pattern regex(Params p, String name) throws CcException {
        String v = p.get(name);
        if (v == null || v.isEmpty()) return null;
        try {
            return Pattern.compile(v);
        } catch (PatternSyntaxException e) {
            throw CcException.badRequest("Invalid " + name + " regex '" + v + "': " + e.getDescription());
        }
    }

    /** proposals, rebalance, add_broker, remove_broker, topic_configuration. */
    private Operation goalBasedOp(Ctx ctx, String opName, Planner.Mode mode, boolean readOnly) throws CcException {
        Params p = ctx.params();
        boolean dryrun = readOnly || p.bool("dryrun", true);
        boolean verbose = p.bool("verbose", false);
        List<String> goals = new ArrayList<>();
        List<String> unsupportedGoals = new ArrayList<>();
        for (String g : p.list("goals")) {
            String canonical = null;
            for (String s : Json.SUPPORTED_GOALS) if (s.equalsIgnoreCase(g) || g.endsWith("." + s)) canonical = s;
            if (canonical == null) unsupportedGoals.add(g); else goals.add(canonical);
        }
        if (!goals.isEmpty() && p.bool("ignore_proposal_cache", false)) {
            throw CcException.badRequest("Parameters goals and ignore_proposal_cache are mutually exclusive.");
        }
        if (!goals.isEmpty() && p.bool("use_ready_default_goals", false)) {
            throw CcException.badRequest("Parameters goals and use_ready_default_goals are mutually exclusive.");
        }
        if (p.bool("kafka_assigner", false)) {
            if (!goals.isEmpty() || p.bool("rebalance_disk", false)) {
                throw CcException.badRequest("kafka_assigner mode cannot be combined with goals or rebalance_disk.");
            }
            if (p.bool("exclude_recently_removed_brokers", false) || p.bool("exclude_recently_demoted_brokers", false)) {
                throw CcException.badRequest("kafka_assigner mode cannot exclude recently removed or demoted brokers.");
            }
        }
        if (p.bool("rebalance_disk", false) && !goals.isEmpty()) {
            throw CcException.badRequest("rebalance_disk mode cannot be combined with goals.");
        }
        boolean stopOngoing = p.bool("stop_ongoing_execution", false);
        if (stopOngoing && dryrun) throw CcException.badRequest("stop_ongoing_execution and dryrun cannot both be set to true.");
        Integer perBroker = p.positive("concurrent_partition_movements_per_broker");
        Integer inCluster = p.positive("max_partition_movements_in_cluster");
        p.positive("concurrent_intra_broker_partition_movements");
        Integer leaderConc = p.positive("concurrent_leader_movements");
        p.positive("broker_concurrent_leader_movements");
        p.positive("execution_progress_check_interval_ms");
        Long throttle = p.longValue("replication_throttle");
        if (throttle != null && throttle < 0) throw CcException.badRequest("replication_throttle parameter must be non-negative, got " + throttle + ".");
        for (String s : p.list("replica_movement_strategies")) {
            if (!MOVEMENT_STRATEGIES.contains(s)) throw CcException.badRequest("Unsupported replica movement strategy " + s + ".");
        }
        if (p.has("review_id")) throw CcException.badRequest("review_id is only allowed with two-step verification, which is disabled.");
        String dataFrom = p.get("data_from");
        if (dataFrom != null && !dataFrom.equalsIgnoreCase("VALID_WINDOWS") && !dataFrom.equalsIgnoreCase("VALID_PARTITIONS")) {
            throw CcException.badRequest("Unsupported data_from " + dataFrom + ". Supported: [VALID_WINDOWS, VALID_PARTITIONS]");
        }
        Pattern excluded = regex(p, "excluded_topics");
        Set<Integer> modeBrokers = new TreeSet<>();
        Set<Integer> destinations = p.intSet("destination_broker_ids");
        if (mode == Planner.Mode.ADD_BROKER || mode == Planner.Mode.REMOVE_BROKER) {
            modeBrokers = p.intSet("brokerid");
            if (modeBrokers.isEmpty()) {
                throw CcException.badRequest("Target broker ID is not provided for " + ctx.ep().name().toUpperCase(Locale.ROOT) + " request");
            }
            if (!java.util.Collections.disjoint(modeBrokers, destinations)) {
                throw CcException.badRequest("destination_broker_ids " + destinations + " must not contain removed brokers " + modeBrokers + ".");
            }
        }
        Map<Integer, String> patternByRf = new TreeMap<>();
        if (mode == Planner.Mode.REPLICATION_FACTOR) patternByRf = topicConfiguration(p, ctx.body());
        boolean skipHard = p.bool("skip_hard_goal_check", false);
        boolean skipRack = p.bool("skip_rack_awareness_check", false);
        boolean excludeRemoved = p.bool("exclude_recently_removed_brokers", true);
        boolean leadersOnly = goals.size() == 1 && goals.get(0).equals("PreferredLeaderElectionGoal");
        boolean rebalanceDisk = p.bool("rebalance_disk", false);
        String reason = (p.get("reason") == null || p.get("reason").isEmpty() ? "No reason provided" : p.get("reason"))
            + " (Client: " + ctx.client() + ", Date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ")";
        List<String> goalsForSummary = goals.isEmpty() ? Json.DEFAULT_GOALS : goals;
        Set<Integer> fModeBrokers = modeBrokers;
        Map<Integer, String> fPatterns = patternByRf;
        int fPerBroker = perBroker == null ? 5 : perBroker;
        int fInCluster = inCluster == null ? Integer.MAX_VALUE : inCluster;
        int fLeaderConc = leaderConc == null ? 1000 : leaderConc;

        return new Operation(opName, task -> {
            if (!unsupportedGoals.isEmpty()) {
                // A real CC creates the user task first and answers 500 (reference section 13).
                throw CcException.server("java.lang.IllegalArgumentException: Goals " + unsupportedGoals
                    + " are not supported. Supported: " + Json.SUPPORTED_GOALS);
            }
            if (!dryrun && !stopOngoing && executor.hasOngoingExecution()) throw CcException.ongoingExecution();
            if (!dryrun && !executor.hasOngoingExecution()) ExternalAgent.sanityCheck(admin, config.autoStopExternalAgent);
            if (!goals.isEmpty() && !skipHard && !leadersOnly) {
                List<String> missing = new ArrayList<>();
                for (String h : Json.HARD_GOALS) if (!goals.contains(h)) missing.add(h);
                if (!missing.isEmpty()) {
                    throw CcException.operation("java.lang.IllegalArgumentException: Missing hard goals " + missing
                        + " in the provided goals: " + goals + ". Add skip_hard_goal_check=true parameter to ignore this sanity check.");
                }
            }
            task.step("WAITING_FOR_CLUSTER_MODEL", "The job requires a cluster model and it is waiting to get the cluster model lock.");
            sleepQuietly(config.minComputeMillis / 3);
            task.step("AGGREGATING_METRICS", "Retrieving the metrics of all the partitions from the metric sample aggregator.");
            if (warmingUp()) throw CcException.notEnoughValidWindows(System.currentTimeMillis());
            if (loading() && mode == Planner.Mode.ADD_BROKER) {
                throw CcException.operation("java.lang.IllegalStateException: Unable to generate proposal since load monitor is in LOADING state.");
            }
            if (rebalanceDisk) {
                throw CcException.operation("java.lang.IllegalArgumentException: Missing disk information: rebalance_disk needs JBOD, "
                    + "which the Cruise Control test double does not model.");
            }
            sleepQuietly(config.minComputeMillis / 3);
            task.step("GENERATING_CLUSTER_MODEL", "Generating the cluster model for the cluster.");
            ClusterView view = ClusterView.load(admin, true, false);
            task.step("OPTIMIZING " + goalsForSummary.get(goalsForSummary.size() - 1), "Optimizing goals.");
            sleepQuietly(config.minComputeMillis - 2 * (config.minComputeMillis / 3));
            Planner.Plan plan = mode == Planner.Mode.REPLICATION_FACTOR
                ? Planner.replicationFactor(view, fPatterns, skipRack)
                : Planner.balance(view, mode, fModeBrokers, destinations, excluded,
                    excludeRemoved ? executor.recentlyRemovedBrokers() : Set.of(), leadersOnly);
            if (mode != Planner.Mode.REPLICATION_FACTOR && !leadersOnly) HardGoals.check(plan, goalsForSummary);
            ObjectNode result = Json.optimizationResult(plan, goalsForSummary, verbose, config.anomalySkewThreshold);
            if (!dryrun && !plan.isEmpty()) {
                if (stopOngoing) {
                    task.step("STOPPING_ONGOING_EXECUTION", "Stopping the ongoing execution.");
                    executor.stopAndWait(60_000);
                }
                Executor.Execution e = executor.prepare(plan, task.id.toString(), false, reason, fPerBroker, fInCluster, fLeaderConc,
                    ok -> tasks.markExecutionFinished(task, ok));
                e.throttle = throttle;
                tasks.markExecutionStarted(task);
                try {
                    executor.start(e);
                } catch (CcException ce) {
                    task.executionStarted = false;
                    task.status = UserTasks.Status.Active;
                    System.err.println("cc-double: task " + System.currentTimeMillis() + " " + task.id + " NotStarted");
                    throw ce;
                }
            }
            return result;
        });
    }

    /** topic_configuration's two input forms (reference section 3.6). */
    private static Map<Integer, String> topicConfiguration(Params p, String body) throws CcException {
        Map<Integer, String> out = new TreeMap<>();
        boolean hasTopic = p.has("topic");
        boolean hasRf = p.has("replication_factor");
        boolean hasBody = body != null && !body.isBlank();
        if (hasBody && (hasTopic || hasRf)) {
            throw CcException.badRequest("Requesting topic replication factor change from both HTTP request parameter and body is forbidden.");
        }
        if (hasTopic && !hasRf) throw CcException.badRequest("Topic's replication factor is not specified in URL while subject topic is specified.");
        if (hasRf && !hasTopic) throw CcException.badRequest("Subject topic is not specified in URL while target replication factor is specified.");
        if (hasTopic) {
            Long rf = p.longValue("replication_factor");
            if (rf < 1) throw CcException.badRequest("Target replication factor cannot be set to smaller than 1.");
            try { Pattern.compile(p.get("topic")); } catch (PatternSyntaxException e) {
                throw CcException.badRequest("Invalid topic regex '" + p.get("topic") + "'.");
            }
            out.put(rf.intValue(), p.get("topic"));
            return out;
        }
        if (!hasBody) throw CcException.badRequest("Nothing executable found in request.");
        JsonNode root;
        try {
            root = Json.read(body);
        } catch (Exception e) {
            throw CcException.badRequest("Invalid JSON body: " + e.getMessage());
        }
        JsonNode byRf = root.path("replication_factor").path("topic_by_replication_factor");
        if (!byRf.isObject() || byRf.isEmpty()) throw CcException.badRequest("Nothing executable found in request.");
        var it = byRf.fields();
        while (it.hasNext()) {
            var e = it.next();
            int rf;
            try { rf = Integer.parseInt(e.getKey()); } catch (NumberFormatException ex) {
                throw CcException.badRequest("Invalid replication factor " + e.getKey() + ".");
            }
            if (rf < 1) throw CcException.badRequest("Target replication factor cannot be set to smaller than 1.");
            try { Pattern.compile(e.getValue().asText()); } catch (PatternSyntaxException ex) {
                throw CcException.badRequest("Invalid topic regex '" + e.getValue().asText() + "'.");
            }
            out.put(rf, e.getValue().asText());
        }
        return out;
    }

    private void detectAnomalies() {
        try {
            if (warmingUp() || executor.hasOngoingExecution()) return;
            ClusterView v = ClusterView.load(admin, false, false);
            detector.detect(v, (anomalyId, onDone) -> {
                try {
                    Planner.Plan plan = Planner.balance(ClusterView.load(admin, true, false), Planner.Mode.REBALANCE, Set.of(), Set.of(),
                        null, executor.recentlyRemovedBrokers(), false);
                    if (plan.isEmpty()) return false;
                    String reason = "Self healing for GOAL_VIOLATION: " + anomalyId + " (Client: 127.0.0.1, Date: "
                        + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ")";
                    executor.start(executor.prepare(plan, anomalyId, true, reason, 5, Integer.MAX_VALUE, 1000, ok -> onDone.run()));
                    return true;
                } catch (Exception e) {
                    return false;
                }
            });
        } catch (Exception e) {
            System.err.println("cc-double: anomaly detection failed: " + e);
        }
    }

    private static void sleepQuietly(long ms) {
        if (ms <= 0) return;
        try { Thread.sleep(ms); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
    }
}
