package io.trimus.egress.anomaly.store;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.trimus.events.EgressAnomaly;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads {@code trimus.egress.anomalies} back from Kafka and persists every event, so an anomaly survives a
 * restart of this service or the broker: the offsets move on only after the rows are committed, and a redelivered
 * event is recognised by its id. The resolver publishes and never waits for any of this.
 *
 * <p>What one poll returned arrives as one batch ({@code mp.messaging.incoming.egress-anomalies-in.batch=true}) and
 * is stored in one transaction with one multi-row insert: under a burst the rows do not queue behind one transaction
 * each. The channel has its own name ({@value #CHANNEL}, configured onto the topic): the resolver's publisher owns
 * the channel named like the topic, and an {@code @Incoming} of that name would be wired to it in memory, bypassing
 * Kafka. A record that is no valid anomaly is logged and skipped; a database that is away is waited for with
 * back-off, for up to {@link #RETRY_FOR}, before the batch is given up (logged and counted). When PostgreSQL refuses
 * the batch itself, its rows are stored one by one, so only the row it refuses is given up.
 */
@ApplicationScoped
public class AnomalyConsumer {
    /** The incoming channel; mp.messaging.incoming.egress-anomalies-in.topic names the topic. */
    public static final String CHANNEL = "egress-anomalies-in";
    static final Duration RETRY_FOR = Duration.ofMinutes(5);
    // SQLSTATE classes where the same again fails again: 22 data exception, 23 integrity violation, 42 syntax or
    // access rule, 54 a limit such as an index entry's size (a name too long for the last_seen index)
    private static final Set<String> REFUSED_DATA = Set.of("22", "23", "42", "54");

    private final AnomalyService anomalies;

    AnomalyConsumer(AnomalyService anomalies) {
        this.anomalies = anomalies;
    }

    /** Stores the records of one poll; completes (and so lets the offsets move on) once each is stored or given up. */
    @Incoming(CHANNEL)
    public Uni<Void> consume(List<EgressAnomaly> batch) {
        List<AnomalyEvent> rows = anomalies.wellFormed(batch);
        if (rows.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return patiently(() -> anomalies.store(rows))
                .onFailure().recoverWithUni(failure -> isTransient(failure)
                        ? giveUp(rows, failure)
                        : oneByOne(rows));
    }

    private Uni<Void> oneByOne(List<AnomalyEvent> rows) {
        return Multi.createFrom().iterable(rows)
                .onItem().transformToUniAndConcatenate(row -> patiently(() -> anomalies.store(List.of(row)))
                        .onFailure().recoverWithUni(failure -> giveUp(List.of(row), failure)))
                .collect().last()
                .replaceWithVoid();
    }

    private Uni<Void> giveUp(List<AnomalyEvent> rows, Throwable failure) {
        rows.forEach(row -> anomalies.givenUp(row, failure));
        return Uni.createFrom().voidItem();
    }

    private static Uni<Void> patiently(Supplier<Uni<? extends Void>> work) {
        return Uni.createFrom().<Void>deferred(work)
                .onFailure(AnomalyConsumer::isTransient).retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).expireIn(RETRY_FOR.toMillis());
    }

    /** Whether trying again may help: not when PostgreSQL refused the data itself. */
    static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // Hibernate Reactive hands PostgreSQL's error on as a java.sql.SQLException with its SQLSTATE
            String sqlState = t instanceof PgException pg ? pg.getSqlState()
                    : t instanceof SQLException sql ? sql.getSQLState() : null;
            if (sqlState != null && sqlState.length() >= 2) {
                return !REFUSED_DATA.contains(sqlState.substring(0, 2));
            }
        }
        return true;
    }
}
