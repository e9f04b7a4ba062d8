package io.trimus.egress.anomaly;

import io.trimus.egress.sandbox.Sandbox;

import java.util.List;

/**
 * Where an anomaly event's tunnelling score comes from: the sandbox's score for the base domain of the event's name
 * when the event is made ({@link io.trimus.egress.tunnelling.TunnellingWatch}). Called when an event is made, never
 * per folded repeat; must not call back into the recorder.
 */
@FunctionalInterface
public interface AnomalyScores {
    /** No scores: events carry none. */
    AnomalyScores NONE = (sandbox, qname) -> null;

    /**
     * A score and the labels of the signals that are up.
     *
     * @param score   0 to 1
     * @param signals labels, in a fixed order
     */
    record Scored(double score, List<String> signals) {
        /** No names of the sandbox under the base domain yet. */
        public static final Scored NONE = new Scored(0, List.of());
    }

    /** The score for {@code sandbox} and the base domain of {@code qname}; null for no sandbox (an unattributed source). */
    Scored of(Sandbox sandbox, String qname);
}
