package io.trimus.admin.client;

/**
 * One part of a page fetched from a backend: either its value or the sentence that says why it is missing, so
 * the rest of the page still shows when one backend is down.
 */
public record Fetched<T>(T value, String error) {

    public static <T> Fetched<T> of(T value) {
        return new Fetched<>(value, null);
    }

    public static <T> Fetched<T> failed(String sentence) {
        return new Fetched<>(null, sentence);
    }

    /** Whether the part is missing; {@link #error()} says why. */
    public boolean failed() {
        return error != null;
    }
}
