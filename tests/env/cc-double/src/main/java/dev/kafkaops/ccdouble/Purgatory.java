package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Two-step verification (reference sections 3.10 and 14; CC's {@code Purgatory}, {@code RequestInfo},
 * {@code ReviewResult}): with {@code two.step.verification.enabled=true} every POST except {@code review} is
 * held here and answered 200 {@code {"RequestInfo":[...],"version":1}}.
 *
 * <ul>
 *   <li>{@code EndpointWithParams} is the endpoint's enum name and the request's parameters as sent
 *       ({@code REBALANCE?dryrun=false&json=true}); {@code Reason} follows the status: "Awaiting review.",
 *       then the review's reason with client and date, then "Submitted approved request.".</li>
 *   <li>Transitions: PENDING_REVIEW -> APPROVED | DISCARDED, APPROVED -> DISCARDED | SUBMITTED; any other is
 *       CC's IllegalStateException "Cannot mark a task in X to Y status. ..." (a 500).</li>
 *   <li>Reviewing an id that is not in the purgatory fails inside CC on an unmodifiable set: a 500 whose text is
 *       {@code 'null'}. {@code review_board} with {@code review_ids} fails the same way (a server bug recorded
 *       in section 14); without it, it lists every request.</li>
 * </ul>
 */
final class Purgatory {
    static final String INIT_REASON = "Awaiting review.";
    static final String FINAL_REASON = "Submitted approved request.";
    private static final Map<String, Set<String>> VALID_TRANSFER = Map.of(
        "PENDING_REVIEW", Set.of("APPROVED", "DISCARDED"),
        "APPROVED", Set.of("DISCARDED", "SUBMITTED"),
        "SUBMITTED", Set.of(),
        "DISCARDED", Set.of());

    static final class Request {
        final int id;
        final String endpoint;
        final String rawQuery;
        final String body;
        final String submitter;
        final long submissionTimeMs;
        /** The parameters as sent (decoded, in order), for EndpointWithParams. */
        final Map<String, List<String>> parameters;
        volatile String status = "PENDING_REVIEW";
        volatile String reason = INIT_REASON;
        /** The user task of the submitted request (set once it runs). */
        volatile String userTaskId;

        Request(int id, String endpoint, String rawQuery, String body, String submitter) {
            this.id = id;
            this.endpoint = endpoint;
            this.rawQuery = rawQuery == null ? "" : rawQuery;
            this.body = body;
            this.submitter = submitter;
            this.submissionTimeMs = System.currentTimeMillis();
            this.parameters = Params.parse(this.rawQuery).asSent;
        }

        String endpointWithParams() {
            StringBuilder sb = new StringBuilder(endpoint.toUpperCase(java.util.Locale.ROOT));
            String delimiter = "?";
            for (var e : parameters.entrySet()) {
                for (String v : e.getValue()) {
                    sb.append(delimiter).append(e.getKey()).append('=').append(v);
                    delimiter = "&";
                }
            }
            return sb.toString();
        }

        ObjectNode json() {
            ObjectNode o = Json.obj();
            o.put("Id", id);
            o.put("SubmitterAddress", submitter);
            o.put("SubmissionTimeMs", submissionTimeMs);
            o.put("Status", status);
            o.put("EndpointWithParams", endpointWithParams());
            o.put("Reason", reason);
            return o;
        }

        void transfer(String to, String why) throws CcException {
            if (!VALID_TRANSFER.get(status).contains(to)) {
                throw CcException.serverBare("Cannot mark a task in " + status + " to " + to + " status. The valid target statuses are "
                    + VALID_TRANSFER.get(status));
            }
            status = to;
            reason = why;
        }
    }

    private final Map<Integer, Request> requests = new TreeMap<>();
    private int nextId = 0;

    synchronized Request add(String endpoint, String rawQuery, String body, String submitter) {
        Request r = new Request(nextId++, endpoint, rawQuery, body, submitter);
        requests.put(r.id, r);
        return r;
    }

    /** {@code POST /<endpoint>?review_id=N}: the request approved under {@code id} (it becomes SUBMITTED). */
    synchronized Request submit(int id, String endpoint, String method) throws CcException {
        Request r = requests.get(id);
        if (r == null) {
            throw CcException.badRequestWrapped("No request with review id " + id + " exists in purgatory. Please use REVIEW endpoint "
                + "to check for the current requests awaiting review in purgatory.");
        }
        if (!r.endpoint.equals(endpoint)) {
            throw CcException.badRequestWrapped("Request with review id " + id + " is associated with "
                + r.endpoint.toUpperCase(java.util.Locale.ROOT) + " endpoint, but the given request has "
                + endpoint.toUpperCase(java.util.Locale.ROOT) + " endpoint.Please use REVIEW endpoint to check for the current "
                + "requests awaiting review in purgatory.");
        }
        if (r.status.equals("SUBMITTED")) {
            throw CcException.badRequestWrapped("Attempt to start a new user task with an already submitted review. If you are "
                + "trying to retrieve the result of a submitted execution, please use its UUID in your request header via "
                + "User-Task-ID flag. If you are starting a new execution with the same parameters, please submit a new review "
                + "request and get approval for it.");
        }
        r.transfer("SUBMITTED", FINAL_REASON);
        return r;
    }

    /**
     * {@code POST /review}: applies approvals, then discards. An id not in the purgatory makes CC call
     * {@code removeAll} on an unmodifiable set: a 500 "due to: 'null'".
     */
    synchronized List<Request> review(Set<Integer> approve, Set<Integer> discard, String reason) throws CcException {
        for (Set<Integer> ids : List.of(approve, discard)) {
            if (!requests.keySet().containsAll(ids)) throw CcException.serverBare(null);
        }
        List<Request> out = new ArrayList<>();
        for (int id : approve) { requests.get(id).transfer("APPROVED", reason); out.add(requests.get(id)); }
        for (int id : discard) { requests.get(id).transfer("DISCARDED", reason); out.add(requests.get(id)); }
        return out;
    }

    /** {@code GET /review_board}: every request; with {@code review_ids} CC fails (section 14). */
    synchronized List<Request> board(Set<Integer> ids) throws CcException {
        if (!ids.isEmpty()) throw CcException.serverBare(null);
        return new ArrayList<>(requests.values());
    }

    static ObjectNode infoJson(List<Request> rs) {
        ObjectNode o = Json.obj();
        ArrayNode a = o.putArray("RequestInfo");
        Map<Integer, Request> byId = new LinkedHashMap<>();
        for (Request r : rs) byId.put(r.id, r);
        for (Request r : byId.values()) a.add(r.json());
        o.put("version", 1);
        return o;
    }
}
