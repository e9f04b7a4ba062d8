package io.trimus.events.secrets;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Replaces every secret value in a text with {@code [REDACTED]}, and every surrogate of a masked secret with its own
 * mark ({@code [MASKED:NAME]}, {@link #maskedMark}): whole occurrences, and also one cut in two at the edges of an
 * output tail (a suffix of it at the start, a prefix at the end), since tails are cut by size.
 */
public final class Redactor {
    /** What a secret is replaced with. */
    public static final String MARK = "[REDACTED]";
    /** Shorter values are not searched for: a 1-3 character secret would mask ordinary text and hide nothing. */
    public static final int MIN_LENGTH = 4;
    private static final Redactor NONE = new Redactor(List.of());

    /** A text to find and what replaces it. */
    private record Needle(String text, String mark) {
    }

    private final List<Needle> needles;

    private Redactor(List<Needle> needles) {
        this.needles = needles;
    }

    /** A redactor of these values (longest first, so a secret containing another is masked whole). */
    public static Redactor of(Collection<String> values) {
        Map<String, String> marks = new LinkedHashMap<>();
        values.stream().filter(Objects::nonNull).forEach(v -> marks.putIfAbsent(v, MARK));
        return NONE.with(marks);
    }

    /** A redactor that changes nothing. */
    public static Redactor none() {
        return NONE;
    }

    /** What the surrogate of the masked secret {@code name} is shown as: {@code [MASKED:NAME]}. */
    public static String maskedMark(String name) {
        return "[MASKED:" + name + "]";
    }

    /**
     * This redactor, also replacing each key of {@code marks} (a surrogate) with its value (its mark); a text that is
     * both a secret and a surrogate keeps {@link #MARK}.
     */
    public Redactor withMarks(Map<String, String> marks) {
        return with(marks);
    }

    private Redactor with(Map<String, String> marks) {
        Map<String, String> all = new LinkedHashMap<>();
        needles.forEach(n -> all.put(n.text(), n.mark()));
        marks.forEach((text, mark) -> {
            if (text != null && text.length() >= MIN_LENGTH) {
                all.putIfAbsent(text, mark);
            }
        });
        if (all.isEmpty()) {
            return NONE;
        }
        List<Needle> sorted = new ArrayList<>();
        all.forEach((text, mark) -> sorted.add(new Needle(text, mark)));
        sorted.sort(Comparator.comparingInt((Needle n) -> n.text().length()).reversed());
        return new Redactor(List.copyOf(sorted));
    }

    /** The text with every secret and surrogate masked; null stays null. */
    public String redact(String text) {
        if (text == null || needles.isEmpty()) {
            return text;
        }
        String result = text;
        for (Needle needle : needles) {
            result = result.replace(needle.text(), needle.mark());
        }
        for (Needle needle : needles) {
            result = maskCutEdges(result, needle);
        }
        return result;
    }

    private static String maskCutEdges(String text, Needle needle) {
        String secret = needle.text();
        String result = text;
        for (int k = secret.length() - 1; k >= MIN_LENGTH; k--) {
            if (result.startsWith(secret.substring(secret.length() - k))) {
                result = needle.mark() + result.substring(k);
                break;
            }
        }
        for (int k = secret.length() - 1; k >= MIN_LENGTH; k--) {
            if (result.endsWith(secret.substring(0, k))) {
                result = result.substring(0, result.length() - k) + needle.mark();
                break;
            }
        }
        return result;
    }
}
