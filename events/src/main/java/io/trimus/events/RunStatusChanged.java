package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * {@code io.trimus.run.status.v1} on {@link Topics#RUN_STATUS}: the adapter service reports that a run
 * reached {@code status}. Terminal events carry the exit code, the capped output tail and the reason; {@code notes}
 * are policy decisions worth showing on the run (e.g. a dangerous flag the guardrail dropped). {@code reportedBy} names
 * the adapter-service process that sent it (its {@link AdapterLease} instance): the one that holds the run now.
 * {@code peerTaskId} is the id an A2A peer gave the task a remote run delegated to it, once known. For an agent CLI
 * whose output the adapter reads ({@link RunUsage}), {@code output} is the CLI's answer, {@code rawOutput} the capped
 * tail of what it printed and {@code usage} what it said the run used; both are null for every other run.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunStatusChanged(UUID id, UUID runId, UUID companyId, UUID agentId, RunState status,
                               Integer exitCode, String output, String error, Instant occurredAt,
                               List<String> notes, String reportedBy, String peerTaskId, String rawOutput,
                               RunUsage usage) {

    /** The longest peer task id stored; a longer one is the peer's problem and is cut. */
    public static final int MAX_PEER_TASK_ID = 256;

    public RunStatusChanged {
        notes = notes == null || notes.isEmpty() ? null : List.copyOf(notes);
        peerTaskId = peerTaskId == null || peerTaskId.length() <= MAX_PEER_TASK_ID
                ? peerTaskId : peerTaskId.substring(0, MAX_PEER_TASK_ID);
        usage = usage == null || usage.isEmpty() ? null : usage;
    }

    /** An event without a CLI's parsed result. */
    public RunStatusChanged(UUID id, UUID runId, UUID companyId, UUID agentId, RunState status, Integer exitCode,
                            String output, String error, Instant occurredAt, List<String> notes, String reportedBy,
                            String peerTaskId) {
        this(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, notes, reportedBy, peerTaskId,
                null, null);
    }

    /** An event without a peer task. */
    public RunStatusChanged(UUID id, UUID runId, UUID companyId, UUID agentId, RunState status, Integer exitCode,
                            String output, String error, Instant occurredAt, List<String> notes, String reportedBy) {
        this(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, notes, reportedBy, null);
    }

    /** An event not attributed to a process. */
    public RunStatusChanged(UUID id, UUID runId, UUID companyId, UUID agentId, RunState status, Integer exitCode,
                            String output, String error, Instant occurredAt, List<String> notes) {
        this(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, notes, null);
    }

    /** An event without notes. */
    public RunStatusChanged(UUID id, UUID runId, UUID companyId, UUID agentId, RunState status, Integer exitCode,
                            String output, String error, Instant occurredAt) {
        this(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, null);
    }

    /** A new event with a fresh id and the current time. */
    public static RunStatusChanged of(UUID runId, UUID companyId, UUID agentId, RunState status,
                                      Integer exitCode, String output, String error) {
        return new RunStatusChanged(UUID.randomUUID(), runId, companyId, agentId, status, exitCode, output, error,
                Instant.now());
    }

    /** A progress event (DISPATCHED, RUNNING) without outcome fields. */
    public static RunStatusChanged progress(UUID runId, UUID companyId, UUID agentId, RunState status) {
        return of(runId, companyId, agentId, status, null, null, null);
    }

    /** This event with notes added. */
    public RunStatusChanged withNotes(List<String> added) {
        return new RunStatusChanged(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, added,
                reportedBy, peerTaskId, rawOutput, usage);
    }

    /** This event attributed to the process {@code instance}. */
    public RunStatusChanged reportedBy(String instance) {
        return new RunStatusChanged(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, notes,
                instance, peerTaskId, rawOutput, usage);
    }

    /** This event naming the A2A peer's task the run was delegated to. */
    public RunStatusChanged withPeerTask(String taskId) {
        return new RunStatusChanged(id, runId, companyId, agentId, status, exitCode, output, error, occurredAt, notes,
                reportedBy, taskId, rawOutput, usage);
    }

    /**
     * This event with a CLI's output read: {@code answer} becomes the output, what the CLI printed stays as
     * {@code rawOutput}, and {@code used} what the CLI reported (null or empty: nothing).
     */
    public RunStatusChanged withCliResult(String answer, String raw, RunUsage used) {
        return new RunStatusChanged(id, runId, companyId, agentId, status, exitCode, answer, error, occurredAt, notes,
                reportedBy, peerTaskId, raw, used);
    }
}
