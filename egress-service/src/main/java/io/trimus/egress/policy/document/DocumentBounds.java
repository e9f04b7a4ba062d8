package io.trimus.egress.policy.document;

import io.trimus.egress.config.TrimusConfig;

/** How large a policy document may be: its bytes as sent, and the agents with a list of their own it holds. */
public record DocumentBounds(int maxBytes, int maxAgents) {
    /** Smallest byte bound that may be configured. */
    public static final int MIN_BYTES = 1024;
    /** Largest byte bound that may be configured: a document is read into memory whole. */
    public static final int MAX_BYTES = 16 * 1024 * 1024;

    public DocumentBounds {
        if (maxBytes < MIN_BYTES || maxBytes > MAX_BYTES) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_POLICY_DOCUMENT_MAX_BYTES must be from " + MIN_BYTES
                    + " to " + MAX_BYTES + ", not " + maxBytes);
        }
        if (maxAgents < 1) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_POLICY_DOCUMENT_MAX_AGENTS must be at least 1, not "
                    + maxAgents);
        }
    }

    /** The bounds configured for this service. */
    public static DocumentBounds of(TrimusConfig config) {
        return new DocumentBounds(config.egress().policy().document().maxBytes(),
                config.egress().policy().document().maxAgents());
    }
}
