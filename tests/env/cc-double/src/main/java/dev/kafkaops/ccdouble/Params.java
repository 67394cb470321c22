package dev.kafkaops.ccdouble;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Query parameters with CC's rules: case-insensitive names, comma lists, Boolean.parseBoolean. */
final class Params {
    final Map<String, String> values = new LinkedHashMap<>();
    /** Names and value sets, the key CC compares when a request is re-sent with User-Task-ID. */
    final Map<String, Set<String>> matchKey = new TreeMap<>();
    /** The parameters as sent: names as written, decoded values, in request order (CC's parameter map). */
    final Map<String, List<String>> asSent = new LinkedHashMap<>();

    static Params parse(String rawQuery) {
        Params p = new Params();
        if (rawQuery == null || rawQuery.isEmpty()) return p;
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String sentName = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String name = sentName.toLowerCase();
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            p.asSent.computeIfAbsent(sentName, k -> new ArrayList<>()).add(value);
            p.values.putIfAbsent(name, value);
            p.matchKey.computeIfAbsent(name, k -> new TreeSet<>()).add(value);
        }
        return p;
    }

    boolean has(String name) { return values.containsKey(name); }

    String get(String name) { return values.get(name); }

    boolean bool(String name, boolean dflt) {
        String v = values.get(name);
        return v == null ? dflt : Boolean.parseBoolean(v);
    }

    List<String> list(String name) {
        String v = values.get(name);
        List<String> out = new ArrayList<>();
        if (v == null) return out;
        for (String s : v.split(",")) if (!s.isBlank()) out.add(s.trim());
        return out;
    }

    Set<Integer> intSet(String name) throws CcException {
        Set<Integer> out = new TreeSet<>();
        for (String s : list(name)) {
            try {
                out.add(Integer.parseInt(s));
            } catch (NumberFormatException e) {
                throw CcException.badRequest(e.getMessage());
            }
        }
        return out;
    }

    /** A positive integer parameter (concurrency limits); absent = null. */
    Integer positive(String name) throws CcException {
        Long v = longValue(name);
        if (v == null) return null;
        if (v <= 0) {
            if (name.startsWith("concurrent_") || name.startsWith("broker_concurrent_") || name.startsWith("max_partition_movements")) {
                throw CcException.badRequest("The requested movement concurrency must be positive (Requested: " + v + ").");
            }
            throw CcException.badRequest(name + " parameter must be positive, got " + v + ".");
        }
        return v.intValue();
    }

    Long longValue(String name) throws CcException {
        String v = values.get(name);
        if (v == null) return null;
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw CcException.badRequest(e.getMessage()); // CC's text: For input string: "abc"
        }
    }
}
