package io.trimus.admin.support;

/**
 * Canary answers as egress-service's {@code GET /api/companies/{id}/egress/canary} gives them (its contract, issue 33),
 * for {@link BackendStandIns} and the tests that set them.
 */
public final class Canaries {
    /** A check that should have been blocked and was. */
    public static final String BLOCKED_NAME = check("unlisted_name", "c1a2.canary.trimus.invalid", "blocked",
            "NXDOMAIN", "blocked");
    /** A check that should have been blocked and got through: the breach. */
    public static final String OPEN_BRIDGE = check("bridge_route", "172.30.0.1:22", "blocked",
            "connection refused by the host (its firewall let the packet in)", "allowed");
    /** A check that must work, and did. */
    public static final String ALLOWED_HOST = check("allowed_host", "CONNECT api.github.com:443 via 172.30.0.1:3128",
            "allowed", "HTTP 200", "allowed");

    private Canaries() {
    }

    /** The answer for a company that never had a canary. */
    public static String none(String company) {
        return "{\"company_id\":\"" + company + "\",\"id\":null,\"status\":\"none\",\"trigger\":null,"
                + "\"requested_at\":null,\"finished_at\":null,\"error\":null,\"checks\":[],\"history\":[],"
                + "\"interval\":\"PT15M\"}";
    }

    /** A canary just requested by hand. */
    public static String running(String company) {
        return canary(company, "running", "manual", null, null, "", "");
    }

    /** A finished canary with {@code checks} (JSON objects, comma-separated) and {@code history} likewise. */
    public static String canary(String company, String status, String trigger, String finishedAt, String error,
                                String checks, String history) {
        return "{\"company_id\":\"" + company + "\",\"id\":\""
                + java.util.UUID.nameUUIDFromBytes((company + status).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                + "\",\"status\":\"" + status + "\",\"trigger\":\"" + trigger + "\","
                + "\"requested_at\":\"2026-12-06T07:00:00Z\",\"finished_at\":" + quoted(finishedAt) + ","
                + "\"error\":" + quoted(error) + ",\"checks\":[" + checks + "],\"history\":[" + history + "],"
                + "\"interval\":\"PT15M\"}";
    }

    /** An earlier canary as the history lists it. */
    public static String earlier(String status, String finishedAt) {
        return "{\"id\":\"7d0c4a5e-2222-4c1e-9e55-000000000000\",\"status\":\"" + status + "\",\"trigger\":\"scheduled\","
                + "\"requested_at\":\"" + finishedAt + "\",\"finished_at\":\"" + finishedAt + "\",\"error\":null,"
                + "\"checks\":[]}";
    }

    /** One check. */
    public static String check(String name, String target, String expected, String got, String outcome) {
        return "{\"name\":\"" + name + "\",\"target\":\"" + target + "\",\"expected\":\"" + expected + "\",\"got\":\""
                + got + "\",\"outcome\":\"" + outcome + "\"}";
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }
}
