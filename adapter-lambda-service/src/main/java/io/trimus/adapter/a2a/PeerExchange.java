package io.trimus.adapter.a2a;

import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.A2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.spi.interceptors.ClientCallContext;
import io.a2a.spec.A2AClientError;
import io.a2a.spec.AgentCard;
import io.a2a.spec.EventKind;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.Message;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One run's exchange with its peer, on the run's own thread: reads the agent card (at {@code <url>/.well-known/…},
 * then the host's), sends the run's message, and follows the task to a final state, streaming when the card says the
 * peer streams and polling tasks/get otherwise; a stream that breaks before a final state is followed by polling.
 * Every JSON-RPC call goes to the configured url with the auth header; the card is read without it. What the peer
 * sends is held within bounds: its task id (at most {@link #MAX_TASK_ID} printable characters, or the run fails and the
 * id goes nowhere) and its artifacts' text ({@link HeldArtifacts}).
 */
final class PeerExchange {
    private static final String CARD = ".well-known/agent-card.json";
    private static final Object END = new Object();
    /** The longest peer task id a run follows: the longest one stored with the run. */
    static final int MAX_TASK_ID = RunStatusChanged.MAX_PEER_TASK_ID;

    /** What the exchange tells the run while it goes. */
    interface Progress {
        /** The peer named its task: the run is RUNNING. */
        void running(String taskId);

        /** Something worth showing on the run. */
        void note(String note);
    }

    private final RunRequested run;
    private final PeerSession session;
    private final A2AHttpClient http;
    private final ClientCallContext context;
    private final Duration pollInterval;
    private final Progress progress;
    private final int maxOutputBytes;
    private final HeldArtifacts artifacts;
    private JSONRPCTransport transport;
    private volatile String taskId;

    /** @param maxOutputBytes the text of the task's artifacts held at most (TRIMUS_RUN_OUTPUT_MAX_BYTES) */
    PeerExchange(RunRequested run, PeerSession session, A2AHttpClient http, Map<String, String> authHeaders,
                 Duration pollInterval, int maxOutputBytes, Progress progress) {
        this.run = run;
        this.session = session;
        this.http = http;
        this.context = new ClientCallContext(Map.of(), authHeaders);
        this.pollInterval = pollInterval;
        this.progress = progress;
        this.maxOutputBytes = maxOutputBytes;
        this.artifacts = new HeldArtifacts(maxOutputBytes);
    }

    /** The peer's task id once it named one, else null. */
    String taskId() {
        return taskId;
    }

    /** Follows the run to its outcome. */
    PeerOutcome run() throws InterruptedException, PeerFailed {
        AgentCard card = card();
        transport = new JSONRPCTransport(http, card, session.peer().url().toString(), null);
        boolean streams = card.capabilities() != null && card.capabilities().streaming();
        return streams ? stream() : poll();
    }

    /** Asks the peer to cancel its task, if it named one; best effort, within whatever budget the session has. */
    void cancelTask() {
        if (taskId != null && transport != null) {
            try {
                transport.cancelTask(new TaskIdParams(taskId), context);
            } catch (RuntimeException e) {
                // best effort: the run ends as it ends whatever the peer says
            }
        }
    }

    private AgentCard card() throws InterruptedException, PeerFailed {
        String url = session.peer().url().toString();
        try {
            session.status(0);
            return new A2ACardResolver(http, url.endsWith("/") ? url : url + "/", CARD, null).getAgentCard();
        } catch (A2AClientError e) {
            interrupted(e);
            guarded();
            if (session.lastStatus() != 404) {
                throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "could not read the A2A peer's agent card at "
                        + url + "/" + CARD + ": " + GuardedHttpClient.bounded(GuardedHttpClient.describe(e))));
            }
        }
        try {
            return new A2ACardResolver(http, url, "/" + CARD, null).getAgentCard();
        } catch (A2AClientError e) {
            interrupted(e);
            guarded();
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "could not read the A2A peer's agent card at "
                    + url + "/" + CARD + " (404) nor at the host's /" + CARD + ": "
                    + GuardedHttpClient.bounded(GuardedHttpClient.describe(e))));
        }
    }

    private PeerOutcome stream() throws InterruptedException, PeerFailed {
        BlockingQueue<Object> events = new LinkedBlockingQueue<>();
        try {
            transport.sendMessageStreaming(PeerMessage.of(run, session.peer(), true), events::add,
                    error -> events.add(error == null ? END : error), context);
        } catch (io.a2a.spec.A2AClientException e) {
            throw failed("message/stream", e);
        }
        while (true) {
            Object event = events.take();
            PeerOutcome outcome;
            if (event instanceof Message message) {
                return PeerOutcome.ofMessage(message);
            } else if (event instanceof Task task) {
                named(task.getId());
                if (task.getArtifacts() != null) {
                    task.getArtifacts().forEach(artifacts::put);
                }
                outcome = outcome(task.getStatus(), artifacts);
            } else if (event instanceof TaskArtifactUpdateEvent update) {
                named(update.getTaskId());
                artifacts.merge(update);
                outcome = null;
            } else if (event instanceof TaskStatusUpdateEvent update) {
                named(update.getTaskId());
                outcome = outcome(update.getStatus(), artifacts);
                if (outcome != null && outcome.state() == RunState.SUCCEEDED && artifacts.isEmpty()) {
                    return poll(getTask());   // the artifacts were not streamed: read them from the task
                }
            } else {
                return brokenStream(event == END ? null : (Throwable) event);
            }
            if (outcome != null) {
                return outcome;
            }
        }
    }

    private PeerOutcome brokenStream(Throwable error) throws InterruptedException, PeerFailed {
        guarded();
        if (error instanceof JSONRPCError rpc && taskId == null) {
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer refused the message: "
                    + GuardedHttpClient.bounded(GuardedHttpClient.describe(rpc))));
        }
        String why = error == null ? "ended" : "broke (" + GuardedHttpClient.bounded(GuardedHttpClient.describe(error))
                + ")";
        if (taskId == null) {
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer's event stream " + why
                    + " before it named a task"));
        }
        progress.note("the A2A peer's event stream " + why + " before the task's final state; following it with"
                + " tasks/get instead");
        return poll(getTask());
    }

    private PeerOutcome poll() throws InterruptedException, PeerFailed {
        EventKind answer;
        try {
            answer = transport.sendMessage(PeerMessage.of(run, session.peer(), false), context);
        } catch (io.a2a.spec.A2AClientException e) {
            throw failed("message/send", e);
        }
        if (answer instanceof Message message) {
            return PeerOutcome.ofMessage(message);
        }
        if (!(answer instanceof Task task)) {
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer answered message/send with neither a"
                    + " task nor a message"));
        }
        if (task.getId() == null) {
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer answered message/send with a task"
                    + " without an id"));
        }
        named(task.getId());
        return poll(task);
    }

    private PeerOutcome poll(Task task) throws InterruptedException, PeerFailed {
        Task current = task;
        while (true) {
            named(current.getId());
            HeldArtifacts held = HeldArtifacts.of(maxOutputBytes, current.getArtifacts());
            PeerOutcome outcome = outcome(current.getStatus(), held);
            if (outcome != null) {
                return outcome;
            }
            Thread.sleep(pollInterval.toMillis());
            current = getTask();
        }
    }

    private Task getTask() throws InterruptedException, PeerFailed {
        try {
            Task task = transport.getTask(new TaskQueryParams(taskId), context);
            if (task == null) {
                throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer answered tasks/get for " + taskId
                        + " without the task"));
            }
            return task;
        } catch (io.a2a.spec.A2AClientException e) {
            throw failed("tasks/get", e);
        }
    }

    /**
     * Checks every task id the peer gives; the first one names the run's task (RUNNING). An id over the bound fails the
     * run before it is reported, sent back or stored.
     */
    private void named(String id) throws PeerFailed {
        if (id == null) {
            return;
        }
        if (id.length() > MAX_TASK_ID || id.isEmpty() || id.chars().anyMatch(Character::isISOControl)) {
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer gave its task an id of " + id.length()
                    + " characters" + (id.chars().anyMatch(Character::isISOControl) ? " with control characters" : "")
                    + "; Trimus follows only tasks whose id is 1 to " + MAX_TASK_ID + " printable characters, so the"
                    + " run ends here and the id is not kept"));
        }
        if (taskId == null) {
            taskId = id;
            progress.running(id);
        }
    }

    /** The outcome the task's status means (null while it goes on), noting when its artifacts' text was cut. */
    private PeerOutcome outcome(TaskStatus status, HeldArtifacts held) {
        PeerOutcome outcome = PeerOutcome.ofTask(taskId, status, held);
        if (outcome != null && outcome.state() == RunState.SUCCEEDED && held.cut()) {
            progress.note(held.cutNote());
        }
        return outcome;
    }

    private PeerFailed failed(String method, Exception e) throws InterruptedException {
        interrupted(e);
        String refusal = session.refusal();
        if (refusal != null) {
            return new PeerFailed(PeerOutcome.of(RunState.FAILED, refusal));
        }
        String why = e.getCause() instanceof JSONRPCError rpc ? "an error: " + GuardedHttpClient.describe(rpc)
                : "a failure: " + GuardedHttpClient.describe(e);
        return new PeerFailed(PeerOutcome.of(RunState.FAILED, "the A2A peer's " + method + " ended in "
                + GuardedHttpClient.bounded(why)));
    }

    private void guarded() throws PeerFailed {
        String refusal = session.refusal();
        if (refusal != null) {
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, refusal));
        }
    }

    /** The SDK wraps an interrupt (a cancel, the deadline) into its own exception: it is rethrown as one. */
    private static void interrupted(Throwable e) throws InterruptedException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                throw new InterruptedException("the exchange was stopped");
            }
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("the exchange was stopped");
        }
    }

    /** The exchange ended the run without a final state of the peer's task. */
    static final class PeerFailed extends Exception {
        final transient PeerOutcome outcome;

        PeerFailed(PeerOutcome outcome) {
            super(outcome.error(), null, false, false);
            this.outcome = outcome;
        }
    }
}
