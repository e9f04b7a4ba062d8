package io.trimus.egress.anomaly;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import io.trimus.egress.anomaly.DenialKeys.Key;
import io.trimus.egress.anomaly.DenialKeys.KeyProbe;
import io.trimus.egress.anomaly.DenialKeys.Source;
import io.trimus.egress.anomaly.DenialKeys.SourceProbe;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.sandbox.IpAddresses;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.events.EgressAnomaly;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Turns denied lookups into anomaly events without flooding: the first denial of a (source, sandbox, name, type,
 * reason) is published at once with count 1; repeats within the window are folded into one event published when
 * the window ends, with their count and their first and last time. A key whose window saw repeats opens the next
 * window; a quiet one is forgotten. So the counts of all events add up to the number of denials, exactly.
 * <p>
 * A sandbox asking for ever new names (a tunnelling or scanning flood: every name fresh) would still get one event
 * per denial, so each source (sandbox, or source address without one) has a budget of {@code maxNamesPerSandbox}
 * names per window that get their own event. Beyond it, that source's denials of names not already tracked are
 * folded per (type, reason) into one <em>overflow</em> event per window: its qname is the folded name when it was
 * only one, else {@code *.} and the longest suffix of at least two labels all folded names share
 * ({@code *.attacker.example}), else {@code *}; its count is the exact number of denials folded.
 * <p>
 * Never blocks the resolver: {@link #record} touches at most two map entries and hands at most one event to the
 * publisher, which does not wait; a Quarkus scheduler job closes windows. At most {@code maxKeys} keys are tracked:
 * reaching the bound flushes every window early (their repeats are published, nothing is dropped).
 */
@Singleton
public class RateLimitedAnomalyRecorder implements AnomalyRecorder {
    private static final Logger LOG = Logger.getLogger(RateLimitedAnomalyRecorder.class);
    /** {@code qname} of an overflow event whose names share no suffix of two labels or more. */
    public static final String ANY_NAME = FoldingWindow.ANY_NAME;

    /** Names given their own event by one source since its budget window opened; guarded by the map. */
    private static final class Budget {
        final long opened;
        // written under the map's lock, read by the lock-free overflow fold: a stale read folds at a budget's edge
        volatile int used;

        Budget(long opened) {
            this.opened = opened;
        }
    }

    /** Default of {@code trimus.egress.anomalies.max-names-per-sandbox}. */
    public static final int DEFAULT_MAX_NAMES_PER_SANDBOX = 100;

    private final AnomalyPublisher publisher;
    private final Duration window;
    private final long windowMillis;
    private final int maxKeys;
    private final int maxNamesPerSandbox;
    private final Clock clock;
    private final ConcurrentHashMap<Key, FoldingWindow> windows = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Source, Budget> budgets = new ConcurrentHashMap<>();
    private final ThreadLocal<KeyProbe> probes = ThreadLocal.withInitial(KeyProbe::new);
    private final ThreadLocal<SourceProbe> sourceProbes = ThreadLocal.withInitial(SourceProbe::new);
    // LongAdders read by FunctionCounters when scraped: a composite registry's counter allocates per increment
    private final LongAdder denials = new LongAdder();
    private final LongAdder overflowDenials = new LongAdder();
    private final LongAdder canaryDenials = new LongAdder();
    /** Where events get their tunnelling score; set once the watch exists (it records through this recorder). */
    private volatile AnomalyScores scores = AnomalyScores.NONE;

    @Inject
    public RateLimitedAnomalyRecorder(AnomalyPublisher publisher, TrimusConfig config, MeterRegistry registry) {
        this(publisher, config.egress().anomalies().window(), config.egress().anomalies().maxKeys(),
                config.egress().anomalies().maxNamesPerSandbox(), Clock.systemUTC(), registry);
    }

    /**
     * @param window             repeats within it become one event
     * @param maxKeys            keys tracked at most before all windows are flushed early
     * @param maxNamesPerSandbox names of one source per window that get their own event (0: none, every denial of
     *                           a name not yet tracked is folded into the source's overflow event)
     * @param clock              the time of first_seen, last_seen and window ends
     */
    public RateLimitedAnomalyRecorder(AnomalyPublisher publisher, Duration window, int maxKeys,
                                      int maxNamesPerSandbox, Clock clock, MeterRegistry registry) {
        this.publisher = publisher;
        this.window = window;
        this.windowMillis = window.toMillis();
        this.maxKeys = Math.max(1, maxKeys);
        this.maxNamesPerSandbox = Math.max(0, maxNamesPerSandbox);
        this.clock = clock;
        FunctionCounter.builder("trimus.egress.anomalies.denials", denials, LongAdder::sum)
                .description("Denied lookups recorded (events carry them folded, with counts)")
                .register(registry);
        FunctionCounter.builder("trimus.egress.anomalies.overflow.denials", overflowDenials, LongAdder::sum)
                .description("Denied lookups folded into a sandbox's overflow event because it asked for more "
                        + "distinct names per window than its budget")
                .register(registry);
        FunctionCounter.builder("trimus.egress.anomalies.canary.denials", canaryDenials, LongAdder::sum)
                .description("Denials of canary probe sandboxes: their checks, never published as anomalies")
                .register(registry);
        Gauge.builder("trimus.egress.anomalies.tracked.keys", windows, ConcurrentHashMap::size)
                .description("(source, name, type, reason) keys whose rate-limit window is open")
                .register(registry);
    }

    @Override
    public void record(Sandbox sandbox, String sourceIp, String qname, String qtype, String reason,
                       boolean enforced) {
        if (canaryProbe(sandbox)) {
            return;
        }
        record(sandbox, sourceIp, IpAddresses.parse(sourceIp), qname, qtype, reason, enforced);
    }

    /**
     * A repeat of a tracked key, and a fresh name of a source whose budget is spent (folded into its open overflow
     * window), cost map probes and the window's lock and allocate nothing.
     */
    @Override
    public void record(Sandbox sandbox, InetAddress source, CharSequence qname, String qtype, String reason,
                       boolean enforced) {
        if (canaryProbe(sandbox)) {
            return;
        }
        long now = clock.millis();
        KeyProbe probe = probes.get();
        try {
            FoldingWindow open = windows.get(probe.set(source, sandbox, qname, qtype, reason, enforced));
            if (open != null && open.repeatIfOpen(now)) {
                denials.increment();
                return;
            }
            if (budgetSpent(source, sandbox, now)) {
                FoldingWindow overflow = windows.get(probe.set(source, sandbox, null, qtype, reason, enforced));
                if (overflow != null && overflow.foldIfOpen(now, qname)) {
                    denials.increment();
                    overflowDenials.increment();
                    return;
                }
            }
        } finally {
            probe.clear();
        }
        record(sandbox, source.getHostAddress(), source, qname.toString(), qtype, reason, enforced);
    }

    /** A refused request: its own key per (source, sandbox, host, method, path), so repeats fold per request. */
    @Override
    public void recordRequest(Sandbox sandbox, String sourceIp, String host, String protocol, String method,
                              String path, boolean enforced) {
        if (canaryProbe(sandbox)) {
            return;
        }
        record(new Key(sourceIp, IpAddresses.parse(sourceIp), sandbox, host, protocol,
                EgressAnomaly.PROXY_REQUEST_DENIED, enforced, method, path));
    }

    /** A canary's probe: its denials are its checks, counted and never published. */
    private boolean canaryProbe(Sandbox sandbox) {
        if (sandbox != null && sandbox.isCanaryProbe()) {
            canaryDenials.increment();
            return true;
        }
        return false;
    }

    /** Whether the source has used up this window's budget of names (false when unsure: the full path decides). */
    private boolean budgetSpent(InetAddress source, Sandbox sandbox, long now) {
        SourceProbe probe = sourceProbes.get();
        Budget budget = budgets.get(probe.set(source, sandbox));
        probe.clear();
        return budget != null && budget.used >= maxNamesPerSandbox && budget.opened + windowMillis > now;
    }

    private void record(Sandbox sandbox, String sourceIp, InetAddress source, String qname, String qtype,
                        String reason, boolean enforced) {
        record(new Key(sourceIp, source, sandbox, qname, qtype, reason, enforced));
    }

    private void record(Key key) {
        String sourceIp = key.sourceIp;
        InetAddress source = key.source;
        Sandbox sandbox = key.sandbox;
        String qname = key.qname;
        String qtype = key.qtype;
        String reason = key.reason;
        boolean enforced = key.enforced;
        denials.increment();
        long now = clock.millis();
        if (windows.size() >= maxKeys && !windows.containsKey(key)) {
            flushAll();
        }
        EgressAnomaly[] first = new EgressAnomaly[1];
        boolean[] overBudget = new boolean[1];
        windows.compute(key, (k, open) -> {
            if (open == null) {
                if (!spend(new Source(sourceIp, source, sandbox), now)) {
                    overBudget[0] = true;
                    return null;
                }
                first[0] = event(k, k.qname, 1, now, now);
                return new FoldingWindow(now);
            }
            // a window in the map is open: windows close only as they leave it, under this same lock
            open.repeatIfOpen(now);
            return open;
        });
        if (overBudget[0]) {
            overflowDenials.increment();
            windows.compute(new Key(sourceIp, source, sandbox, null, qtype, reason, enforced), (k, open) -> {
                FoldingWindow folding = open == null ? new FoldingWindow(now) : open;
                folding.foldIfOpen(now, qname);
                return folding;
            });
        }
        if (first[0] != null) {
            publish(first[0]);
        }
    }

    /** Takes one name from the source's budget of this window; false when it is spent. */
    private boolean spend(Source source, long now) {
        boolean[] granted = new boolean[1];
        budgets.compute(source, (s, budget) -> {
            Budget current = budget == null || budget.opened + windowMillis <= now ? new Budget(now) : budget;
            if (current.used < maxNamesPerSandbox) {
                current.used++;
                granted[0] = true;
            }
            return current;
        });
        return granted[0];
    }

    /** Publishes the repeats of every window that has ended, opens the next window for those, forgets quiet keys. */
    public void flushDue() {
        long now = clock.millis();
        for (Key key : windows.keySet()) {
            flush(key, now, false);
        }
        for (Source source : budgets.keySet()) {
            budgets.computeIfPresent(source, (s, budget) -> budget.opened + windowMillis > now ? budget : null);
        }
    }

    /** Publishes the repeats of every window now and forgets all keys (bound reached, shutdown). */
    public void flushAll() {
        long now = clock.millis();
        for (Key key : windows.keySet()) {
            flush(key, now, true);
        }
        // The budgets go too: they are bounded by the keys they opened, and early flushes bound those.
        budgets.clear();
    }

    private void flush(Key key, long now, boolean early) {
        EgressAnomaly[] folded = new EgressAnomaly[1];
        windows.computeIfPresent(key, (k, open) -> {
            if (!early && !open.endedBy(now, windowMillis)) {
                return open;
            }
            FoldingWindow.Folded repeats = open.take(now, early);
            if (repeats != null) {
                folded[0] = event(k, k.overflow() ? repeats.foldedName() : k.qname, repeats.count(),
                        repeats.firstSeen(), repeats.lastSeen());
            }
            return open.closed() ? null : open;
        });
        if (folded[0] != null) {
            publish(folded[0]);
        }
    }

    /** Events from now on carry the score {@code scores} gives for their sandbox and name. */
    public void scoredBy(AnomalyScores scores) {
        this.scores = scores;
    }

    private EgressAnomaly event(Key key, String qname, long count, long firstSeen, long lastSeen) {
        Sandbox sandbox = key.sandbox;
        AnomalyScores.Scored scored = null;
        try {
            scored = scores.of(sandbox, qname);
        } catch (RuntimeException e) {
            LOG.debugf(e, "no tunnelling score for %s", qname);
        }
        return new EgressAnomaly(UUID.randomUUID(),
                sandbox == null ? null : sandbox.companyId(),
                sandbox == null ? null : sandbox.agentId(),
                sandbox == null ? null : sandbox.runId(),
                sandbox == null ? null : sandbox.containerId(),
                key.sourceIp, qname, key.qtype, key.reason, count, Instant.ofEpochMilli(firstSeen),
                Instant.ofEpochMilli(lastSeen), key.enforced, key.method, key.path,
                scored == null ? null : scored.score(), scored == null ? null : scored.signals());
    }

    private void publish(EgressAnomaly anomaly) {
        try {
            publisher.publish(anomaly);
        } catch (RuntimeException e) {
            LOG.errorf("could not hand anomaly %s to the publisher: %s", anomaly.id(), e.getMessage());
        }
    }

    /** Keys whose window is open now (overflow keys included). */
    public int trackedKeys() {
        return windows.size();
    }

    /**
     * How often windows are checked for their end: a few times per window, from 50 ms to 1 s (the Quarkus scheduler
     * checks its jobs once a second, so a window shorter than 5 s may close up to a second late).
     */
    public Duration tick() {
        return Duration.ofMillis(Math.max(50, Math.min(1000, window.toMillis() / 5)));
    }

    /** Publishes what is still folded (shutdown). */
    public void stop() {
        flushAll();
    }

    void onStart(@Observes StartupEvent event, Scheduler scheduler) {
        scheduler.newJob("trimus-anomaly-windows")
                .setInterval(tick().toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> closeDueWindows())
                .schedule();
    }

    private void closeDueWindows() {
        try {
            flushDue();
        } catch (RuntimeException e) {
            LOG.errorf(e, "closing anomaly windows failed");
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }
}
