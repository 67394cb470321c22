package dev.kafkaops.ccdouble;

/**
 * A failure with the HTTP status and the text Cruise Control would report. The servlet words them three ways
 * (its {@code KafkaCruiseControlServletUtils}, {@code AbstractParameters#parseParameters}):
 * <ul>
 *   <li>{@link Kind#PARSE}: a parameter that does not parse, 400 with the bare message
 *       ({@code For input string: "abc"}, reference section 13);</li>
 *   <li>{@link Kind#USER}: a UserRequestException raised while handling, 400
 *       "Bad POST request '/x' due to '&lt;msg&gt;'.";</li>
 *   <li>{@link Kind#CONFIG}: a ConfigException, 403 "Cannot process GET request '/x' due to: '&lt;msg&gt;'.";</li>
 *   <li>{@link Kind#SERVER}: anything else, 500 "Error processing POST request '/x' due to: '&lt;msg&gt;'.", where
 *       the message is {@code cause.toString()} for failures inside an async operation (so it starts with the
 *       exception's class, e.g. "java.lang.IllegalStateException: ...") and the bare message (or {@code null})
 *       for what the request handler itself throws (the servlet capacity, "Unexpected header").</li>
 * </ul>
 * Clients that classify errors by substring (as Strimzi and kafkaops do) see the same words.
 */
final class CcException extends Exception {
    enum Kind { PARSE, USER, CONFIG, SERVER }

    final Kind kind;
    /** The text inside the servlet's sentence; may be null (Java prints "null"). */
    final String text;

    private CcException(Kind kind, String text) {
        super(String.valueOf(text));
        this.kind = kind;
        this.text = text;
    }

    int status() {
        return switch (kind) {
            case PARSE, USER -> 400;
            case CONFIG -> 403;
            case SERVER -> 500;
        };
    }

    /** The errorMessage the servlet sends for a request {@code method} on {@code /endpoint}. */
    String errorMessage(String method, String endpoint) {
        String t = String.valueOf(text);
        return switch (kind) {
            case PARSE -> t;
            case USER -> "Bad " + method + " request '/" + endpoint + "' due to '" + t + "'.";
            case CONFIG -> "Cannot process " + method + " request '/" + endpoint + "' due to: '" + t + "'.";
            case SERVER -> "Error processing " + method + " request '/" + endpoint + "' due to: '" + t + "'.";
        };
    }

    /** 400 with the bare reason: a parameter that does not parse or conflicts (reference section 13). */
    static CcException badRequest(String reason) { return new CcException(Kind.PARSE, reason); }

    /** 400 "Bad METHOD request '/x' due to '...'.": a UserRequestException raised by the request handler. */
    static CcException badRequestWrapped(String reason) { return new CcException(Kind.USER, reason); }

    /** 403 "Cannot process ...": a ConfigException (review endpoints with two-step verification off). */
    static CcException config(String reason) { return new CcException(Kind.CONFIG, reason); }

    /** 500 with an exception text as given, e.g. "java.lang.IllegalStateException: Cannot start ...". */
    static CcException server(String causeText) { return new CcException(Kind.SERVER, causeText); }

    /** 500 with a message the request handler throws itself: no exception class in front; null prints "null". */
    static CcException serverBare(String message) { return new CcException(Kind.SERVER, message); }

    /** A failure inside a goal-based operation's model work: CC wraps it in KafkaCruiseControlException. */
    static CcException operation(String innerExceptionText) {
        return server("com.linkedin.kafka.cruisecontrol.exception.KafkaCruiseControlException: " + innerExceptionText);
    }

    /** An IllegalStateException from an operation's sanity checks, before the model work: no wrapper. */
    static CcException illegalState(String message) { return server("java.lang.IllegalStateException: " + message); }

    static CcException notEnoughValidWindows(long now) {
        return operation("com.linkedin.cruisecontrol.exception.NotEnoughValidWindowsException: There are only 0 valid windows "
            + "when aggregating in range [-1, " + now + "] for aggregation options (minValidEntityRatio=0.95, "
            + "minValidEntityGroupRatio=0.00, minValidWindows=1, numEntitiesToInclude=0, granularity=ENTITY)");
    }

    /** A second execution (reference sections 13 and 14: IllegalStateException, no KafkaCruiseControlException). */
    static CcException ongoingExecution() {
        return illegalState("Cannot start a new execution while there is an ongoing execution. "
            + "Please use stop_ongoing_execution=true to stop ongoing execution and start a new one.");
    }

    static CcException optimizationFailure(String goal, String text) {
        return operation("com.linkedin.kafka.cruisecontrol.exception.OptimizationFailureException: [" + goal + "] " + text);
    }
}
