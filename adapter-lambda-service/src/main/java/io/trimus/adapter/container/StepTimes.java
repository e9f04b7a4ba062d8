package io.trimus.adapter.container;

/**
 * How long each step of one run took before its container started, for the log line that says where a slow start's
 * time went (DEBUG on {@code io.trimus.adapter.container}). Not thread-safe: one run's own thread marks it.
 */
final class StepTimes {

    private final StringBuilder line = new StringBuilder();
    private final long began = System.nanoTime();
    private long last = began;
    private String current;

    /** Ends the step under way, if any, and begins {@code next}. */
    void begin(String next) {
        long now = System.nanoTime();
        if (current != null) {
            line.append(current).append(' ').append((now - last) / 1_000_000).append(" ms, ");
        }
        current = next;
        last = now;
    }

    /** The steps so far and the total since this run's thread took it, e.g. "lease 12 ms, create 48 ms; 60 ms". */
    String summary() {
        begin(null);
        return line.append("in all ").append((last - began) / 1_000_000).append(" ms").toString();
    }
}
