package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code io.trimus.worker.heartbeat.v1} on {@link Topics#WORKER_HEARTBEATS}: a worker (the adapter service started
 * with TRIMUS_WORKER_TAGS) says it is alive, which tags it serves and which remote runs it holds. Sent every
 * {@code heartbeat_interval_ms} and at once when it claims a run, keyed by worker id. The dispatcher learns from it
 * that a task was claimed and notices a worker that stopped beating; run-service lists workers from it.
 *
 * @param id                  event id (also the CloudEvent id)
 * @param workerId            the worker, stable for the life of its process
 * @param tags                the tags it claims tasks of
 * @param lastSeen            when it sent this beat (its own clock)
 * @param heartbeatIntervalMs how often it beats; a listener judges it lost after {@link #MISSED_BEATS} missed beats
 * @param running             how many remote runs it holds right now
 * @param runIds              those runs
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
public record WorkerHeartbeat(UUID id, String workerId, List<String> tags, Instant lastSeen, long heartbeatIntervalMs,
                              int running, List<UUID> runIds) {

    /**
     * Beats a worker may miss before it counts as gone. Listeners judge by when a beat reached them, never by the
     * worker's clock, so clocks of different hosts need not agree.
     */
    public static final int MISSED_BEATS = 3;

    public WorkerHeartbeat {
        tags = tags == null ? List.of() : List.copyOf(tags);
        runIds = runIds == null ? List.of() : List.copyOf(runIds);
    }

    /** A beat with a fresh id, sent now. */
    public static WorkerHeartbeat now(String workerId, List<String> tags, Duration interval, List<UUID> runIds) {
        return new WorkerHeartbeat(UUID.randomUUID(), workerId, tags, Instant.now(), interval.toMillis(),
                runIds.size(), runIds);
    }

    /** Whether a worker whose latest beat arrived at {@code receivedAt} still counts as live at {@code now}. */
    public boolean liveAt(Instant receivedAt, Instant now) {
        return receivedAt.plusMillis(MISSED_BEATS * Math.max(heartbeatIntervalMs, 1)).isAfter(now);
    }
}
