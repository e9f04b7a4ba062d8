package io.trimus.run.service.a2a;

import io.a2a.spec.Artifact;
import io.a2a.spec.Message;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.trimus.events.RunState;
import io.trimus.run.repository.run.Run;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * A run as an A2A task, the wire contract of issue 19 decided once: QUEUED and DISPATCHED are submitted, RUNNING is
 * working, SUCCEEDED is completed with one artifact holding the output, FAILED / TIMED_OUT / REJECTED are failed with
 * the run's error as the status message, CANCELLED is canceled.
 */
public final class TaskMapping {
    /** The name of the one artifact a completed task carries. */
    public static final String OUTPUT_ARTIFACT = "output";

    private TaskMapping() {
    }

    /** The task state a run state shows as. */
    public static TaskState state(RunState state) {
        return switch (state) {
            case QUEUED, DISPATCHED -> TaskState.SUBMITTED;
            case RUNNING -> TaskState.WORKING;
            case SUCCEEDED -> TaskState.COMPLETED;
            case FAILED, TIMED_OUT, REJECTED -> TaskState.FAILED;
            case CANCELLED -> TaskState.CANCELED;
        };
    }

    /** The run as a task: its status, its history, and its output artifact once completed. */
    public static Task task(Run run) {
        return task(run, 0);
    }

    /**
     * The run as a task with at most the {@code historyLength} latest messages of its history (all when it is 0, the
     * SDK's value for a request that names none): a
     * task started over A2A has one, the message that started it, as Trimus kept it (its text is the run's input);
     * a task that is not (a run started through the REST API) has none. A Trimus task takes no further messages.
     */
    public static Task task(Run run, int historyLength) {
        List<Message> history = run.a2aMessageId == null ? List.of() : List.of(firstMessage(run));
        if (historyLength > 0 && historyLength < history.size()) {
            history = history.subList(history.size() - historyLength, history.size());
        }
        return new Task.Builder().id(run.id.toString()).contextId(contextId(run)).status(status(run))
                .history(history)
                .artifacts(run.status == RunState.SUCCEEDED ? List.of(output(run)) : List.of()).build();
    }

    private static Message firstMessage(Run run) {
        return new Message.Builder().role(Message.Role.USER).messageId(run.a2aMessageId).taskId(run.id.toString())
                .contextId(contextId(run)).parts(new TextPart(run.input == null ? "" : run.input)).build();
    }

    /** The run's status as a status-update event; final when the run has ended. */
    public static TaskStatusUpdateEvent statusEvent(Run run) {
        return new TaskStatusUpdateEvent(run.id.toString(), status(run), contextId(run), run.status.isTerminal(),
                null);
    }

    /** The output artifact of a completed run as an artifact-update event (the whole artifact, last chunk). */
    public static TaskArtifactUpdateEvent outputEvent(Run run) {
        return new TaskArtifactUpdateEvent(run.id.toString(), output(run), contextId(run), false, true, null);
    }

    /** The task's context: the one its first message named or was given; the run id for runs not started over A2A. */
    public static String contextId(Run run) {
        return run.a2aContextId != null ? run.a2aContextId : run.id.toString();
    }

    private static TaskStatus status(Run run) {
        return new TaskStatus(state(run.status), reason(run), since(run).atOffset(ZoneOffset.UTC));
    }

    private static Message reason(Run run) {
        String prefix = switch (run.status) {
            case FAILED -> "";
            case TIMED_OUT -> "timed out: ";
            case REJECTED -> "rejected: ";
            default -> null;
        };
        if (prefix == null) {
            return null;
        }
        String error = run.error == null ? "" : run.error;
        return new Message.Builder().role(Message.Role.AGENT).messageId(UUID.nameUUIDFromBytes(
                        ("status " + run.id).getBytes(StandardCharsets.UTF_8)).toString())
                .taskId(run.id.toString()).contextId(contextId(run))
                .parts(new TextPart(prefix + error)).build();
    }

    private static Artifact output(Run run) {
        return new Artifact.Builder().artifactId(run.id.toString()).name(OUTPUT_ARTIFACT)
                .parts(new TextPart(run.output == null ? "" : run.output)).build();
    }

    /** When the run reached the state it shows: stable, so the same run reads the same every time. */
    private static Instant since(Run run) {
        Instant at = switch (run.status) {
            case QUEUED -> run.queuedAt;
            case DISPATCHED -> run.dispatchedAt;
            case RUNNING -> run.startedAt;
            default -> run.finishedAt;
        };
        return at != null ? at : run.queuedAt != null ? run.queuedAt : Instant.EPOCH;
    }
}
