package io.trimus.adapter.a2a;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Reads a peer's text/event-stream answer event by event (the data lines of an event joined by a newline), handing
 * each event to the SDK; an event longer than TRIMUS_A2A_MAX_RESPONSE_BYTES, or a stream longer than
 * TRIMUS_A2A_MAX_STREAM_BYTES, ends it with the refusal recorded and the connection reset. Runs on an event loop.
 */
final class EventStream {
    private final HttpClientResponse response;
    private final int maxEventBytes;
    private final long maxStreamBytes;
    private final PeerSession session;
    private final CompletableFuture<Void> open;
    private final Consumer<String> events;
    private final Consumer<Throwable> errors;
    private final Runnable completed;
    private Buffer line = Buffer.buffer();
    private final StringBuilder data = new StringBuilder();
    private long eventBytes;
    private long streamBytes;

    EventStream(HttpClientResponse response, int maxEventBytes, long maxStreamBytes, PeerSession session,
                CompletableFuture<Void> open, Consumer<String> events, Consumer<Throwable> errors,
                Runnable completed) {
        this.response = response;
        this.maxEventBytes = maxEventBytes;
        this.maxStreamBytes = maxStreamBytes;
        this.session = session;
        this.open = open;
        this.events = events;
        this.errors = errors;
        this.completed = completed;
    }

    void read() {
        response.handler(this::chunk);
        response.exceptionHandler(this::fail);
        response.endHandler(v -> {
            if (!open.isDone()) {
                dispatch();
                if (!open.isDone()) {
                    completed.run();
                    open.complete(null);
                }
            }
        });
    }

    private void chunk(Buffer chunk) {
        if (open.isDone()) {
            return;
        }
        streamBytes += chunk.length();
        if (streamBytes > maxStreamBytes) {
            refuse("the A2A peer's event stream is longer than " + maxStreamBytes + " bytes"
                    + " (TRIMUS_A2A_MAX_STREAM_BYTES); reading stopped there and the connection was reset");
            return;
        }
        int start = 0;
        for (int i = 0; i < chunk.length() && !open.isDone(); i++) {
            if (chunk.getByte(i) == '\n') {
                line.appendBuffer(chunk, start, i - start);
                start = i + 1;
                line(line.toString(StandardCharsets.UTF_8));
                line = Buffer.buffer();
            }
        }
        if (!open.isDone()) {
            line.appendBuffer(chunk, start, chunk.length() - start);
            if (eventBytes + line.length() > maxEventBytes) {
                refuse(tooLargeEvent());
            }
        }
    }

    private void line(String text) {
        String l = text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        if (l.isEmpty()) {
            dispatch();
            return;
        }
        eventBytes += l.length() + 1;
        if (eventBytes > maxEventBytes) {
            refuse(tooLargeEvent());
            return;
        }
        if (l.startsWith("data:")) {
            String value = l.substring(5);
            if (data.length() > 0) {
                data.append('\n');
            }
            data.append(value.startsWith(" ") ? value.substring(1) : value);
        }
    }

    private void dispatch() {
        String event = data.toString();
        data.setLength(0);
        eventBytes = 0;
        if (!event.isBlank()) {
            events.accept(event);
        }
    }

    private String tooLargeEvent() {
        return "an event of the A2A peer's stream is larger than " + maxEventBytes + " bytes"
                + " (TRIMUS_A2A_MAX_RESPONSE_BYTES); reading stopped there and the connection was reset";
    }

    private void refuse(String reason) {
        session.refuse(reason);
        fail(new IOException(reason));
    }

    private void fail(Throwable cause) {
        if (!open.isDone()) {
            errors.accept(cause);
            open.completeExceptionally(cause);
        }
    }
}
