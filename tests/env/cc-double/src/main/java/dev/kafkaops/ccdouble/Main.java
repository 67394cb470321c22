package dev.kafkaops.ccdouble;

/**
 * Entry point of the Cruise Control test double. Prints exactly one line, {@code CC-DOUBLE LISTENING <port>},
 * on stdout once the HTTP(S) server accepts requests, so a test harness can wait for it; everything else goes
 * to stderr.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Config config;
        try {
            config = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("cc-double: " + e.getMessage());
            System.err.println("usage: Main --bootstrap-servers H:P [--port 0] [--warmup-seconds N]"
                + " [--basic-auth user:pass] [--user name:password:VIEWER|USER|ADMIN ...] [--tls-keystore path --tls-password pw]"
                + " [--max-active-tasks 5]"
                + " [--task-retention-seconds N] [--task-scan-millis 5000] [--max-block-millis 10000]"
                + " [--min-compute-millis 0] [--anomaly-skew-threshold 0.25] [--anomaly-interval-seconds 10]"
                + " [--self-healing] [--execution-poll-millis 250] [--kafka-property k=v ...] [--stop-linger-millis 0]"
                + " [--first-move-delay-millis 0]");
            System.exit(2);
            return;
        }
        CruiseControlDouble cc = new CruiseControlDouble(config);
        int port = cc.start();
        Runtime.getRuntime().addShutdownHook(new Thread(cc::stop, "cc-double-shutdown"));
        System.out.println("CC-DOUBLE LISTENING " + port);
        System.out.flush();
        Thread.currentThread().join();
    }
}
