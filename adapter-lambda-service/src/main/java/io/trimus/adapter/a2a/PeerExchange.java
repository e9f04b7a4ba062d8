package io.trimus.adapter.a2a;

import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.A2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.spi.interceptors.ClientCallContext;
import io.a2a.spec.A2AClientError;
import io.a2a.spec.AgentCard;
import io.a2a.spec.Artifact;
import io.a2a.spec.EventKind;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.Message;
import io.a2a.spec.Part;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One run's exchange with its peer, on the run's own thread: reads the agent card (at {@code <url>/.well-known/…},
 * then the host's), sends the run's message, and follows the task to a final state, streaming when the card says the
 * peer streams and polling tasks/get otherwise; a stream that breaks before a final state is followed by polling.
 * Every JSON-RPC call goes to the configured url with the auth header; the card is read without it.
 */
final class PeerExchange {
    private static final String CARD = ".well-known/agent-card.json";
    private static final Object END = new Object();

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
    private final Map<String, Artifact> artifacts = new LinkedHashMap<>();
    private JSONRPCTransport transport;
    private volatile String taskId;

    PeerExchange(RunRequested run, PeerSession session, A2AHttpClient http, Map<String, String> authHeaders,
                 Duration pollInterval, Progress progress) {
        this.run = run;
        this.session = session;
        this.http = http;
        this.context = new ClientCallContext(Map.of(), authHeaders);
        this.pollInterval = pollInterval;
        this.progress = progress;
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
                        + url + "/" + CARD + ": " + GuardedHttpClient.describe(e)));
            }
        }
        try {
            return new A2ACardResolver(http, url, "/" + CARD, null).getAgentCard();
        } catch (A2AClientError e) {
            interrupted(e);
            guarded();
            throw new PeerFailed(PeerOutcome.of(RunState.FAILED, "could not read the A2A peer's agent card at "
                    + url + "/" + CARD + " (404) nor at the host's /" + CARD + ": " + GuardedHttpClient.describe(e)));
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
                    task.getArtifacts().forEach(a -> artifacts.put(a.artifactId(), a));
                }
                outcome = PeerOutcome.ofTask(task.getId(), task.getStatus(), artifacts.values());
            } else if (event instanceof TaskArtifactUpdateEvent update) {
                named(update.getTaskId());
                merge(update);
                outcome = null;
            } else if (event instanceof TaskStatusUpdateEvent update) {
                named(update.getTaskId());
                outcome = PeerOutcome.ofTask(update.getTaskId(), update.getStatus(), artifacts.values());
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
        named(task.getId());
        return poll(task);
    }

    private PeerOutcome poll(Task task) throws InterruptedException, PeerFailed {
        Task current = task;
        while (true) {
            PeerOutcome outcome = PeerOutcome.ofTask(current.getId(), current.getStatus(),
                    current.getArtifacts() == null ? List.of() : current.getArtifacts());
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

    private void named(String id) {
        if (taskId == null && id != null) {
            taskId = id;
            progress.running(id);
        }
    }

    private void merge(TaskArtifactUpdateEvent update) {
        Artifact added = update.getArtifact();
        Artifact held = artifacts.get(added.artifactId());
        if (held != null && Boolean.TRUE.equals(update.isAppend())) {
            List<Part<?>> parts = new ArrayList<>(held.parts());
            parts.addAll(added.parts());
            artifacts.put(added.artifactId(), new Artifact(held.artifactId(), held.name(), held.description(), parts,
                    held.metadata(), held.extensions()));
        } else {
            artifacts.put(added.artifactId(), added);
        }
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
