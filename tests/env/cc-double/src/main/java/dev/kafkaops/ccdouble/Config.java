package dev.kafkaops.ccdouble;

/**
 * Command-line settings of the double. Each one mirrors a Cruise Control configuration key where one
 * exists (named in the comment) so tests can reproduce the real server's limits in seconds, not hours.
 */
final class Config {
    String bootstrapServers;
    String bindAddress = "127.0.0.1";          // webserver.http.address
    int port = 0;                               // webserver.http.port (0 = pick a free one)
    int warmupSeconds = 0;                      // time until the first metric window is "valid"
    // webserver.security.enable + webserver.auth.credentials.file: user -> (password, role), as Jetty's
    // HashLoginService reads "user: password, ROLE" lines. Empty: security off.
    java.util.Map<String, Security.User> users = new java.util.LinkedHashMap<>();
    String tlsKeystore;                         // webserver.ssl.keystore.location
    String tlsPassword;                         // webserver.ssl.keystore.password
    int maxActiveTasks = 5;                     // max.active.user.tasks
    long taskRetentionMs = 24L * 3600 * 1000;   // completed.user.task.retention.time.ms
    int maxCachedCompletedTasks = 25;           // max.cached.completed.user.tasks
    long taskScanMillis = 5000;                 // UserTaskManager.USER_TASK_SCANNER_PERIOD_SECONDS
    long maxBlockMillis = 10_000;               // webserver.request.maxBlockTimeMs
    long minComputeMillis = 0;                  // how long a proposal computation takes at least
    double anomalySkewThreshold = 0.25;         // replica/leader count skew that counts as a goal violation
    int anomalyIntervalSeconds = 10;            // anomaly.detection.interval.ms
    boolean selfHealing = false;                // self.healing.goal.violation.enabled
    java.util.List<String> anomalyDetectionGoals = AnomalyDetector.DEFAULT_DETECTION_GOALS; // anomaly.detection.goals
    long executionPollMillis = 250;             // how often the executor re-reads reassignment state
    boolean autoStopExternalAgent = true;       // auto.stop.external.agent
    boolean twoStepVerification = false;        // two.step.verification.enabled
    // Kafka client settings of the double's admin client (security.protocol, sasl.*, ssl.*), as Cruise
    // Control passes its own Kafka client properties through to its AdminClient.
    java.util.Map<String, String> kafkaProperties = new java.util.LinkedHashMap<>();
    int loadingSeconds = 0;                     // restart with stored samples: MonitorState LOADING this long
    long progressStepMillis = 0;                // ExecutorState counters refresh only this often (real CC: ~10 s jumps)
    long stopLingerMillis = 0;                  // after a stop, STOPPING_EXECUTION this long (real CC: ~45 s)
    long firstMoveDelayMillis = 0;              // STARTING_EXECUTION this long before the first move (real CC: 10-45 s)

    static Config parse(String[] args) {
        Config c = new Config();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = (i + 1 < args.length) ? args[i + 1] : null;
            switch (a) {
                case "--bootstrap-servers" -> { c.bootstrapServers = need(a, v); i++; }
                case "--bind-address" -> { c.bindAddress = need(a, v); i++; }
                case "--port" -> { c.port = Integer.parseInt(need(a, v)); i++; }
                case "--warmup-seconds" -> { c.warmupSeconds = Integer.parseInt(need(a, v)); i++; }
                case "--basic-auth" -> {
                    // One ADMIN user (the credentials Strimzi's operator uses).
                    String s = need(a, v);
                    int colon = s.indexOf(':');
                    if (colon <= 0) throw new IllegalArgumentException("--basic-auth wants user:password");
                    c.users.put(s.substring(0, colon), new Security.User(s.substring(colon + 1), Security.Role.ADMIN));
                    i++;
                }
                case "--user" -> {
                    // name:password:ROLE (the role after the last colon, so a password may hold colons)
                    String s = need(a, v);
                    int first = s.indexOf(':');
                    int last = s.lastIndexOf(':');
                    if (first <= 0 || last == first) throw new IllegalArgumentException("--user wants name:password:ROLE");
                    Security.Role role;
                    try {
                        role = Security.Role.valueOf(s.substring(last + 1).trim().toUpperCase(java.util.Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--user: the role must be VIEWER, USER or ADMIN");
                    }
                    c.users.put(s.substring(0, first), new Security.User(s.substring(first + 1, last), role));
                    i++;
                }
                case "--tls-keystore" -> { c.tlsKeystore = need(a, v); i++; }
                case "--tls-password" -> { c.tlsPassword = need(a, v); i++; }
                case "--max-active-tasks" -> { c.maxActiveTasks = Integer.parseInt(need(a, v)); i++; }
                case "--task-retention-seconds" -> { c.taskRetentionMs = Long.parseLong(need(a, v)) * 1000; i++; }
                case "--max-cached-completed-tasks" -> { c.maxCachedCompletedTasks = Integer.parseInt(need(a, v)); i++; }
                case "--task-scan-millis" -> { c.taskScanMillis = Long.parseLong(need(a, v)); i++; }
                case "--max-block-millis" -> { c.maxBlockMillis = Long.parseLong(need(a, v)); i++; }
                case "--min-compute-millis" -> { c.minComputeMillis = Long.parseLong(need(a, v)); i++; }
                case "--anomaly-skew-threshold" -> { c.anomalySkewThreshold = Double.parseDouble(need(a, v)); i++; }
                case "--anomaly-interval-seconds" -> { c.anomalyIntervalSeconds = Integer.parseInt(need(a, v)); i++; }
                case "--self-healing" -> c.selfHealing = true;
                case "--two-step-verification" -> c.twoStepVerification = true;
                case "--anomaly-detection-goals" -> {
                    c.anomalyDetectionGoals = java.util.Arrays.stream(need(a, v).split(","))
                        .map(String::trim).filter(g -> !g.isEmpty()).toList();
                    i++;
                }
                case "--kafka-property" -> {
                    String kv = need(a, v);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) throw new IllegalArgumentException("--kafka-property wants key=value");
                    c.kafkaProperties.put(kv.substring(0, eq), kv.substring(eq + 1));
                    i++;
                }
                case "--execution-poll-millis" -> { c.executionPollMillis = Long.parseLong(need(a, v)); i++; }
                case "--auto-stop-external-agent" -> { c.autoStopExternalAgent = Boolean.parseBoolean(need(a, v)); i++; }
                case "--loading-seconds" -> { c.loadingSeconds = Integer.parseInt(need(a, v)); i++; }
                case "--progress-step-millis" -> { c.progressStepMillis = Long.parseLong(need(a, v)); i++; }
                case "--stop-linger-millis" -> { c.stopLingerMillis = Long.parseLong(need(a, v)); i++; }
                case "--first-move-delay-millis" -> { c.firstMoveDelayMillis = Long.parseLong(need(a, v)); i++; }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (c.bootstrapServers == null) throw new IllegalArgumentException("--bootstrap-servers is required");
        if ((c.tlsKeystore == null) != (c.tlsPassword == null)) {
            throw new IllegalArgumentException("--tls-keystore and --tls-password go together");
        }
        return c;
    }

    private static String need(String flag, String v) {
        if (v == null) throw new IllegalArgumentException(flag + " needs a value");
        return v;
    }
}
