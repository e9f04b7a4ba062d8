package io.trimus.egress.canary;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.RowVisibility;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryResult;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A company's canaries: started (one running at a time per company, whichever replica asks), asked of an adapter
 * service over Kafka, ended with the result that comes back (or as failed when none comes within
 * TRIMUS_EGRESS_CANARY_TIMEOUT), and read back newest first. A breached result raises {@code canary_breach}.
 */
@ApplicationScoped
public class CanaryService {
    private static final Logger LOG = Logger.getLogger(CanaryService.class);
    /** Canaries a read returns: the latest and up to this many minus one before it. */
    public static final int HISTORY = 21;

    private final CanaryRepository canaries;
    private final CanaryTargets targets;
    private final CanaryRequests requests;
    private final CanaryBreaches breaches;
    private final ObjectMapper json;
    private final Duration timeout;

    CanaryService(CanaryRepository canaries, CanaryTargets targets, CanaryRequests requests, CanaryBreaches breaches,
                  ObjectMapper json, TrimusConfig config) {
        this.canaries = canaries;
        this.targets = targets;
        this.requests = requests;
        this.breaches = breaches;
        this.json = json;
        this.timeout = config.egress().canary().timeout();
    }

    /** A canary and whether this call started it. */
    public record Started(Canary canary, boolean fresh) {
    }

    /**
     * Starts a canary for the company, unless one is running: then that one. The request goes to the broker once
     * the row is committed; a broker that does not take it ends the canary failed, saying why.
     */
    public Uni<Started> start(UUID companyId, String trigger) {
        UUID id = UUID.randomUUID();
        return inCompany(companyId, () -> canaries.claim(id, companyId, trigger)
                .flatMap(claimed -> claimed != null ? Uni.createFrom().item(new Started(claimed, true))
                        : canaries.running(companyId).map(running -> new Started(running, false))))
                .call(started -> started.fresh() ? ask(started.canary()) : Uni.createFrom().voidItem());
    }

    private Uni<Void> ask(Canary canary) {
        return Uni.createFrom().deferred(() -> requests.send(targets.request(canary.id, canary.companyId)))
                .invoke(() -> LOG.infof("Canary %s of company %s asked for (%s)", canary.id, canary.companyId,
                        canary.trigger))
                .onFailure().call(e -> {
                    String error = "the canary request could not be published: " + e.getMessage();
                    canary.status = Canary.FAILED;
                    canary.error = error;
                    canary.finishedAt = Instant.now();
                    return inCompany(canary.companyId, () -> canaries.finish(canary.id, canary.companyId,
                            Canary.FAILED, null, error, null, canary.finishedAt));
                })
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** The company's latest canary and the ones before it, newest first (at most {@link #HISTORY}). */
    public Uni<List<Canary>> newest(UUID companyId) {
        return TenantTransactions.asCaller(() -> canaries.newest(companyId, HISTORY));
    }

    /**
     * Ends the canary a result answers (once: a second result, or one for a canary that timed out, changes nothing)
     * and raises {@code canary_breach} for each check that got through.
     */
    public Uni<Boolean> complete(CanaryResult result) {
        CanaryOutcome outcome = CanaryOutcome.of(result);
        Instant finished = result.finishedAt() == null ? Instant.now() : result.finishedAt();
        return inCompany(result.companyId(), () -> canaries.finish(result.canaryId(), result.companyId(),
                        outcome.status(), checksJson(outcome.checks()), outcome.error(), cut(result.instance()),
                        finished))
                .invoke(ended -> {
                    if (!ended) {
                        LOG.infof("Ignored a result for canary %s: it is not running (ended already, or unknown)",
                                result.canaryId());
                        return;
                    }
                    LOG.infof("Canary %s of company %s %s%s", result.canaryId(), result.companyId(), outcome.status(),
                            outcome.error() == null ? "" : ": " + outcome.error());
                    if (!outcome.breaches().isEmpty()) {
                        breaches.raise(result, outcome.breaches());
                    }
                });
    }

    /** Ends the canaries that got no result within the timeout as failed; how many. */
    public Uni<Integer> expire() {
        String error = "no adapter service reported a result within " + timeout.toSeconds()
                + " s (TRIMUS_EGRESS_CANARY_TIMEOUT): is one running, with its Docker engine and the probe image?";
        return TenantTransactions.acrossCompanies(() -> canaries.expire(Instant.now().minus(timeout), error));
    }

    /** The checks of a stored canary, as the adapter reported them. */
    public List<CanaryCheck> checks(Canary canary) {
        if (canary.checks == null) {
            return List.of();
        }
        try {
            return List.of(json.readValue(canary.checks, CanaryCheck[].class));
        } catch (JsonProcessingException e) {
            LOG.warnf("Canary %s has unreadable checks: %s", canary.id, e.getMessage());
            return List.of();
        }
    }

    private String checksJson(List<CanaryCheck> checks) {
        try {
            return json.writeValueAsString(checks);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write canary checks", e);
        }
    }

    private static String cut(String text) {
        return text == null || text.length() <= 200 ? text : text.substring(0, 200);
    }

    private static <T> Uni<T> inCompany(UUID companyId, java.util.function.Supplier<Uni<T>> work) {
        return TenantTransactions.within(RowVisibility.of(Set.of(companyId)), work);
    }
}
