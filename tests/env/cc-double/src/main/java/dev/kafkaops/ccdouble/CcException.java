package dev.kafkaops.ccdouble;

/**
 * A failure with the HTTP status and the exception text Cruise Control would report. {@code causeText} is
 * what CC prints as {@code cause.toString()} inside "Error processing ... due to: '...'", so clients that
 * classify errors by substring (as Strimzi and kafkaops do) see the same words.
 */
final class CcException extends Exception {
    final int status;
    final boolean userError;

    private CcException(int status, boolean userError, String message) {
        super(message);
        this.status = status;
        this.userError = userError;
    }

    /** 400 UserRequestException: bad or conflicting parameters. Message is the bare reason. */
    static CcException badRequest(String reason) { return new CcException(400, true, reason); }

    /** 500 with an exception text, e.g. "java.lang.IllegalArgumentException: Broker [3] does not exist.". */
    static CcException server(String causeText) { return new CcException(500, false, causeText); }

    /** A failure inside an async operation: CC wraps it in KafkaCruiseControlException. */
    static CcException operation(String innerExceptionText) {
        return server("com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: " + innerExceptionText);
    }

    static CcException notEnoughValidWindows(long now) {
        return operation("com.linkedin.cruisecontrol.exception.NotEnoughValidWindowsException: There are only 0 valid windows "
            + "when aggregating in range [-1, " + now + "] for aggregation options (minValidEntityRatio=0.95, "
            + "minValidEntityGroupRatio=0.00, minValidWindows=1, numEntitiesToInclude=0, granularity=ENTITY)");
    }

    static CcException ongoingExecution() {
        return operation("java.lang.IllegalStateException: Cannot start a new execution while there is an ongoing execution. "
            + "Please use stop_ongoing_execution=true to stop ongoing execution and start a new one.");
    }

    static CcException optimizationFailure(String goal, String text) {
        return operation("com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException: [" + goal + "] " + text);
    }
}
