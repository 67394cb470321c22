package dev.kafkaops.ccdouble;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Two-step verification (reference section 3.10; CC's {@code Purgatory}, {@code ReviewResult}): with
 * {@code two.step.verification.enabled=true} every POST except {@code review} is held here and answered
 * 200 {@code {"RequestInfo":[...],"version":1}}; {@code POST /review?approve=..&discard=..} changes the
 * status, {@code GET /review_board} lists; {@code POST /<endpoint>?review_id=N} submits an APPROVED request
 * once (status SUBMITTED). Statuses: PENDING_REVIEW, APPROVED, SUBMITTED, DISCARDED.
 */
final class Purgatory {
    static final class Request {
        final int id;
        final String endpoint;
        final String rawQuery;
        final String body;
        final String submitter;
        final long submissionTimeMs;
        final String reason;
        String status = "PENDING_REVIEW";

        Request(int id, String endpoint, String rawQuery, String body, String submitter, String reason) {
            this.id = id;
            this.endpoint = endpoint;
            this.rawQuery = rawQuery == null ? "" : rawQuery;
            this.body = body;
            this.submitter = submitter;
            this.submissionTimeMs = System.currentTimeMillis();
            this.reason = reason == null ? "" : reason;
        }

        ObjectNode json() {
            ObjectNode o = Json.obj();
            o.put("Id", id);
            o.put("SubmitterAddress", submitter);
            o.put("SubmissionTimeMs", submissionTimeMs);
            o.put("Status", status);
            o.put("EndpointWithParams", "POST /kafkacruisecontrol/" + endpoint + (rawQuery.isEmpty() ? "" : "?" + rawQuery));
            o.put("Reason", reason);
            return o;
        }
    }

    private final Map<Integer, Request> requests = new TreeMap<>();
    private int nextId = 0;

    synchronized Request add(String endpoint, String rawQuery, String body, String submitter, String reason) {
        Request r = new Request(nextId++, endpoint, rawQuery, body, submitter, reason);
        requests.put(r.id, r);
        return r;
    }

    /** Takes an APPROVED request of {@code endpoint} for execution (it becomes SUBMITTED). */
    synchronized Request submit(int id, String endpoint) throws CcException {
        Request r = requests.get(id);
        if (r == null) throw CcException.badRequest("No request with review id " + id + " in the purgatory.");
        if (!r.endpoint.equals(endpoint)) {
            throw CcException.badRequest("Request with review id " + id + " is for endpoint " + r.endpoint.toUpperCase()
                + ", not " + endpoint.toUpperCase() + ".");
        }
        if (!r.status.equals("APPROVED")) {
            throw CcException.badRequest("Request with review id " + id + " is in status " + r.status
                + "; only APPROVED requests can be submitted.");
        }
        r.status = "SUBMITTED";
        return r;
    }

    /** Applies a review; returns the reviewed requests. */
    synchronized List<Request> review(List<Integer> approve, List<Integer> discard) throws CcException {
        for (int id : approve) if (discard.contains(id)) throw CcException.badRequest("Review id " + id + " is both approved and discarded.");
        List<Request> out = new ArrayList<>();
        for (int id : approve) out.add(change(id, "APPROVED"));
        for (int id : discard) out.add(change(id, "DISCARDED"));
        return out;
    }

    private Request change(int id, String to) throws CcException {
        Request r = requests.get(id);
        if (r == null) throw CcException.badRequest("No request with review id " + id + " in the purgatory.");
        if (!r.status.equals("PENDING_REVIEW") && !(r.status.equals("APPROVED") && to.equals("DISCARDED"))) {
            throw CcException.badRequest("Request with review id " + id + " is in status " + r.status + " and cannot become " + to + ".");
        }
        r.status = to;
        return r;
    }

    synchronized List<Request> board(Collection<Integer> ids) {
        List<Request> out = new ArrayList<>();
        for (Request r : requests.values()) if (ids.isEmpty() || ids.contains(r.id)) out.add(r);
        return out;
    }

    static ObjectNode infoJson(List<Request> rs) {
        ObjectNode o = Json.obj();
        ArrayNode a = o.putArray("RequestInfo");
        for (Request r : rs) a.add(r.json());
        o.put("version", 1);
        return o;
    }
}
