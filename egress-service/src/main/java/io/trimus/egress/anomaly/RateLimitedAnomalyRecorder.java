package io.trimus.egress.anomaly;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.events.EgressAnomaly;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Turns denied lookups into anomaly events without flooding: the first denial of a (source, sandbox, name, type,
 * reason) is published at once with count 1; repeats within the window are folded into one event published when
 * the window ends, with their count and their first and last time. A key whose window saw repeats opens the next
 * window; a quiet one is forgotten. So the counts of all events add up to the number of denials, exactly.
 * <p>
 * Never blocks the resolver: {@link #record} touches one map entry and hands at most one event to the publisher,
 * which does not wait; a background thread closes windows. At most {@code maxKeys} keys are tracked: reaching the
 * bound flushes every window early (their repeats are published, nothing is dropped).
 */
@Singleton
public class RateLimitedAnomalyRecorder implements AnomalyRecorder {
    private static final Logger LOG = Logger.getLogger(RateLimitedAnomalyRecorder.class);

    private record Key(String sourceIp, Sandbox sandbox, String qname, String qtype, String reason) {
    }

    /** Repeats of one key since its window opened; guarded by the map's per-key atomicity. */
    private static final class Window {
        Instant opened;
        long repeats;
        Instant firstRepeat;
        Instant lastRepeat;

        Window(Instant opened) {
            this.opened = opened;
        }

        void repeat(Instant at) {
            if (repeats++ == 0) {
                firstRepeat = at;
            }
            lastRepeat = at;
        }

        void reopen(Instant at) {
            opened = at;
            repeats = 0;
            firstRepeat = null;
            lastRepeat = null;
        }
    }

    private final AnomalyPublisher publisher;
    private final Duration window;
    private final int maxKeys;
    private final Clock clock;
    private final ConcurrentHashMap<Key, Window> windows = new ConcurrentHashMap<>();
    private final Counter denials;
    private ScheduledExecutorService ticker;

    @Inject
    public RateLimitedAnomalyRecorder(AnomalyPublisher publisher, TrimusConfig config, MeterRegistry registry) {
        this(publisher, config.egress().anomalies().window(), config.egress().anomalies().maxKeys(), Clock.systemUTC(),
                registry);
    }

    /**
     * @param window  repeats within it become one event
     * @param maxKeys keys tracked at most before all windows are flushed early
     * @param clock   the time of first_seen, last_seen and window ends
     */
    public RateLimitedAnomalyRecorder(AnomalyPublisher publisher, Duration window, int maxKeys, Clock clock,
                                      MeterRegistry registry) {
        this.publisher = publisher;
        this.window = window;
        this.maxKeys = Math.max(1, maxKeys);
        this.clock = clock;
        this.denials = Counter.builder("trimus.egress.anomalies.denials")
                .description("Denied lookups recorded (events carry them folded, with counts)")
                .register(registry);
        Gauge.builder("trimus.egress.anomalies.tracked.keys", windows, ConcurrentHashMap::size)
                .description("(source, name, type, reason) keys whose rate-limit window is open")
                .register(registry);
    }

    @Override
    public void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason) {
        denials.increment();
        Instant now = clock.instant();
        Key key = new Key(sourceIp, sandbox, qname, qtype, reason);
        if (windows.size() >= maxKeys && !windows.containsKey(key)) {
            flushAll();
        }
        EgressAnomaly[] first = new EgressAnomaly[1];
        windows.compute(key, (k, open) -> {
            if (open == null) {
                first[0] = event(k, 1, now, now);
                return new Window(now);
            }
            open.repeat(now);
            return open;
        });
        if (first[0] != null) {
            publish(first[0]);
        }
    }

    /** Publishes the repeats of every window that has ended, opens the next window for those, forgets quiet keys. */
    public void flushDue() {
        Instant now = clock.instant();
        for (Key key : windows.keySet()) {
            flush(key, now, false);
        }
    }

    /** Publishes the repeats of every window now and forgets all keys (bound reached, shutdown). */
    public void flushAll() {
        Instant now = clock.instant();
        for (Key key : windows.keySet()) {
            flush(key, now, true);
        }
    }

    private void flush(Key key, Instant now, boolean early) {
        EgressAnomaly[] folded = new EgressAnomaly[1];
        windows.computeIfPresent(key, (k, open) -> {
            if (!early && open.opened.plus(window).isAfter(now)) {
                return open;
            }
            if (open.repeats > 0) {
                folded[0] = event(k, open.repeats, open.firstRepeat, open.lastRepeat);
            }
            if (early || open.repeats == 0) {
                return null;
            }
            open.reopen(now);
            return open;
        });
        if (folded[0] != null) {
            publish(folded[0]);
        }
    }

    private static EgressAnomaly event(Key key, long count, Instant firstSeen, Instant lastSeen) {
        Sandbox sandbox = key.sandbox();
        return new EgressAnomaly(UUID.randomUUID(),
                sandbox == null ? null : sandbox.companyId(),
                sandbox == null ? null : sandbox.agentId(),
                sandbox == null ? null : sandbox.runId(),
                sandbox == null ? null : sandbox.containerId(),
                key.sourceIp(), key.qname(), key.qtype(), key.reason(), count, firstSeen, lastSeen);
    }

    private void publish(EgressAnomaly anomaly) {
        try {
            publisher.publish(anomaly);
        } catch (RuntimeException e) {
            LOG.errorf("could not hand anomaly %s to the publisher: %s", anomaly.id(), e.getMessage());
        }
    }

    /** Keys whose window is open now. */
    public int trackedKeys() {
        return windows.size();
    }

    /** Starts closing windows in the background, a few times per window. */
    public synchronized void start() {
        if (ticker != null) {
            return;
        }
        long tick = Math.max(50, Math.min(1000, window.toMillis() / 5));
        ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "trimus-anomaly-windows");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleWithFixedDelay(() -> {
            try {
                flushDue();
            } catch (RuntimeException e) {
                LOG.errorf(e, "closing anomaly windows failed");
            }
        }, tick, tick, TimeUnit.MILLISECONDS);
    }

    /** Stops the background thread and publishes what is still folded. */
    public synchronized void stop() {
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
        flushAll();
    }

    void onStart(@Observes StartupEvent event) {
        start();
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }
}
