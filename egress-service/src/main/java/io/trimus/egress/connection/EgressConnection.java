package io.trimus.egress.connection;

import io.trimus.egress.sandbox.Sandbox;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * A persisted {@link ConnectionRecord}: one attributed proxy connection of a run, as it ended. Written once, in a
 * batch, by {@link BufferedConnectionRecorder}; deleted by {@link ConnectionRetention} when it is old.
 */
@Entity
@Table(name = "egress_connection")
public class EgressConnection {
    /** Longest host name a row holds: a DNS name has at most 253 characters. */
    static final int MAX_HOST = 253;
    /** Longest reason a row holds. */
    static final int MAX_REASON = 64;
    /** Longest way or decision a row holds. */
    static final int MAX_WORD = 16;
    /** Longest address text a row holds (an IPv6 address with an embedded IPv4 one). */
    static final int MAX_ADDRESS = 45;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;
    public UUID companyId;
    public UUID runId;
    public UUID agentId;
    public String sandboxIp;
    public String way;
    public String host;
    public int port;
    public String address;
    public String decision;
    public String reason;
    public boolean enforced;
    public long bytesOut;
    public long bytesIn;
    public Instant startedAt;
    public long durationMs;
    /**
     * Requests with a masked secret swapped in, by secret name, as JSON ({@code {"GITHUB_TOKEN": 3}}); null: none.
     * Written by the native insert and read by the native per-run query only, so not mapped.
     */
    @jakarta.persistence.Transient
    public String maskedSwaps;

    /** Whether the record can be stored at all: it must name its sandbox's company and run. */
    static boolean attributed(ConnectionRecord record) {
        Sandbox sandbox = record == null ? null : record.sandbox();
        return sandbox != null && sandbox.companyId() != null && sandbox.runId() != null;
    }

    /**
     * The row of an {@link #attributed} record, every text cut to its column's bound (the proxy normalises and
     * bounds what it records; this makes sure a row is never refused for its length).
     */
    static EgressConnection of(ConnectionRecord record) {
        Sandbox sandbox = record.sandbox();
        EgressConnection row = new EgressConnection();
        row.companyId = sandbox.companyId();
        row.runId = sandbox.runId();
        row.agentId = sandbox.agentId();
        row.sandboxIp = bounded(sandbox.ip(), MAX_ADDRESS, "-");
        row.way = bounded(record.way(), MAX_WORD, "-");
        row.host = bounded(record.host(), MAX_HOST, "");
        row.port = record.port();
        row.address = bounded(record.address(), MAX_ADDRESS, null);
        row.decision = bounded(record.decision(), MAX_WORD, "-");
        row.reason = bounded(record.reason(), MAX_REASON, "-");
        row.enforced = record.enforced();
        row.bytesOut = Math.max(0, record.bytesOut());
        row.bytesIn = Math.max(0, record.bytesIn());
        row.startedAt = record.startedAt() == null ? Instant.now() : record.startedAt();
        row.durationMs = Math.max(0, record.durationMillis());
        row.maskedSwaps = swapsJson(record.maskedSwaps());
        return row;
    }

    /** The swaps as a JSON object of at most 64 secret names (names are letters, digits and _), or null when none. */
    static String swapsJson(java.util.Map<String, Integer> swaps) {
        if (swaps.isEmpty()) {
            return null;
        }
        StringBuilder json = new StringBuilder("{");
        swaps.entrySet().stream().filter(e -> e.getKey().matches("[A-Za-z_][A-Za-z0-9_]{0,127}")).limit(64)
                .forEach(e -> json.append(json.length() > 1 ? "," : "").append('"').append(e.getKey()).append("\":")
                        .append(Math.max(0, e.getValue())));
        return json.length() == 1 ? null : json.append('}').toString();
    }

    /**
     * At most {@code max} characters, never half a surrogate pair, no NUL (PostgreSQL text cannot hold it);
     * {@code fallback} for null.
     */
    static String bounded(String text, int max, String fallback) {
        if (text == null) {
            return fallback;
        }
        String clean = text.indexOf('\u0000') < 0 ? text : text.replace('\u0000', '\uFFFD');
        if (clean.length() <= max) {
            return clean;
        }
        int end = Character.isHighSurrogate(clean.charAt(max - 1)) ? max - 1 : max;
        return clean.substring(0, end);
    }
}
