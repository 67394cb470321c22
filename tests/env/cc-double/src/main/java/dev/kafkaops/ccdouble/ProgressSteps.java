package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Supplier;

/**
 * Executor counters that advance in steps, as a real Cruise Control reports them (reference section 13:
 * "Progress counters move every ~10 s in jumps"): the executor refreshes its view of the reassignments
 * only every execution-progress check, so between two refreshes {@code /state} repeats the same numbers.
 * With a step of 0 the counters are live (the double's default, which older tests rely on).
 */
final class ProgressSteps {
    private final long stepMillis;
    private Object execution;
    private long takenMs;
    private ObjectNode snapshot;

    ProgressSteps(long stepMillis) { this.stepMillis = stepMillis; }

    synchronized ObjectNode counters(Object execution, Supplier<ObjectNode> now) {
        long t = System.currentTimeMillis();
        if (stepMillis <= 0 || snapshot == null || this.execution != execution || t - takenMs >= stepMillis) {
            snapshot = now.get();
            this.execution = execution;
            takenMs = t;
        }
        return snapshot.deepCopy();
    }
}
