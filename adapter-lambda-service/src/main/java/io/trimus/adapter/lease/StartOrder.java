package io.trimus.adapter.lease;

import java.util.UUID;
import java.util.concurrent.CompletionStage;

/** The one order of every process's beats, which settles who started a run first ({@link LeaseLog}). */
public interface StartOrder {

    /** Completes once the beat with this id has been read, and with it every beat before it. */
    CompletionStage<Void> readBack(UUID beatId);

    /** The process whose beat listed the run as started first, among the beats read so far; null if none did. */
    String firstStarterOf(UUID runId);
}
