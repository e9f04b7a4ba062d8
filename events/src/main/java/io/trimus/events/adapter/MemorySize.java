package io.trimus.events.adapter;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Docker's memory notation ({@code 512m}, {@code 2g}, {@code 1048576b}) turned into bytes. */
public final class MemorySize {
    /** Docker refuses a memory limit below 6 MiB. */
    public static final long MINIMUM_BYTES = 6L * 1024 * 1024;
    private static final long MAXIMUM_BYTES = 1L << 50;
    private static final Pattern FORMAT = Pattern.compile("([0-9]{1,16})([bkmg]?)");

    private MemorySize() {
    }

    /**
     * Parses {@code text} as a byte count with an optional b/k/m/g suffix (case-insensitive).
     *
     * @throws IllegalArgumentException when the text is not such a size or lies outside 6 MiB … 1 PiB
     */
    public static long parseBytes(String text) {
        Matcher m = FORMAT.matcher(text == null ? "" : text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("must be a size like 512m or 2g (units b, k, m, g)");
        }
        long number = Long.parseLong(m.group(1));
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        if (number > (MAXIMUM_BYTES >> shift)) {
            throw new IllegalArgumentException("is larger than any host has");
        }
        long bytes = number << shift;
        if (bytes < MINIMUM_BYTES) {
            throw new IllegalArgumentException("must be at least 6m (Docker's minimum)");
        }
        return bytes;
    }
}
