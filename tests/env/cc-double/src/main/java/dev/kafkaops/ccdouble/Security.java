package dev.kafkaops.ccdouble;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * HTTP Basic authentication with Cruise Control's roles, as its {@code BasicSecurityProvider} sets up Jetty
 * (reference section 7; {@code DefaultRoleSecurityProvider}): one constraint per endpoint path under the
 * prefix, matched case-insensitively and whatever the method. VIEWER may call {@code kafka_cluster_state},
 * {@code user_tasks}, {@code review_board} and {@code permissions}; USER every GET endpoint except
 * {@code bootstrap} and {@code train}; ADMIN everything (every POST endpoint is ADMIN only). Paths that name no
 * endpoint carry no constraint, so they reach the servlet (and its 404) without credentials.
 *
 * <p>Failures are Jetty's, not Cruise Control JSON: no or wrong credentials answer 401 with
 * {@code WWW-Authenticate: basic realm="DefaultLoginService"} (the HashLoginService's name); valid credentials
 * whose role is not allowed answer 403 with Jetty's message {@code !role}. Both bodies are Jetty 9.4's HTML
 * error page.
 */
final class Security {
    enum Role { VIEWER, USER, ADMIN }

    record User(String password, Role role) {}

    /** Outcome of the check: null = let the request through. */
    record Denial(int status, String message) {}

    static final String REALM = "DefaultLoginService";

    /** Every endpoint Cruise Control knows, with the method its servlet accepts (reference section 1). */
    static final Set<String> GET_ENDPOINTS = Set.of("bootstrap", "train", "load", "partition_load", "proposals", "state",
        "kafka_cluster_state", "user_tasks", "review_board", "permissions");
    static final Set<String> POST_ENDPOINTS = Set.of("add_broker", "remove_broker", "fix_offline_replicas", "rebalance",
        "stop_proposal_execution", "pause_sampling", "resume_sampling", "demote_broker", "admin", "review",
        "topic_configuration", "rightsize", "remove_disks");
    private static final Set<String> VIEWER_ENDPOINTS = Set.of("kafka_cluster_state", "user_tasks", "review_board", "permissions");
    private static final Set<String> ADMIN_ONLY_GET = Set.of("bootstrap", "train");

    private final Map<String, User> users;

    Security(Map<String, User> users) { this.users = Map.copyOf(users); }

    boolean enabled() { return !users.isEmpty(); }

    /** The roles allowed on {@code endpoint} (lower case), or null when the path carries no constraint. */
    static Set<Role> allowed(String endpoint) {
        if (VIEWER_ENDPOINTS.contains(endpoint)) return Set.of(Role.VIEWER, Role.USER, Role.ADMIN);
        if (ADMIN_ONLY_GET.contains(endpoint) || POST_ENDPOINTS.contains(endpoint)) return Set.of(Role.ADMIN);
        if (GET_ENDPOINTS.contains(endpoint)) return Set.of(Role.USER, Role.ADMIN);
        return null;
    }

    /** Checks a request for {@code endpoint} (lower case) carrying {@code authorization} (may be null). */
    Denial check(String endpoint, String authorization) {
        if (!enabled()) return null;
        Set<Role> roles = allowed(endpoint.toLowerCase(Locale.ROOT));
        if (roles == null) return null;
        User user = authenticate(authorization);
        if (user == null) return new Denial(401, "Unauthorized");
        if (!roles.contains(user.role())) return new Denial(403, "!role");
        return null;
    }

    private User authenticate(String h) {
        if (h == null || !h.regionMatches(true, 0, "Basic ", 0, 6)) return null;
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(h.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) return null;
        User u = users.get(decoded.substring(0, colon));
        return u != null && u.password().equals(decoded.substring(colon + 1)) ? u : null;
    }

    /** Jetty 9.4's ErrorHandler page for {@code status} and {@code message} on {@code uri}. */
    static String errorPage(int status, String message, String uri) {
        String m = escape(message);
        return "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html;charset=utf-8\"/>\n"
            + "<title>Error " + status + " " + m + "</title>\n</head>\n<body><h2>HTTP ERROR " + status + " " + m + "</h2>\n"
            + "<table>\n<tr><th>URI:</th><td>" + escape(uri) + "</td></tr>\n<tr><th>STATUS:</th><td>" + status + "</td></tr>\n"
            + "<tr><th>MESSAGE:</th><td>" + m + "</td></tr>\n<tr><th>SERVLET:</th><td>-</td></tr>\n</table>\n\n</body>\n</html>\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
