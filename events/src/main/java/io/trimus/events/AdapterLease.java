package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * {@code io.trimus.adapter.lease.v1} on {@link Topics#ADAPTER_LEASES}: an adapter-service process (dispatcher or
 * worker) renews its lease on the runs it holds, every {@code interval_ms} and at once before it starts one. A run
 * in {@code held} and not in {@code started} waits for a slot: nothing of it exists yet, so if the process is lost the
 * run may be dispatched again. A run in {@code started} may have begun (a container, a call, a task handed to a
 * worker): the process publishes a beat listing it, and waits for the broker's acknowledgement, before it begins.
 * run-service publishes beats of role {@code observer} holding nothing: reading its own beat back tells it every beat
 * published before has been read (the topic has one partition).
 *
 * @param id         event id (also the CloudEvent id)
 * @param instance   the process, stable for its life (TRIMUS_DOCKER_INSTANCE or the worker id); also the key
 * @param role       {@link #ADAPTER} or {@link #OBSERVER}
 * @param sentAt     when it sent this beat (its own clock)
 * @param intervalMs how often it beats; a listener judges it lost after {@link #MISSED_BEATS} missed beats
 * @param held       every run it holds right now, started or waiting for a slot
 * @param started    those of {@code held} that may have begun
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
public record AdapterLease(UUID id, String instance, String role, Instant sentAt, long intervalMs, List<UUID> held,
                           List<UUID> started) {

    /** A process that holds runs. */
    public static final String ADAPTER = "adapter";
    /** run-service's own beat, holding nothing. */
    public static final String OBSERVER = "observer";
    /** Beats a process may miss before it counts as lost. */
    public static final int MISSED_BEATS = 3;

    public AdapterLease {
        held = held == null ? List.of() : List.copyOf(held);
        started = started == null ? List.of() : List.copyOf(started);
    }

    /** An adapter process's beat with a fresh id, sent now. */
    public static AdapterLease of(String instance, Duration interval, Collection<UUID> held,
                                  Collection<UUID> started) {
        return new AdapterLease(UUID.randomUUID(), instance, ADAPTER, Instant.now(), interval.toMillis(),
                List.copyOf(held), List.copyOf(started));
    }

    /** An observer's beat with a fresh id, sent now. */
    public static AdapterLease observer(String instance, Duration interval) {
        return new AdapterLease(UUID.randomUUID(), instance, OBSERVER, Instant.now(), interval.toMillis(), List.of(),
                List.of());
    }

    /** How long after its latest beat the process counts as lost. */
    @JsonIgnore
    public Duration grace() {
        return Duration.ofMillis(MISSED_BEATS * Math.max(intervalMs, 1));
    }

    @JsonIgnore
    public boolean isObserver() {
        return OBSERVER.equals(role);
    }
}
