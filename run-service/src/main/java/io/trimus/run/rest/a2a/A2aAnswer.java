package io.trimus.run.rest.a2a;

import io.smallrye.mutiny.Multi;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** What the A2A endpoint answers one request with: a status, its headers and the body, one part or a stream of them. */
record A2aAnswer(int status, Map<String, List<String>> headers, Multi<byte[]> body) {
    static final String EVENT_STREAM = "text/event-stream";

    static A2aAnswer json(int status, String contentType, String json) {
        return new A2aAnswer(status, Map.of("Content-Type", List.of(contentType)),
                Multi.createFrom().item(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** Server-sent events, one {@code data:} line each. */
    static A2aAnswer events(Multi<String> json) {
        return new A2aAnswer(200, Map.of("Content-Type", List.of(EVENT_STREAM), "Cache-Control", List.of("no-cache")),
                json.map(event -> ("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8)));
    }
}
