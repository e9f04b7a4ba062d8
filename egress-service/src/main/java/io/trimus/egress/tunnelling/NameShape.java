package io.trimus.egress.tunnelling;

/**
 * What one name's labels under its base domain look like: how many characters they hold (dots not counted), the
 * longest label, and the character entropy in bits per character (Shannon, over the characters' frequencies in
 * those labels). Measured into a reusable instance, so a name costs no allocation; not thread-safe (one per thread).
 */
final class NameShape {
    /** Characters a normalised name holds: letters, digits, '-', '_' and '.'; anything else is counted as one more. */
    private static final int SYMBOLS = 40;
    private static final int MAX_LENGTH = 256;
    /** {@code c * log2(c)} for the counts a name can reach. */
    private static final double[] C_LOG_C = new double[MAX_LENGTH + 1];
    private static final double[] LOG2 = new double[MAX_LENGTH + 1];

    static {
        for (int c = 1; c <= MAX_LENGTH; c++) {
            LOG2[c] = Math.log(c) / Math.log(2);
            C_LOG_C[c] = c * LOG2[c];
        }
    }

    private final int[] counts = new int[SYMBOLS];
    private int characters;
    private int longestLabel;
    private double entropy;

    /** Measures the labels of {@code name} before {@code baseStart} (the base domain's first character). */
    NameShape measure(CharSequence name, int baseStart) {
        int end = Math.min(Math.max(0, baseStart - 1), MAX_LENGTH);
        java.util.Arrays.fill(counts, 0);
        characters = 0;
        longestLabel = 0;
        int label = 0;
        for (int i = 0; i < end; i++) {
            char c = name.charAt(i);
            if (c == '.') {
                longestLabel = Math.max(longestLabel, label);
                label = 0;
                continue;
            }
            label++;
            characters++;
            counts[symbol(c)]++;
        }
        longestLabel = Math.max(longestLabel, label);
        double sum = 0;
        for (int count : counts) {
            sum += C_LOG_C[count];
        }
        entropy = characters == 0 ? 0 : LOG2[characters] - sum / characters;
        return this;
    }

    /** Characters of the labels under the base domain, dots not counted. */
    int characters() {
        return characters;
    }

    /** The longest of those labels. */
    int longestLabel() {
        return longestLabel;
    }

    /** Bits per character of those labels (0 for none or one repeated character). */
    double entropy() {
        return entropy;
    }

    /** What the labels can carry at most, in bits: characters × entropy. */
    double bits() {
        return characters * entropy;
    }

    private static int symbol(char c) {
        if (c >= 'a' && c <= 'z') {
            return c - 'a';
        }
        if (c >= '0' && c <= '9') {
            return 26 + c - '0';
        }
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        return c == '-' ? 36 : c == '_' ? 37 : 38;
    }
}
