package io.trimus.admin.rest.live;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import io.trimus.admin.auth.LiveCaller;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import java.time.Duration;

/**
 * Server-sent event streams for htmx's SSE extension: a comment at once (so the browser sees the stream open), a
 * comment every 15 s (keeps proxies from closing it and notices browsers that left), and the live events, each one
 * HTML fragment on one line. A stream ends when its {@link LiveCaller} says the credential or role no longer allows
 * it (checked every {@code trimus.streams.recheck}); a browser that falls 256 events behind is cut off, and
 * every stream ends after {@link #MAX_LIFETIME}; EventSource reconnects by itself, through the sign-in check again.
 */
public final class SseStreams {
    private static final Duration HEARTBEAT = Duration.ofSeconds(15);
    private static final int CLIENT_BUFFER = 256;
    /** Streams end after this; EventSource reconnects, through the access gate again. */
    static final Duration MAX_LIFETIME = Duration.ofMinutes(10);

    private SseStreams() {
    }

    /**
     * {@code live} as named SSE events carrying HTML, merged with the opening comment and the heartbeats, for as long
     * as {@code caller} stays allowed.
     */
    public static Multi<OutboundSseEvent> of(Sse sse, String eventName, Multi<String> live, LiveCaller caller) {
        Multi<OutboundSseEvent> events = live.onOverflow().buffer(CLIENT_BUFFER)
                .map(html -> sse.newEventBuilder().name(eventName).data(String.class, oneLine(html)).build());
        Multi<OutboundSseEvent> heartbeats = Multi.createBy().concatenating().streams(
                Multi.createFrom().item(sse.newEventBuilder().comment("stream open").build()),
                Multi.createFrom().ticks().startingAfter(HEARTBEAT).every(HEARTBEAT)
                        .map(tick -> sse.newEventBuilder().comment("keep-alive").build()));
        return caller.whileAllowed(Multi.createBy().merging().streams(events, heartbeats))
                .select().first(MAX_LIFETIME)
                .onFailure(BackPressureFailure.class).recoverWithCompletion();
    }

    // an SSE data field ends at a line break; the fragments are HTML, where a line break is just white space
    private static String oneLine(String html) {
        return html.replace("\r", "").replace('\n', ' ');
    }
}
