package io.trimus.admin.rest.run;

import java.util.Locale;

/** Byte counts as people read them: {@code 41 KB}, {@code 1.2 MB} (binary units: 1 KB = 1024 bytes). */
final class ByteSizes {
    private static final String[] UNITS = {"KB", "MB", "GB", "TB", "PB", "EB"};

    private ByteSizes() {
    }

    /** {@code bytes} in the largest unit that keeps the number at least 1; one decimal below 10. */
    static String human(long bytes) {
        if (bytes < 1024) {
            return Math.max(bytes, 0) + " B";
        }
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        // 1023.96 KB would print as "1024 KB": step up instead
        if (Math.round(value) >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        String number = value < 9.95 ? String.format(Locale.ROOT, "%.1f", value).replace(".0", "")
                : String.valueOf(Math.round(value));
        return number + " " + UNITS[unit];
    }
}
