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
        def("partition_load", "GET", Kind.ASYNC, List.of("resource", "start", "end", "entries", "topic", "partition",
            "min_valid_partition_ratio", "allow_capacity_estimation", "max_load", "avg_load", "brokerid"));
    }

    /** CC's GET and POST endpoint lists, in the order its 404 text names them. */
    private static final List<String> GET_ORDER = List.of("bootstrap", "train", "load", "partition_load", "proposals", "state",
        "kafka_cluster_state", "user_tasks", "review_board", "permissions");
    private static final List<String> POST_ORDER = List.of("add_broker", "remove_broker", "fix_offline_replicas", "rebalance",
        "stop_proposal_execution", "pause_sampling", "resume_sampling", "demote_broker", "admin", "review", "topic_configuration",
        "rightsize", "remove_disks");

    /** Endpoints real CC has that the double does not model: answered with a clear 500. */
    private static final Set<String> UNMODELLED_GET = Set.of("bootstrap", "train", "permissions");
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
    private final Security security;

    CruiseControlDouble(Config config) {
        this.config = config;
        this.security = new Security(config.users);
    }

    int start() throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000");
        p.put(AdminClientConfig.METADATA_MAX_AGE_CONFIG, "2000");
        p.putAll(config.kafkaProperties);
        admin = Admin.create(p);
        executor = new Executor(admin, config.executionPollMillis, config.progressStepMillis);
        executor.timing(config.stopLingerMillis, config.firstMoveDelayMillis);
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

    /** 400 text for review_id when two-step verification is off (CC's ParameterUtils.reviewId). */
    static final String REVIEW_ID_WITHOUT_TWO_STEP = "review_id parameter is not relevant when two-step verification is disabled.";

    private void handleInner(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
        Params params = Params.parse(ex.getRequestURI().getRawQuery());
        boolean json = params.bool("json", false);
        String name = path.startsWith(PREFIX) ? path.substring(PREFIX.length()).toLowerCase(Locale.ROOT) : null;
        while (name != null && name.endsWith("/")) name = name.substring(0, name.length() - 1);
        // Jetty's security handler runs before Cruise Control's servlet (reference section 7): 401/403 pages.
        if (name != null) {
            Security.Denial denied = security.check(name, ex.getRequestHeaders().getFirst("Authorization"));
            if (denied != null) {
                if (denied.status() == 401) {
                    ex.getResponseHeaders().add("WWW-Authenticate", "basic realm=\"" + Security.REALM + "\"");
                }
                ex.getResponseHeaders().add("Cache-Control", "must-revalidate,no-cache,no-store");
                sendRaw(ex, denied.status(), "text/html;charset=iso-8859-1", Security.errorPage(denied.status(), denied.message(), path));
                return;
            }
        }
        if (name == null) {
            sendRaw(ex, 404, "text/html;charset=iso-8859-1", Security.errorPage(404, "Not Found", path));
            return;
        }
        Endpoint ep = ENDPOINTS.get(name);
        if (ep == null || !ep.method().equals(method)) {
            if ((method.equals("GET") && UNMODELLED_GET.contains(name)) || (method.equals("POST") && UNMODELLED_POST.contains(name))) {
                sendError(ex, json, CcException.serverBare("java.lang.UnsupportedOperationException: the Cruise Control test double "
                    + "does not model /" + name), method, name);
                return;
            }
            List<String> supported = new ArrayList<>();
            for (String e : method.equals("GET") ? GET_ORDER : POST_ORDER) supported.add(e.toUpperCase(Locale.ROOT));
            sendPlainError(ex, json, 404, "Unrecognized endpoint in request '/" + name + "'\nSupported " + method + " endpoints: "
                + supported);
            return;
        }
        // CC checks two-step verification for review and review_board before anything else (ConfigException, 403).
        if ((name.equals("review") || name.equals("review_board")) && !config.twoStepVerification) {
            sendError(ex, json, CcException.config("Attempt to access " + name.toUpperCase(Locale.ROOT) + " endpoint without enabling '"
                + "two.step.verification.enabled' config."), method, name);
            return;
        }
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String client = ex.getRemoteAddress().getAddress().getHostAddress();
        String header = ex.getRequestHeaders().getFirst("User-Task-ID");
        Purgatory.Request approved = null;
        // The request as sent: its user task matches a re-poll of exactly this (review_id=N for a reviewed one).
        final Map<String, Set<String>> sentKey = params.matchKey;
        if (config.twoStepVerification && method.equals("POST") && !name.equals("review") && params.has("review_id")) {
            // POST /<endpoint>?review_id=N runs the request approved under N; review_id must be the only parameter,
            // json included (reference section 14: json=true with review_id answers 400).
            int rid;
            try {
                try {
                    rid = Integer.parseInt(params.get("review_id"));
                } catch (NumberFormatException e) {
                    throw CcException.serverBare("For input string: \"" + params.get("review_id") + "\"");
                }
                if (params.asSent.size() != 1) {
                    throw CcException.badRequestWrapped("review_id parameter must be mutually exclusive with other parameters (Request "
                        + "parameters: " + javaParameterMap(params) + ").");
                }
                if (rid < 0) throw CcException.badRequestWrapped("review_id cannot be negative (requested: " + rid + ").");
                if (header == null) approved = purgatory.submit(rid, name, method);
            } catch (CcException e) {
                sendError(ex, json, e, method, name);
                return;
            }
            if (approved != null) {
                // From here on the approved request runs with the parameters it was held with.
                Params held = Params.parse(approved.rawQuery);
                json = held.bool("json", false);
                body = approved.body;
                params = held;
            }
        }
        Set<String> unknown = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        unknown.addAll(params.asSent.keySet());
        for (String known : ep.params()) unknown.remove(known);
        if (!unknown.isEmpty()) {
            sendPlainError(ex, json, 400, "Unrecognized endpoint parameters in " + ep.name().toUpperCase(Locale.ROOT) + " " + method
                + " request: " + unknown + ".");
            return;
        }
        if (config.twoStepVerification && method.equals("POST") && !name.equals("review") && approved == null && header == null
                && !params.has("review_id")) {
            // Held for review: parameters are parsed first (a bad one is a 400), nothing runs, no user task.
            try {
                prepare(new Ctx(ex, ep, params, json, body, client));
            } catch (CcException e) {
                sendError(ex, json, e, method, name);
                return;
            }
            Purgatory.Request held = purgatory.add(name, ex.getRequestURI().getRawQuery(), body, client);
            send(ex, 200, json ? "application/json" : "text/plain", Json.write(Purgatory.infoJson(List.of(held))), null);
            return;
        }
        Ctx ctx = new Ctx(ex, ep, params, json, body, client);

        UserTasks.Task task;
        if (header != null) {
            task = null;
            try {
                task = tasks.find(UUID.fromString(header.trim()), method, ep.name(), sentKey);
            } catch (IllegalArgumentException ignored) {
                // malformed: same answer as an unknown id
            }
            if (task == null) {
                // CC's ensureHeaderNotPresent swaps the header's name and value (reference section 14).
                sendError(ex, json, CcException.serverBare("Unexpected header " + header + " (value: User-Task-ID) in the request."),
                    method, name);
                return;
            }
        } else {
            Operation op;
            try {
                op = prepare(ctx);
            } catch (CcException e) {
                sendError(ex, json, e, method, name);
                return;
            }
            String taskQuery = ex.getRequestURI().getRawQuery();
            String url = method + " " + path + (taskQuery == null || taskQuery.isEmpty() ? "" : "?" + taskQuery);
            try {
                task = tasks.create(ep.name(), method, url, client, sentKey, op.name);
            } catch (CcException e) {
                sendError(ex, json, e, method, name);
                return;
            }
            if (approved != null) approved.userTaskId = task.id.toString();
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

    /** How Java prints a servlet parameter map (values are String[], printed by identity). */
    private static String javaParameterMap(Params p) {
        StringBuilder sb = new StringBuilder("{");
        String sep = "";
        for (var e : p.asSent.entrySet()) {
            sb.append(sep).append(e.getKey()).append("=[Ljava.lang.String;@")
                .append(Integer.toHexString(System.identityHashCode(e.getValue())));
            sep = ", ";
        }
        return sb.append('}').toString();
    }

    private UserTasks.Reply run(Ctx ctx, Operation op, UserTasks.Task task) {
        try {
            JsonNode result = op.body.call(task);
            if (ctx.json()) return new UserTasks.Reply(200, Json.write(result), true);
            return new UserTasks.Reply(200, result.toPrettyString(), false);
        } catch (CcException e) {
            return errorReply(ctx.json(), e, ctx.method(), ctx.ep().name());
        } catch (Exception e) {
            return errorReply(ctx.json(), CcException.operation(e.toString()), ctx.method(), ctx.ep().name());
        }
    }

    /** A stack-trace-like text for {@code e} (CC sends the real one as a string; never null, reference section 14). */
    private static String stackTrace(CcException e, String method, String endpoint) {
        String head = e.kind == CcException.Kind.SERVER && e.text != null && e.text.contains(": ")
            ? "java.util.concurrent.ExecutionException: " + e.text
            : switch (e.kind) {
                case PARSE, USER -> "com.linkedin.kafka.cruisecontrol.servlet.UserRequestException: " + e.text;
                case CONFIG -> "org.apache.kafka.common.config.ConfigException: " + e.text;
                case SERVER -> "java.lang.RuntimeException" + (e.text == null ? "" : ": " + e.text);
            };
        return head + "\n\tat dev.kafkaops.ccdouble.CruiseControlDouble.handle(" + method + " /" + endpoint
            + "; Cruise Control test double, no real stack)\n";
    }

    private static UserTasks.Reply errorReply(boolean json, CcException e, String method, String endpoint) {
        return errorBody(json, e.status(), e.errorMessage(method, endpoint), stackTrace(e, method, endpoint));
    }

    /** CC's ErrorResponse: {@code stackTrace} is "" when there is no exception (unknown parameter, 404). */
    private static UserTasks.Reply errorBody(boolean json, int status, String message, String stackTrace) {
        if (!json) return new UserTasks.Reply(status, message, false);
        ObjectNode o = Json.obj();
        o.put("errorMessage", message);
        o.put("stackTrace", stackTrace);
        o.put("version", 1);
        return new UserTasks.Reply(status, Json.write(o), true);
    }

    private static void sendError(HttpExchange ex, boolean json, CcException e, String method, String endpoint) throws IOException {
        UserTasks.Reply r = errorReply(json, e, method, endpoint);
        send(ex, r.status(), r.json() ? "application/json" : "text/plain", r.body(), null);
    }

    /** An error CC writes without an exception (unknown parameter, unknown endpoint): stackTrace "". */
    private static void sendPlainError(HttpExchange ex, boolean json, int status, String message) throws IOException {
        UserTasks.Reply r = errorBody(json, status, message, "");
        send(ex, r.status(), r.json() ? "application/json" : "text/plain", r.body(), null);
    }

    private static void send(HttpExchange ex, int status, String contentType, String body, String taskId) throws IOException {
        var h = ex.getResponseHeaders();
        h.set("Cruise-Control-Version", VERSION);
        h.set("Cruise-Control-Commit_Id", "kafkaops-test-double");
        if (taskId != null) h.set("User-Task-ID", taskId);
        sendRaw(ex, status, contentType.contains("charset") ? contentType : contentType + ";charset=utf-8", body);
    }

    /** An answer without Cruise Control's headers (Jetty's own pages). */
    private static void sendRaw(HttpExchange ex, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
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
            case "admin" -> AdminEndpoint.op(p, executor, detector);
            case "review_board" -> reviewBoardOp(p);
            case "review" -> reviewOp(ctx);
            case "load" -> loadOp();
            case "partition_load" -> partitionLoadOp(p);
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
                // A parameter that does not parse: 400 with the JDK's bare text (reference section 14).
                throw CcException.badRequest(e.getMessage());
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
        Set<Integer> ids = new TreeSet<>(ints(p, "review_ids"));
        Set<Integer> negative = new TreeSet<>();
        for (int id : ids) if (id < 0) negative.add(id);
        if (!negative.isEmpty()) throw CcException.badRequest("review_ids cannot contain negative values (requested: " + negative + ").");
        return new Operation("ReviewBoard", task -> Purgatory.infoJson(purgatory.board(ids)));
    }

    private Operation reviewOp(Ctx ctx) throws CcException {
        Params p = ctx.params();
        Set<Integer> approve = new java.util.LinkedHashSet<>(ints(p, "approve"));
        Set<Integer> discard = new java.util.LinkedHashSet<>(ints(p, "discard"));
        Set<Integer> both = new TreeSet<>(approve);
        both.retainAll(discard);
        if (!both.isEmpty()) {
            throw CcException.badRequest("The same request cannot be specified in both approve and discard parameters. Intersection: "
                + both + ".");
        }
        if (approve.isEmpty() && discard.isEmpty()) {
            throw CcException.badRequest("REVIEW endpoint requires at least one of 'approve' or 'discard' parameter.");
        }
        String reason = (p.get("reason") == null ? "No reason provided" : p.get("reason"))
            + " (Client: " + ctx.client() + ", Date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ")";
        return new Operation("Review", task -> Purgatory.infoJson(purgatory.review(approve, discard, reason)));
    }

    /** GET partition_load: one record per partition, sorted by the resource (reference sections 3.9 and 14). */
    private Operation partitionLoadOp(Params p) throws CcException {
        String resource = p.get("resource") == null ? "disk" : p.get("resource");
        String key = switch (resource.toUpperCase(Locale.ROOT)) {
            case "CPU" -> "cpu";
            case "DISK" -> "disk";
            case "NW_IN" -> "networkInbound";
            case "NW_OUT" -> "networkOutbound";
            default -> throw CcException.badRequest("Invalid resource type " + resource + ". The resource type must be one of the "
                + "following: CPU, DISK, NW_IN, NW_OUT");
        };
        if (p.bool("max_load", false) && p.bool("avg_load", false)) {
            throw CcException.badRequest("Parameters to ask for max and avg load are mutually exclusive to each other.");
        }
        Pattern topic = regex(p, "topic");
        int low = Integer.MIN_VALUE;
        int high = Integer.MAX_VALUE;
        String partition = p.get("partition");
        if (partition != null) {
            String[] bounds = partition.split("-");
            if (bounds.length > 2) throw CcException.badRequest("The partition parameter cannot contain multiple dashes.");
            try {
                low = Integer.parseInt(bounds[0]);
                high = Integer.parseInt(bounds[bounds.length - 1]);
            } catch (NumberFormatException e) {
                throw CcException.badRequest(e.getMessage());
            }
        }
        Long entries = p.longValue("entries");
        Set<Integer> brokerIds = p.intSet("brokerid");
        int lo = low;
        int hi = high;
        return new Operation("PartitionLoad", task -> {
            if (warmingUp()) throw CcException.notEnoughValidWindows(System.currentTimeMillis());
            ClusterView v = ClusterView.load(admin, true, false);
            List<ObjectNode> records = new ArrayList<>();
            for (ClusterView.Partition part : v.partitions) {
                if (topic != null && !topic.matcher(part.topic()).matches()) continue;
                if (part.partition() < lo || part.partition() > hi) continue;
                if (!brokerIds.isEmpty() && java.util.Collections.disjoint(brokerIds, part.replicas())) continue;
                int leader = part.leader() >= 0 ? part.leader() : part.replicas().get(0);
                ObjectNode r = Json.obj();
                r.put("topic", part.topic());
                r.put("partition", part.partition());
                r.put("leader", leader);
                ArrayNode followers = r.putArray("followers");
                for (int b : part.replicas()) if (b != leader) followers.add(b);
                // The double samples no metrics: only disk (the real size) is known.
                r.put("cpu", 0.0);
                r.put("disk", v.size(part.tp()) / (1024.0 * 1024.0));
                r.put("networkInbound", 0.0);
                r.put("networkOutbound", 0.0);
                r.put("msg_in", 0.0);
                records.add(r);
            }
            records.sort((a, b) -> Double.compare(b.get(key).asDouble(), a.get(key).asDouble()));
            ObjectNode o = Json.obj();
            ArrayNode a = o.putArray("records");
            for (ObjectNode r : records) {
                if (entries != null && a.size() >= entries) break;
                a.add(r);
            }
            o.put("version", 1);
            return o;
        });
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

    private Operation stopOp(Params p) throws CcException {
        if (p.has("review_id")) throw CcException.badRequest(REVIEW_ID_WITHOUT_TWO_STEP);
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
        Integer brokerLeaderConc = p.positive("broker_concurrent_leader_movements");
        p.positive("execution_progress_check_interval_ms");
        Long throttle = p.longValue("replication_throttle");
        if (throttle != null && throttle < 0) throw CcException.badRequest("replication_throttle parameter must be non-negative, got " + throttle + ".");
        for (String s : p.list("replica_movement_strategies")) {
            if (!MOVEMENT_STRATEGIES.contains(s)) throw CcException.badRequest("Unsupported replica movement strategy " + s + ".");
        }
        if (p.has("review_id")) throw CcException.badRequest(REVIEW_ID_WITHOUT_TWO_STEP);
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
                // With the KafkaCruiseControlException prefix and the 22 supported goals sorted (section 14).
                throw CcException.operation("java.lang.IllegalArgumentException: Goals " + unsupportedGoals
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
                ? Planner.replicationFactor(view, fPatterns, skipRack, excluded,
                    excludeRemoved ? executor.recentlyRemovedBrokers() : Set.of())
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
                if (brokerLeaderConc != null) e.brokerLeaderConcurrency = brokerLeaderConc;
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
