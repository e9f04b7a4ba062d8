package io.trimus.egress.allowlist;

import com.google.common.net.InternetDomainName;

import java.net.IDN;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one normalisation of host names that allowlist entries and DNS queries share: lower case, no trailing dot,
 * IDN labels as punycode (ASCII). Entries may be exact names or {@code *.suffix} wildcards.
 */
public final class DomainNames {
    private static final Pattern LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");

    private DomainNames() {
    }

    /** The normalised form of a query name, or empty when it is not a valid host name. */
    public static Optional<String> normalize(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String plain = plainHostName(name);
        if (plain != null) {
            return Optional.of(plain);
        }
        return normalizeSlowly(name);
    }

    /**
     * The normalised form of a plain ASCII host name, or null when {@code name} is anything else: labels of 1 to 63
     * letters, digits, {@code _} and {@code -} (not first or last), at most 253 characters without the optional
     * trailing dot. For such a name it is exactly what {@link #normalize} returns (IDN leaves ASCII labels alone), in
     * one pass without IDN, regular expressions or splitting: the resolver's path for nearly every query.
     */
    public static String plainHostName(String name) {
        int end = name.length();
        if (end > 0 && name.charAt(end - 1) == '.') {
            end--;
        }
        if (end == 0 || end > 253) {
            return null;
        }
        boolean upper = false;
        int labelStart = 0;
        for (int i = 0; i <= end; i++) {
            char c = i == end ? '.' : name.charAt(i);
            if (c == '.') {
                int length = i - labelStart;
                if (length == 0 || length > 63 || name.charAt(labelStart) == '-' || name.charAt(i - 1) == '-') {
                    return null;
                }
                labelStart = i + 1;
            } else if (c >= 'A' && c <= 'Z') {
                upper = true;
            } else if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return null;
            }
        }
        String plain = end == name.length() ? name : name.substring(0, end);
        return upper ? plain.toLowerCase(Locale.ROOT) : plain;
    }

    /** {@link #normalize} without the fast path for plain ASCII names (package-private for the equivalence test). */
    static Optional<String> normalizeSlowly(String name) {
        String trimmed = name.strip();
        if (trimmed.endsWith(".")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        if (trimmed.isEmpty() || trimmed.length() > 253) {
            return Optional.empty();
        }
        String ascii;
        try {
            ascii = IDN.toASCII(trimmed, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        if (ascii.length() > 253) {
            return Optional.empty();
        }
        for (String label : ascii.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return Optional.empty();
            }
        }
        return Optional.of(ascii);
    }

    /**
     * The normalised form of an allowlist entry: a name, or {@code *.} followed by a name with at least two labels
     * (so {@code *.com} cannot open a whole top-level domain); empty when invalid.
     */
    public static Optional<String> normalizeEntry(String entry) {
        if (entry == null) {
            return Optional.empty();
        }
        String trimmed = entry.strip();
        if (trimmed.startsWith("*.")) {
            return normalize(trimmed.substring(2))
                    .filter(suffix -> suffix.contains("."))
                    .map(suffix -> "*." + suffix);
        }
        return normalize(trimmed);
    }

    /**
     * The public suffix a normalised wildcard entry would open, if it would: {@code *.co.uk} → {@code co.uk},
     * {@code *.github.io} → {@code github.io}; empty for {@code *.example.co.uk} and for exact names. The suffix is
     * checked against the Public Suffix List as Guava ships it, both its ICANN section (registry suffixes such as
     * {@code co.uk}) and its private one (hosting platforms such as {@code github.io}, where every sub-name belongs
     * to someone else); IDN suffixes match in their punycode form.
     */
    public static Optional<String> publicSuffixOpenedBy(String entry) {
        if (!entry.startsWith("*.")) {
            return Optional.empty();
        }
        String suffix = entry.substring(2);
        try {
            return InternetDomainName.from(suffix).isPublicSuffix() ? Optional.of(suffix) : Optional.empty();
        } catch (IllegalArgumentException e) {
            // a name Guava does not parse (e.g. a numeric last label) is no entry of the list
            return Optional.empty();
        }
    }

    /**
     * Whether a normalised name matches a normalised entry's host pattern, whatever port the entry names;
     * {@code *.example.com} matches sub-names only.
     */
    public static boolean matches(String entry, String name) {
        return RuledEntry.isStoredObject(entry) ? RuledEntry.ofStored(entry).matchesName(name)
                : AllowlistRule.ofNormalised(entry).matches(name);
    }
}
