package io.trimus.egress.feed;

import io.vertx.pgclient.PgConnectOptions;

import java.util.Optional;

/** The options of a replica's listening connections: the service's own database login on the first database host. */
public final class ListenerOptions {
    private ListenerOptions() {
    }

    /**
     * The options of a listening connection: the service's own database login (LISTEN needs no privilege), on the
     * first host of the reactive URL ({@code quarkus.datasource.reactive.url}); reconnecting is the feed's job.
     */
    public static PgConnectOptions of(String url, Optional<String> user, Optional<String> password) {
        String first = url.strip();
        if (first.startsWith("vertx-reactive:")) {
            first = first.substring("vertx-reactive:".length());
        }
        int comma = first.indexOf(',');
        PgConnectOptions options = PgConnectOptions.fromUri(comma < 0 ? first : first.substring(0, comma));
        user.ifPresent(options::setUser);
        password.ifPresent(options::setPassword);
        return options.setReconnectAttempts(0);
    }
}
