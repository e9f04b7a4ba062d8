package io.trimus.run.rest.a2a;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.Cancellable;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What the A2A endpoint answers one request with: a status, its headers and the body, one part or a stream of them. */
record A2aAnswer(int status, Map<String, List<String>> headers, Multi<byte[]> body) {
    static final String EVENT_STREAM = "text/event-stream";
    /** An SSE comment: clients skip it; it tells them, and every proxy between, that the stream is alive. */
    static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

    static A2aAnswer json(int status, String contentType, String json) {
        return new A2aAnswer(status, Map.of("Content-Type", List.of(contentType)),
                Multi.createFrom().item(json.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Server-sent events, one {@code data:} line each, with a {@link #KEEP_ALIVE} every {@code keepAlive} from the
     * start until the events end (buffering proxies told not to hold them back).
     */
    static A2aAnswer events(Multi<String> json, Duration keepAlive) {
        Multi<byte[]> events = json.map(event -> ("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
        return new A2aAnswer(200, Map.of("Content-Type", List.of(EVENT_STREAM), "Cache-Control", List.of("no-cache"),
                "X-Accel-Buffering", List.of("no")), withKeepAlives(events, keepAlive));
    }

    /** {@code events}, with {@link #KEEP_ALIVE} every {@code every} in between; ends with them, cancels them too. */
    static Multi<byte[]> withKeepAlives(Multi<byte[]> events, Duration every) {
        return Multi.createFrom().emitter(emitter -> {
            Cancellable ticks = Multi.createFrom().ticks().startingAfter(every).every(every).onOverflow().drop()
                    .subscribe().with(tick -> emitter.emit(KEEP_ALIVE), failure -> { });
            Cancellable main = events.subscribe().with(emitter::emit, failure -> {
                ticks.cancel();
                emitter.fail(failure);
            }, () -> {
                ticks.cancel();
                emitter.complete();
            });
            emitter.onTermination(() -> {
                ticks.cancel();
                main.cancel();
            });
        });
    }
}
