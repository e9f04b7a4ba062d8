package io.trimus.egress.ca;

import io.trimus.egress.config.TrimusConfig;

import java.time.Duration;

/** How long the leaf certificates of a CA are valid and how many are kept, one per host name. */
public record LeafPolicy(Duration validity, int cacheSize) {
    private static final Duration RENEWAL_MARGIN = Duration.ofDays(1);

    public LeafPolicy {
        if (validity.isNegative() || validity.isZero()) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_CA_LEAF_VALIDITY must be positive, e.g. 7d");
        }
        if (cacheSize < 1) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_CA_LEAF_CACHE_SIZE must be at least 1");
        }
    }

    /** The policy configured for this service. */
    public static LeafPolicy of(TrimusConfig config) {
        return new LeafPolicy(config.egress().ca().leafValidity(), config.egress().ca().leafCacheSize());
    }

    /** A cached leaf with less validity left than this is issued anew: a day, or half the validity when shorter. */
    Duration renewalMargin() {
        Duration half = validity.dividedBy(2);
        return half.compareTo(RENEWAL_MARGIN) < 0 ? half : RENEWAL_MARGIN;
    }
}
