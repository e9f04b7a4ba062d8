package io.trimus.egress.anomaly.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.List;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * A persisted {@code io.trimus.egress.anomaly.v1} event: denied lookups of one sandbox for one name, counted over
 * a window. Written once per event id by {@link AnomalyConsumer}; never changed afterwards.
 */
@Entity
@Table(name = "egress_anomaly_events")
public class AnomalyEvent {
    /** Longest signal label kept (the contract's are short; an event from elsewhere may send anything). */
    static final int MAX_SIGNAL = 64;

    @Id
    public UUID id;
    public UUID companyId;
    public UUID agentId;
    public UUID runId;
    public String containerId;
    public String sourceIp;
    public String qname;
    public String qtype;
    public String reason;
    @Column(name = "count")
    public long count;
    public Instant firstSeen;
    public Instant lastSeen;
    public Instant receivedAt;
    /** False for what report mode let through, which enforce mode would have denied. */
    public boolean enforced = true;
    /** For {@code proxy_request_denied}: the refused request's method; else null. */
    public String method;
    /** For {@code proxy_request_denied}: the refused request's normalised path; else null. */
    public String path;
    /** The sandbox's tunnelling score (0 to 1) for the name's base domain; null when the event had none. */
    public Double score;
    /**
     * The tunnelling signals that were up, comma-separated ({@code long_names,high_entropy}; empty for none); null
     * without a score. {@link #signalList()} reads it as a list.
     */
    public String signals;

    /** {@link #signals} as a list: null without signals, empty for none. */
    public List<String> signalList() {
        if (signals == null) {
            return null;
        }
        return signals.isEmpty() ? List.of() : List.of(signals.split(","));
    }

    /** Signal labels as {@link #signals} stores them: null for null, each label stripped, without commas. */
    static String joinSignals(List<String> labels) {
        if (labels == null) {
            return null;
        }
        StringJoiner joined = new StringJoiner(",");
        for (String label : labels) {
            String clean = label == null ? "" : label.replace(',', ' ').replace('\u0000', '\uFFFD').strip();
            if (!clean.isEmpty()) {
                joined.add(clean.length() <= MAX_SIGNAL ? clean : clean.substring(0, MAX_SIGNAL));
            }
        }
        return joined.toString();
    }
}
