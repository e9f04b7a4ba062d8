package io.trimus.egress.tunnelling;

import java.util.ArrayList;
import java.util.List;

/**
 * A sign of tunnelling in the names a sandbox used under one base domain; an anomaly lists those that are up
 * ({@code signals}). Each is one bit of a mask, so a score's signals cost no allocation until they are written out.
 */
public enum Signal {
    /** The names carry many bits under the base domain: long labels (over 20 characters on average, or one of 40+). */
    LONG_NAMES("long_names"),
    /** Their characters are spread like encoded data: 3.5 bits per character and more on average. */
    HIGH_ENTROPY("high_entropy"),
    /** Nearly every name is new: 20 distinct names and more, 80 % of those asked. */
    UNIQUE_NAMES("unique_names"),
    /** New names keep coming: 30 distinct names a minute and more. */
    RATE("rate"),
    /** Half the names and more were denied or did not exist (with 10 names and more). */
    NXDOMAIN("nxdomain"),
    /** A third of the lookups and more asked for record types other than A and AAAA (TXT, NULL, CNAME…). */
    RECORD_TYPES("record_types");

    private final String label;

    Signal(String label) {
        this.label = label;
    }

    /** The name an anomaly gives it. */
    public String label() {
        return label;
    }

    /** The bit of this signal in a mask. */
    int bit() {
        return 1 << ordinal();
    }

    /** The labels of the signals in {@code mask}, in declaration order. */
    public static List<String> labels(int mask) {
        List<String> labels = new ArrayList<>(Integer.bitCount(mask));
        for (Signal signal : values()) {
            if ((mask & signal.bit()) != 0) {
                labels.add(signal.label);
            }
        }
        return labels;
    }
}
