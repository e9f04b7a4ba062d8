package io.trimus.admin.view;

import io.trimus.admin.client.EgressServiceApi.Anomaly;
import io.trimus.admin.client.RequestRules;
import io.trimus.admin.view.Views.AnomalyRow;
import io.trimus.admin.view.Views.Option;
import io.trimus.admin.view.Views.RequestDenied;
import io.trimus.events.EgressAnomaly;

import java.util.List;
import java.util.Locale;
import java.util.UUID;

/** Anomalies as rows of a page, from the REST list or from the live topic, and the reasons in words. */
public final class AnomalyRows {
    /** The reasons an anomaly can have, in the order the filter offers them. */
    public static final List<String> REASONS = EgressAnomaly.REASONS;
    /** The score filter's thresholds: a tunnelling score at least this high. */
    static final List<Double> MIN_SCORES = List.of(0.5, 0.8);
    /** Longest method or path a row shows (egress-service keeps paths of at most 512 characters). */
    static final int MAX_SHOWN = 600;

    private AnomalyRows() {
    }

    /** A stored anomaly as egress-service lists it. */
    public static AnomalyRow of(Anomaly a, String companyName) {
        return new AnomalyRow(a.id().toString(), id(a.companyId()), companyName, a.qname(), a.qtype(), a.reason(),
                reasonText(a.reason()), a.count(), Times.utc(a.lastSeen()), Times.iso(a.lastSeen()), id(a.runId()),
                a.sourceIp(), a.denied(), false, "", request(a.reason(), a.qname(), a.qtype(), a.method(), a.path(),
                a.agentId()), score(a.score()), signals(a.score(), a.signals()));
    }

    /** An anomaly just read from the live topic. */
    public static AnomalyRow of(EgressAnomaly a, String companyName) {
        return new AnomalyRow(a.id().toString(), id(a.companyId()), companyName, a.qname(), a.qtype(), a.reason(),
                reasonText(a.reason()), a.count(), Times.utc(a.lastSeen()), Times.iso(a.lastSeen()), id(a.runId()),
                a.sourceIp(), !Boolean.FALSE.equals(a.enforced()), false, "", request(a.reason(), a.qname(), a.qtype(),
                a.method(), a.path(), a.agentId()), score(a.score()), signals(a.score(), a.signals()));
    }

    /** A tunnelling score with two decimals ({@code 0.83}); null when there is none or it is no number. */
    static String score(Double score) {
        if (score == null || score.isNaN() || score.isInfinite()) {
            return null;
        }
        return String.format(Locale.ROOT, "%.2f", Math.max(0, Math.min(1, score)));
    }

    /**
     * The signals of a score in words, comma-separated ({@code long_names} as "long names"), at most
     * {@value #MAX_SHOWN} characters; "none" for a score without signals; null without a score.
     */
    static String signals(Double score, List<String> signals) {
        if (score(score) == null) {
            return null;
        }
        if (signals == null || signals.isEmpty()) {
            return "none";
        }
        List<String> words = signals.stream().filter(s -> s != null && !s.isBlank())
                .map(s -> s.strip().replace('_', ' ')).toList();
        return words.isEmpty() ? "none" : cut(String.join(", ", words));
    }

    /**
     * The request of a {@code proxy_request_denied} (null for any other reason), not yet judged against the lists:
     * its method and path as sent, at most {@value #MAX_SHOWN} characters each.
     */
    static RequestDenied request(String reason, String qname, String qtype, String method, String path, UUID agent) {
        if (!EgressAnomaly.PROXY_REQUEST_DENIED.equals(reason)) {
            return null;
        }
        boolean allowable = RequestRules.Request.of(qname, qtype, method, path).allowable();
        return new RequestDenied(cut(method), cut(path), id(agent), allowable, false, List.of(), null);
    }

    private static String cut(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= MAX_SHOWN ? text : text.substring(0, MAX_SHOWN) + "…";
    }

    /**
     * Whether a live anomaly passes the filters of a denials table: the reason exactly, the name as a substring, the
     * tunnelling score at least {@code minScore} (an anomaly without a score does not pass a score filter).
     */
    public static boolean matches(EgressAnomaly a, UUID companyId, String reason, String qnamePart, Double minScore) {
        return companyId.equals(a.companyId())
                && (reason == null || reason.equals(a.reason()))
                && (qnamePart == null || a.qname().toLowerCase(Locale.ROOT).contains(qnamePart.toLowerCase(Locale.ROOT)))
                && (minScore == null || a.score() != null && a.score() >= minScore);
    }

    /**
     * The score filter as typed: a number from 0 to 1 ({@code 0.5}); null for none, for 0 (every anomaly, scored or
     * not) and for anything else, so a hand-edited link shows the unfiltered list rather than an error.
     */
    public static Double minScore(String typed) {
        if (typed == null || typed.isBlank()) {
            return null;
        }
        try {
            double value = Double.parseDouble(typed.strip());
            return value > 0 && value <= 1 ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The score filter's options (any, at least 0.5, at least 0.8), {@code selected} marked. */
    public static List<Option> scoreOptions(Double selected) {
        List<Option> options = new java.util.ArrayList<>();
        options.add(new Option("", "Any score", selected == null));
        for (double at : MIN_SCORES) {
            options.add(new Option(Double.toString(at), "≥ " + at, selected != null && selected == at));
        }
        if (selected != null && !MIN_SCORES.contains(selected)) { // a link with another value keeps it selected
            options.add(new Option(selected.toString(), "≥ " + selected, true));
        }
        return options;
    }

    /** The reason in words, e.g. "not on the allowlist"; an unknown reason as it is. */
    public static String reasonText(String reason) {
        if (reason == null) {
            return "";
        }
        return switch (reason) {
            case EgressAnomaly.NOT_ALLOWLISTED -> "not on the allowlist";
            case EgressAnomaly.QTYPE_DENIED -> "record type not allowed";
            case EgressAnomaly.UNATTRIBUTED_SOURCE -> "unknown sandbox address";
            case EgressAnomaly.PROXY_NOT_ALLOWLISTED -> "proxy: host not on the allowlist";
            case EgressAnomaly.PROXY_ADDRESS_DENIED -> "proxy: forbidden address";
            case EgressAnomaly.PROXY_PORT_DENIED -> "proxy: port not allowed";
            case EgressAnomaly.PROXY_HOST_MISMATCH -> "proxy: TLS name or Host mismatch";
            case EgressAnomaly.PROXY_MALFORMED_REQUEST -> "proxy: malformed request";
            case EgressAnomaly.PROXY_ENCRYPTED_CLIENT_HELLO -> "proxy: encrypted ClientHello";
            case EgressAnomaly.MASKED_SECRET_OUT_OF_SCOPE -> "masked secret sent outside its hosts";
            case EgressAnomaly.MASKED_REQUEST_REFUSED -> "masked secret's host: request refused";
            case EgressAnomaly.PROXY_REQUEST_DENIED -> "proxy: request rules refused method or path";
            case EgressAnomaly.AGENT_NOT_ALLOWLISTED -> "not on the agent's own allowlist";
            case EgressAnomaly.PROXY_AGENT_NOT_ALLOWLISTED -> "proxy: not on the agent's own allowlist";
            case EgressAnomaly.SUSPECTED_TUNNELLING -> "suspected tunnelling";
            case EgressAnomaly.CANARY_BREACH -> "canary breach";
            default -> reason;
        };
    }

    /** The reason filter's options, {@code selected} marked; the first means "any reason". */
    public static List<Option> reasonOptions(String selected) {
        List<Option> options = new java.util.ArrayList<>();
        options.add(new Option("", "Any reason", selected == null));
        for (String reason : REASONS) {
            options.add(new Option(reason, reasonText(reason) + " (" + reason + ")", reason.equals(selected)));
        }
        return options;
    }

    private static String id(UUID id) {
        return id == null ? null : id.toString();
    }
}
