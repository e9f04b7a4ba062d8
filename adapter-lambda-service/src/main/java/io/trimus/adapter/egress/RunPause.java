package io.trimus.adapter.egress;

/** Sleeps a run's worker between two attempts, unless the run is cancelled before or meanwhile. */
@FunctionalInterface
public interface RunPause {
    /** A pause nothing cancels. */
    RunPause UNCANCELLABLE = millis -> {
        Thread.sleep(millis);
        return true;
    };

    /**
     * Sleeps up to {@code millis}.
     *
     * @return false as soon as the run is cancelled: it must not start
     */
    boolean sleep(long millis) throws InterruptedException;
}
