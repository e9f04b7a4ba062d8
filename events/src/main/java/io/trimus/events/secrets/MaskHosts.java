package io.trimus.events.secrets;

import java.net.IDN;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The hosts a masked secret may be sent to ({@link io.trimus.events.MaskScope#hosts()}), checked and normalised the way egress
 * allowlist entries are: an exact host name or {@code *.} followed by a domain of at least two labels; lower case,
 * no trailing dot, IDN labels as punycode. Unlike an allowlist entry a scope names no port, and never an IP address.
 */
public final class MaskHosts {
    /** Longest entry, as typed: a DNS name's limit. */
    public static final int MAX_CHARS = 253;
    private static final String FORMS = "a host name (api.example.com) or a wildcard over a domain of at least two"
            + " labels (*.example.com)";
    private static final Pattern LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");
    private static final Pattern NUMERIC = Pattern.compile("[0-9]+|0x[0-9a-f]*");

    private MaskHosts() {
    }

    /** A host entry that is not one; the message says why, for a person, without naming the entry. */
    public static final class InvalidHost extends IllegalArgumentException {
        InvalidHost(String reason) {
            super(reason);
        }
    }

    /**
     * The normalised form of an entry.
     *
     * @throws InvalidHost when it is null, longer than {@link #MAX_CHARS}, a URL, {@code *}, names a port, is an IP
     *                     address, or is no host name or wildcard
     */
    public static String normalize(String entry) {
        if (entry == null) {
            throw new InvalidHost("must be " + FORMS + ", not null");
        }
        String trimmed = entry.strip();
        if (trimmed.length() > MAX_CHARS) {
            throw new InvalidHost("is longer than " + MAX_CHARS + " characters");
        }
        if (trimmed.contains("://")) {
            throw new InvalidHost("is a URL; list " + FORMS);
        }
        if (trimmed.equals("*") || trimmed.equals("*.")) {
            throw new InvalidHost("would send the real value to every host; list " + FORMS);
        }
        if (trimmed.indexOf('[') >= 0 || trimmed.indexOf(':') != trimmed.lastIndexOf(':')) {
            throw new InvalidHost("is an IP address; list host names only: " + FORMS);
        }
        if (trimmed.indexOf(':') >= 0) {
            throw new InvalidHost("names a port; the scope is host names only: " + FORMS);
        }
        boolean wildcard = trimmed.startsWith("*.");
        String name = name(wildcard ? trimmed.substring(2) : trimmed);
        String last = name.substring(name.lastIndexOf('.') + 1);
        if (NUMERIC.matcher(last).matches()) {
            throw new InvalidHost("is an IP address; list host names only: " + FORMS);
        }
        if (wildcard && name.indexOf('.') < 0) {
            throw new InvalidHost("would cover a whole top-level domain; list " + FORMS);
        }
        return wildcard ? "*." + name : name;
    }

    /** The normalised host name, or {@link InvalidHost}. */
    private static String name(String typed) {
        String name = typed.endsWith(".") ? typed.substring(0, typed.length() - 1) : typed;
        String ascii;
        try {
            ascii = IDN.toASCII(name, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new InvalidHost("is not " + FORMS);
        }
        if (ascii.isEmpty() || ascii.length() > MAX_CHARS) {
            throw new InvalidHost("is not " + FORMS);
        }
        for (String label : ascii.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                throw new InvalidHost("is not " + FORMS);
            }
        }
        return ascii;
    }
}
