package io.trimus.events.secrets;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Replaces every secret value in a text with {@code [REDACTED]}: whole occurrences, and also a secret cut in two at
 * the edges of an output tail (a suffix of it at the start, a prefix at the end), since tails are cut by size.
 */
public final class Redactor {
    /** What a secret is replaced with. */
    public static final String MARK = "[REDACTED]";
    /** Shorter values are not searched for: a 1-3 character secret would mask ordinary text and hide nothing. */
    public static final int MIN_LENGTH = 4;
    private static final Redactor NONE = new Redactor(List.of());

    private final List<String> secrets;

    private Redactor(List<String> secrets) {
        this.secrets = secrets;
    }

    /** A redactor of these values (longest first, so a secret containing another is masked whole). */
    public static Redactor of(Collection<String> values) {
        List<String> secrets = values.stream().filter(Objects::nonNull).filter(v -> v.length() >= MIN_LENGTH)
                .distinct().sorted(Comparator.comparingInt(String::length).reversed()).toList();
        return secrets.isEmpty() ? NONE : new Redactor(secrets);
    }

    /** A redactor that changes nothing. */
    public static Redactor none() {
        return NONE;
    }

    /** The text with every secret masked; null stays null. */
    public String redact(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String result = text;
        for (String secret : secrets) {
            result = result.replace(secret, MARK);
        }
        for (String secret : secrets) {
            result = maskCutEdges(result, secret);
        }
        return result;
    }

    private static String maskCutEdges(String text, String secret) {
        String result = text;
        for (int k = secret.length() - 1; k >= MIN_LENGTH; k--) {
            if (result.startsWith(secret.substring(secret.length() - k))) {
                result = MARK + result.substring(k);
                break;
            }
        }
        for (int k = secret.length() - 1; k >= MIN_LENGTH; k--) {
            if (result.endsWith(secret.substring(0, k))) {
                result = result.substring(0, result.length() - k) + MARK;
                break;
            }
        }
        return result;
    }
}
