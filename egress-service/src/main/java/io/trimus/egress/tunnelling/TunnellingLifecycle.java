package io.trimus.egress.tunnelling;

import io.quarkus.scheduler.Scheduled;
import io.trimus.egress.anomaly.RateLimitedAnomalyRecorder;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.config.TunnellingSettings;
import io.trimus.egress.sandbox.SandboxRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * The service's one {@link TunnellingWatch}, from TRIMUS_EGRESS_TUNNELLING_THRESHOLD and _ACTION (a threshold outside
 * (0, 1] stops the service at start), wired as the anomaly recorder's source of scores; and the sweep that drops the
 * scores of sandboxes whose registration is gone.
 */
@ApplicationScoped
public class TunnellingLifecycle {
    private static final Logger LOG = Logger.getLogger(TunnellingLifecycle.class);

    private final SandboxRegistry sandboxes;
    private volatile TunnellingWatch watch;

    public TunnellingLifecycle(SandboxRegistry sandboxes) {
        this.sandboxes = sandboxes;
    }

    @Produces
    @Singleton
    TunnellingWatch watch(TrimusConfig config, RateLimitedAnomalyRecorder anomalies) {
        TunnellingSettings settings = config.egress().tunnelling();
        double threshold = settings.threshold();
        if (!(threshold > 0 && threshold <= 1)) {
            throw new IllegalStateException("TRIMUS_EGRESS_TUNNELLING_THRESHOLD must be above 0 and at most 1, got "
                    + threshold);
        }
        TunnellingWatch created = new TunnellingWatch(threshold, settings.action(), anomalies, System::nanoTime);
        anomalies.scoredBy(created);
        LOG.infof("names scored for tunnelling per sandbox and base domain: threshold %.2f, action %s", threshold,
                settings.action().name().toLowerCase(java.util.Locale.ROOT));
        watch = created;
        return created;
    }

    @Scheduled(every = "30s", delayed = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetGone() {
        TunnellingWatch current = watch;
        if (current != null) {
            current.forgetGone(sandboxes);
        }
    }
}
