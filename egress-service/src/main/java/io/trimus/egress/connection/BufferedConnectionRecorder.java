package io.trimus.egress.connection;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.ConsumeEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.config.TrimusConfig;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.eventbus.EventBus;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Takes the proxy's connection records and writes them to {@code egress_connection} in batches, off the proxy's
 * path: {@link #record} only queues into a bounded buffer (never blocks, never throws) and, when a batch is full,
 * wakes the writer through the event bus; a Vert.x timer wakes it every flush interval for the rest. One writer
 * pass at a time drains the buffer, one multi-row insert per batch, with a few retries when the database fails.
 * <p>
 * When the buffer is full (the database slow or away) a record is dropped, counted in
 * {@code trimus_egress_connections_dropped_total} and reported by a warning at most once a minute; a batch the
 * database kept refusing is counted as {@code failed}. A record is never payload; nothing of it is logged.
 */
@ApplicationScoped
public class BufferedConnectionRecorder implements ConnectionRecorder {
    static final String WAKE_ADDRESS = "trimus.egress.connections.wake";
    private static final Logger LOG = Logger.getLogger(BufferedConnectionRecorder.class);
    private static final Duration WARN_EVERY = Duration.ofMinutes(1);
    private static final Duration SHUTDOWN_FLUSH = Duration.ofSeconds(5);
    private static final int WRITE_RETRIES = 3;

    private final ConnectionBuffer buffer;
    private final int batchSize;
    private final Duration flushInterval;
    private final ConnectionRepository repository;
    private final Clock clock;
    private final Counter persisted;
    private final Counter droppedFull;
    private final Counter droppedUnattributed;
    private final Counter failed;
    private final LongAdder droppedSinceWarning = new LongAdder();
    private final AtomicLong nextWarningAt = new AtomicLong(Long.MIN_VALUE);
    private final AtomicBoolean writing = new AtomicBoolean();
    private final AtomicBoolean wakePending = new AtomicBoolean();
    private volatile Runnable wake = () -> { };
    private volatile Vertx vertx;
    private volatile long timer = -1;

    @Inject
    BufferedConnectionRecorder(TrimusConfig config, ConnectionRepository repository, MeterRegistry registry) {
        this(new ConnectionBuffer(config.egress().connections().buffer()),
                config.egress().connections().batchSize(), config.egress().connections().flushInterval(),
                repository, Clock.systemUTC(), registry);
    }

    /**
     * A recorder over these parts; its writer runs only when {@link #flush} is called, until {@link #onStart} wires
     * it.
     */
    BufferedConnectionRecorder(ConnectionBuffer buffer, int batchSize, Duration flushInterval,
                               ConnectionRepository repository, Clock clock, MeterRegistry registry) {
        this.buffer = buffer;
        this.batchSize = Math.max(1, Math.min(1000, batchSize));
        this.flushInterval = flushInterval;
        this.repository = repository;
        this.clock = clock;
        this.persisted = Counter.builder("trimus.egress.connections.persisted")
                .description("Proxy connection records stored in egress_connection")
                .register(registry);
        this.droppedFull = dropped(registry, "buffer_full");
        this.droppedUnattributed = dropped(registry, "unattributed");
        this.failed = dropped(registry, "failed");
        Gauge.builder("trimus.egress.connections.queued", buffer, ConnectionBuffer::size)
                .description("Proxy connection records waiting to be written")
                .register(registry);
    }

    @Override
    public void record(ConnectionRecord connection) {
        try {
            if (!EgressConnection.attributed(connection)) {
                droppedUnattributed.increment();
                return;
            }
            if (!buffer.offer(connection)) {
                droppedFull.increment();
                droppedSinceWarning.increment();
                warnAtMostOnceAMinute();
                return;
            }
            if (buffer.size() >= batchSize && wakePending.compareAndSet(false, true)) {
                wakeWriter();
            }
        } catch (RuntimeException e) {
            // the proxy must go on whatever happens here; the record is lost and counted
            failed.increment();
        }
    }

    private void wakeWriter() {
        try {
            wake.run();
        } catch (RuntimeException e) {
            // the record is queued: the timer's next wake-up writes it
            wakePending.set(false);
        }
    }

    private void warnAtMostOnceAMinute() {
        long now = clock.millis();
        long due = nextWarningAt.get();
        if (now >= due && nextWarningAt.compareAndSet(due, now + WARN_EVERY.toMillis())) {
            LOG.warnf("Dropped %d proxy connection records: the buffer of %d is full, the database is slow or away "
                    + "(TRIMUS_EGRESS_CONNECTIONS_BUFFER)", droppedSinceWarning.sumThenReset(), buffer.capacity());
        }
    }

    @ConsumeEvent(WAKE_ADDRESS)
    Uni<Void> onWake(String ignored) {
        return flush();
    }

    /** Writes every queued record, batch by batch; a pass already under way makes this one return at once. */
    public Uni<Void> flush() {
        if (!writing.compareAndSet(false, true)) {
            return Uni.createFrom().voidItem();
        }
        wakePending.set(false);
        return writeBatches().eventually(() -> writing.set(false));
    }

    private Uni<Void> writeBatches() {
        List<ConnectionRecord> batch = buffer.drain(batchSize);
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return write(batch).chain(this::writeBatches);
    }

    private Uni<Void> write(List<ConnectionRecord> batch) {
        List<EgressConnection> rows = batch.stream().map(EgressConnection::of).toList();
        return Uni.createFrom().deferred(() -> TenantTransactions.acrossCompanies(() -> repository.insertAll(rows)))
                .onFailure().retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(1)).atMost(WRITE_RETRIES)
                .onItem().invoke(() -> persisted.increment(rows.size()))
                .onFailure().invoke(e -> {
                    failed.increment(rows.size());
                    LOG.errorf("Could not store %d proxy connection records: %s", rows.size(), why(e));
                })
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** PostgreSQL's own words when it refused (without the statement, which holds a placeholder per value). */
    private static String why(Throwable failure) {
        Throwable last = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PgException pg) {
                return pg.getMessage();
            }
            last = t;
        }
        return last.getClass().getSimpleName() + ": " + last.getMessage();
    }

    /** What a full batch does to get written: send the wake-up (the running service), or anything a test likes. */
    void wakeWith(Runnable wake) {
        this.wake = wake;
    }

    void onStart(@Observes StartupEvent event, Vertx vertx, EventBus bus) {
        this.vertx = vertx;
        wakeWith(() -> bus.send(WAKE_ADDRESS, ""));
        this.timer = vertx.setPeriodic(Math.max(10, flushInterval.toMillis()), id -> {
            if (buffer.size() > 0) {
                bus.send(WAKE_ADDRESS, "");
            }
        });
    }

    void onStop(@Observes ShutdownEvent event) {
        Vertx running = vertx;
        if (running == null) {
            return;
        }
        running.cancelTimer(timer);
        try {
            // what ended just before the stop is still worth keeping; a database that is away does not hold it up
            VertxContextSupport.subscribeAndAwait(() -> flush()
                    .ifNoItem().after(SHUTDOWN_FLUSH).recoverWithItem((Void) null));
        } catch (Throwable e) {
            LOG.warnf("Proxy connection records not stored at shutdown: %s", e.getMessage());
        }
    }

    private static Counter dropped(MeterRegistry registry, String reason) {
        return Counter.builder("trimus.egress.connections.dropped")
                .description("Proxy connection records not stored: the buffer was full (buffer_full), the record "
                        + "named no company and run (unattributed) or the database kept refusing it (failed)")
                .tag("reason", reason)
                .register(registry);
    }
}
