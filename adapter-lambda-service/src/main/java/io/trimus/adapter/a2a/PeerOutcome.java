package io.trimus.adapter.a2a;

import io.a2a.spec.Message;
import io.a2a.spec.Part;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TextPart;
import io.trimus.events.RunState;

import java.util.List;
import java.util.stream.Collectors;

/**
 * How a delegated run ends, and the one place the peer's task states are mapped to it (the caller's side of the wire
 * contract): completed → SUCCEEDED with the artifacts' text, failed / rejected → FAILED with the peer's reason,
 * canceled → CANCELLED, input-required / auth-required → FAILED saying what the peer asked for. The peer's status
 * message is quoted up to {@link #QUOTED} characters.
 *
 * @param state  the run's final state
 * @param output the output (SUCCEEDED), or null
 * @param error  the reason, or null
 */
record PeerOutcome(RunState state, String output, String error) {
    /** How much of the peer's status message a sentence quotes. */
    static final int QUOTED = 2000;

    static PeerOutcome of(RunState state, String error) {
        return new PeerOutcome(state, null, error);
    }

    /**
     * The outcome of a task in a final or interrupting state, or null when it is still going (or unknown).
     *
     * @param taskId the task's id as the run named it (checked against its bound)
     */
    static PeerOutcome ofTask(String taskId, TaskStatus status, HeldArtifacts artifacts) {
        TaskState state = status == null ? null : status.state();
        if (state == null) {
            return null;
        }
        return switch (state) {
            case COMPLETED -> new PeerOutcome(RunState.SUCCEEDED, artifacts.text(), null);
            case FAILED, REJECTED -> of(RunState.FAILED, "the A2A peer's task " + taskId + " " + state.asString()
                    + ": " + reason(status, "no reason given"));
            case CANCELED -> of(RunState.CANCELLED, "the A2A peer's task " + taskId + " was canceled by the peer");
            case INPUT_REQUIRED -> of(RunState.FAILED, "the A2A peer's task " + taskId + " asked for more input,"
                    + " which a Trimus run cannot give: " + quoted(status));
            case AUTH_REQUIRED -> of(RunState.FAILED, "the A2A peer's task " + taskId + " asked for authentication,"
                    + " which a Trimus run cannot give: " + quoted(status));
            case SUBMITTED, WORKING, UNKNOWN -> null;
        };
    }

    /** A peer that answered with a message instead of a task: its text is the output. */
    static PeerOutcome ofMessage(Message message) {
        return new PeerOutcome(RunState.SUCCEEDED, text(message.getParts()), null);
    }

    static String text(List<Part<?>> parts) {
        return parts == null ? "" : parts.stream().filter(TextPart.class::isInstance)
                .map(p -> ((TextPart) p).getText()).collect(Collectors.joining("\n"));
    }

    private static String reason(TaskStatus status, String none) {
        String text = status.message() == null ? "" : text(status.message().getParts());
        return text.isBlank() ? none : bounded(text);
    }

    private static String quoted(TaskStatus status) {
        String text = reason(status, "");
        return text.isEmpty() ? "it gave no question" : "\"" + text + "\"";
    }

    private static String bounded(String text) {
        return text.length() <= QUOTED ? text : text.substring(0, QUOTED) + "…";
    }
}
