package io.trimus.adapter.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.a2a.server.agentexecution.AgentExecutor;
import io.a2a.server.agentexecution.RequestContext;
import io.a2a.server.events.EventQueue;
import io.a2a.server.tasks.TaskUpdater;
import io.a2a.util.Utils;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.secrets.DispatchSecrets;
import io.trimus.events.secrets.EncryptionKey;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import org.eclipse.microprofile.config.ConfigProvider;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the tests of runs delegated to A2A peers share: remote run requests naming a peer (their secrets sealed as
 * run-service seals them, with this app's key), agent executors around a piece of work, and a writer that floods a
 * peer's answer.
 */
public final class A2aRuns {
    private static final ObjectMapper JSON = new ObjectMapper();

    private A2aRuns() {
    }

    /** The task's work, with a submitted task to report on. */
    @FunctionalInterface
    public interface Work {
        void run(RequestContext context, TaskUpdater updater);
    }

    /** An executor that submits the task, then does {@code work}; a cancel cancels the task. */
    public static AgentExecutor executor(Work work) {
        return new AgentExecutor() {
            @Override
            public void execute(RequestContext context, EventQueue queue) {
                TaskUpdater updater = new TaskUpdater(context, queue);
                updater.submit();
                work.run(context, updater);
            }

            @Override
            public void cancel(RequestContext context, EventQueue queue) {
                new TaskUpdater(context, queue).cancel();
            }
        };
    }

    /** Holds the peer's work until {@code latch} opens (at most a minute). */
    public static void hold(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes {@code chunk} until {@code total} bytes are out or the connection closes, as fast as the reader reads. */
    public static void writeUntil(HttpServerResponse response, Buffer chunk, AtomicLong written, long total) {
        while (written.get() < total && !response.closed()) {
            if (response.writeQueueFull()) {
                response.drainHandler(v -> writeUntil(response, chunk, written, total));
                return;
            }
            response.write(chunk);
            written.addAndGet(chunk.length());
        }
        if (written.get() >= total && !response.closed()) {
            response.end();
        }
    }

    /** A protocol value as the SDK writes it. */
    public static String json(Object value) {
        try {
            return Utils.OBJECT_MAPPER.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A remote run of {@code company} delegated to the peer {@code a2a} names, its {@code plain} secrets sealed. */
    public static RunRequested request(UUID company, Map<String, ?> a2a, Map<String, String> plain, IssueRef issue,
                                       String input) {
        UUID runId = UUID.randomUUID();
        EncryptionKey key = EncryptionKey.parse(ConfigProvider.getConfig().getValue("trimus.encryption-key",
                String.class));
        UUID agentId = UUID.randomUUID();
        return Runs.request(UUID.randomUUID(), runId, company, agentId, "remote",
                JSON.valueToTree(Map.of("a2a", new HashMap<>(a2a))), issue, input, Instant.now(),
                new DispatchSecrets(key.dispatchKey()).seal(company, agentId, runId, plain));
    }
}
