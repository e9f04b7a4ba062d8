package io.trimus.egress.anomaly;

import io.smallrye.mutiny.Uni;
import io.trimus.events.EgressAnomaly;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.time.Duration;

/**
 * Reads {@code trimus.egress.anomalies} back from Kafka and persists every event, so an anomaly survives a
 * restart of this service or the broker: the offset moves on only after the row is committed, and a redelivered
 * event is recognised by its id. The resolver publishes and never waits for any of this.
 *
 * <p>The channel has its own name ({@value #CHANNEL}, configured onto the topic): the resolver's publisher owns
 * the channel named like the topic, and an {@code @Incoming} of that name would be wired to it in memory,
 * bypassing Kafka. A record that is no valid anomaly is logged and skipped; a database that is away is waited
 * for with back-off, for up to {@link #RETRY_FOR}, before the event is given up (logged and counted).
 */
@ApplicationScoped
public class AnomalyConsumer {
    /** The incoming channel; mp.messaging.incoming.egress-anomalies-in.topic names the topic. */
    public static final String CHANNEL = "egress-anomalies-in";
    static final Duration RETRY_FOR = Duration.ofMinutes(5);

    private final AnomalyService anomalies;

    AnomalyConsumer(AnomalyService anomalies) {
        this.anomalies = anomalies;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(EgressAnomaly event) {
        return Uni.createFrom().deferred(() -> anomalies.persist(event))
                .onFailure(AnomalyConsumer::isTransient).retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).expireIn(RETRY_FOR.toMillis())
                .onFailure().invoke(e -> anomalies.givenUp(event, e))
                .replaceWithVoid();
    }

    /** Whether trying again may help: not when PostgreSQL refused the data itself. */
    static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PgException pg && pg.getSqlState() != null) {
                String sqlClass = pg.getSqlState().substring(0, Math.min(2, pg.getSqlState().length()));
                // 22 data exception, 23 integrity violation, 42 syntax or access rule: the same again fails again
                return !(sqlClass.equals("22") || sqlClass.equals("23") || sqlClass.equals("42"));
            }
        }
        return true;
    }
}
