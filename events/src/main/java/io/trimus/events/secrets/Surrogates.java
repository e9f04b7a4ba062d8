package io.trimus.events.secrets;

import java.security.SecureRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the stand-in a sandbox holds for a masked secret: random, but shaped like the real value, so a CLI that checks
 * a key's format accepts it. The value's leading prefix ({@code sk-ant-api03-}, {@code ghp_}, {@code github_pat_},
 * {@code xoxb-} …: up to {@value #MAX_SEGMENTS} runs of lower-case letters and digits each ended by {@code -} or
 * {@code _}) is kept, as long as at least {@value #MIN_RANDOM} letters and digits remain after it; every other letter
 * or digit is replaced by a random one of its class (a-z, A-Z, 0-9), every other character kept, so the surrogate
 * has the value's length and alphabet.
 */
public final class Surrogates {
    /** Most prefix segments kept. */
    public static final int MAX_SEGMENTS = 3;
    /** Fewest letters and digits left to randomise after the prefix (fewer when the value itself has fewer). */
    public static final int MIN_RANDOM = 12;
    private static final Pattern SEGMENT = Pattern.compile("[a-z0-9]{1,12}[-_]");
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String DIGITS = "0123456789";

    private Surrogates() {
    }

    /**
     * A fresh surrogate of {@code value}, never equal to it.
     *
     * @throws IllegalArgumentException when the value has no letter or digit to replace (the message never quotes it)
     */
    public static String of(String value, SecureRandom random) {
        int prefix = prefixLength(value);
        if (randomisable(value, 0) == 0) {
            throw new IllegalArgumentException("a masked secret must contain letters or digits to replace");
        }
        while (true) {
            StringBuilder out = new StringBuilder(value.length());
            out.append(value, 0, prefix);
            for (int i = prefix; i < value.length(); i++) {
                out.append(replace(value.charAt(i), random));
            }
            String surrogate = out.toString();
            if (!surrogate.equals(value)) {
                return surrogate;
            }
        }
    }

    /** How many leading characters of {@code value} are kept as they are. */
    static int prefixLength(String value) {
        int kept = 0;
        Matcher segment = SEGMENT.matcher(value);
        for (int n = 0; n < MAX_SEGMENTS; n++) {
            segment.region(kept, value.length());
            if (!segment.lookingAt() || randomisable(value, segment.end()) < MIN_RANDOM) {
                break;
            }
            kept = segment.end();
        }
        return kept;
    }

    private static int randomisable(String value, int from) {
        int count = 0;
        for (int i = from; i < value.length(); i++) {
            if (classOf(value.charAt(i)) != null) {
                count++;
            }
        }
        return count;
    }

    private static char replace(char c, SecureRandom random) {
        String alphabet = classOf(c);
        return alphabet == null ? c : alphabet.charAt(random.nextInt(alphabet.length()));
    }

    private static String classOf(char c) {
        if (c >= 'a' && c <= 'z') {
            return LOWER;
        }
        if (c >= 'A' && c <= 'Z') {
            return UPPER;
        }
        if (c >= '0' && c <= '9') {
            return DIGITS;
        }
        return null;
    }
}
