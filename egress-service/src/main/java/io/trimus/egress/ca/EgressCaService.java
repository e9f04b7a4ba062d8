package io.trimus.egress.ca;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.audit.AuditOutbox;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.events.AuditRecord;
import io.trimus.events.secrets.SecretBox;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The egress CA of this deployment: the active one, created at first start (by whichever replica stores it first), any
 * stored one by fingerprint (retired ones too, so sandboxes started before a rotation keep being served by the CA
 * they trust), and rotation. Private keys are stored sealed under TRIMUS_ENCRYPTION_KEY; an opened CA is kept in
 * memory. Without that key the service still starts, and every call here fails with 503.
 */
@ApplicationScoped
public class EgressCaService {
    static final String NO_KEY =
            "egress-service has no TRIMUS_ENCRYPTION_KEY: masked secrets and the egress CA need it";
    private static final Logger LOG = Logger.getLogger(EgressCaService.class);
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

    private final Optional<CaKeySeal> seal;
    private final EgressCaRepository repository;
    private final LeafPolicy policy;
    private final Clock clock;
    private final Vertx vertx;
    private final Map<String, EgressAuthority> opened = new ConcurrentHashMap<>();
    @Inject
    AuditOutbox audit;

    @Inject
    EgressCaService(EgressKeys keys, EgressCaRepository repository, TrimusConfig config, Vertx vertx) {
        this(keys, repository, LeafPolicy.of(config), Clock.systemUTC(), vertx);
    }

    EgressCaService(EgressKeys keys, EgressCaRepository repository, LeafPolicy policy, Clock clock, Vertx vertx) {
        this.seal = keys.encryptionKey().map(CaKeySeal::new);
        this.repository = repository;
        this.policy = policy;
        this.clock = clock;
        this.vertx = vertx;
    }

    void onStart(@Observes StartupEvent start) {
        if (seal.isEmpty()) {
            LOG.warn(NO_KEY + " (set it to run-service's value); the CA endpoints answer 503 until then");
            return;
        }
        try {
            EgressAuthority active = VertxContextSupport.subscribeAndAwait(() -> current()
                    .ifNoItem().after(STARTUP_TIMEOUT).fail());
            LOG.infof("Egress CA %s is active", active.fingerprint());
        } catch (Throwable e) {
            // not fatal: the allowlist, DNS and plain tunnels need no CA, and the next call tries again
            LOG.warnf("The egress CA is not available: %s", e.getMessage());
        }
    }

    /**
     * The active CA, created and stored if there is none yet. Reads the database on every call, so a rotation by
     * another replica is seen at once; a hot path (the proxy, per connection) looks a sandbox's CA up with
     * {@link #byFingerprint}, answered from memory once opened.
     */
    public Uni<EgressAuthority> current() {
        return seal().flatMap(seal -> inDatabase(() -> TenantTransactions.acrossCompanies(() -> repository.active()
                        .flatMap(row -> row != null ? Uni.createFrom().item(row) : createActive(seal))))
                .map(row -> open(row, seal)));
    }

    /**
     * The stored CA with this fingerprint (64 lower-case hex digits), active or retired; empty when there is none
     * (or the text is no fingerprint).
     */
    public Uni<Optional<EgressAuthority>> byFingerprint(String fingerprint) {
        return seal().flatMap(seal -> {
            if (fingerprint == null || !FINGERPRINT.matcher(fingerprint).matches()) {
                return Uni.createFrom().item(Optional.empty());
            }
            EgressAuthority known = opened.get(fingerprint);
            if (known != null) {
                return Uni.createFrom().item(Optional.of(known));
            }
            return inDatabase(() -> TenantTransactions.acrossCompanies(() -> repository.findById(fingerprint)))
                    .map(row -> Optional.ofNullable(row).map(found -> open(found, seal)));
        });
    }

    /** Creates a new active CA; the one it replaces is kept, retired (its sandboxes still trust it). */
    public Uni<EgressAuthority> rotate(AuditOutbox.Stamp by) {
        return seal().flatMap(seal -> {
            StoredAuthority next = newAuthority(seal);
            return inDatabase(() -> TenantTransactions.acrossCompanies(() -> repository.retireActive(now())
                            .flatMap(retired -> repository.insertIfNoneActive(next))
                            .flatMap(inserted -> inserted ? Uni.createFrom().item(next) : repository.active())
                            .call(active -> audit.add(by.record(null, AuditRecord.EGRESS_CA_ROTATED,
                                    new AuditRecord.Target("egress_ca", active.fingerprint, null),
                                    Map.of("fingerprint", active.fingerprint))))))
                    .invoke(row -> LOG.infof("Egress CA rotated: %s is active", row.fingerprint))
                    .map(row -> open(row, seal));
        });
    }

    /** Every stored CA, newest first. */
    public Uni<List<AuthoritySummary>> authorities() {
        return seal().flatMap(seal -> inDatabase(() -> TenantTransactions.acrossCompanies(repository::newestFirst)))
                .map(rows -> rows.stream().map(AuthoritySummary::of).toList());
    }

    private Uni<StoredAuthority> createActive(CaKeySeal seal) {
        StoredAuthority fresh = newAuthority(seal);
        return repository.insertIfNoneActive(fresh).flatMap(inserted -> {
            if (inserted) {
                LOG.infof("Created the egress CA %s", fresh.fingerprint);
                return Uni.createFrom().item(fresh);
            }
            return repository.active();     // another replica stored one first: that one it is
        }).onItem().ifNull().failWith(() -> new IllegalStateException("no active egress CA after creating one"));
    }

    private StoredAuthority newAuthority(CaKeySeal seal) {
        CaCertificates.Issued issued = CaCertificates.newAuthority(clock.instant());
        StoredAuthority row = new StoredAuthority();
        row.fingerprint = CaCertificates.fingerprint(issued.certificate());
        row.certificatePem = Pem.certificate(issued.certificate());
        row.keyCiphertext = seal.seal(issued.keys().getPrivate(), row.fingerprint);
        row.createdAt = now();
        return row;
    }

    private EgressAuthority open(StoredAuthority row, CaKeySeal seal) {
        return opened.computeIfAbsent(row.fingerprint, fingerprint -> {
            X509Certificate certificate = Pem.readCertificate(row.certificatePem);
            if (!CaCertificates.fingerprint(certificate).equals(fingerprint)) {
                throw unavailable("the stored egress CA " + fingerprint + " does not match its certificate");
            }
            PrivateKey key;
            try {
                key = seal.open(row.keyCiphertext, fingerprint);
            } catch (SecretBox.WrongKeyException e) {
                throw unavailable("the egress CA " + fingerprint + " does not open with this TRIMUS_ENCRYPTION_KEY"
                        + " (it was stored under another key): restore that key, or rotate the CA with"
                        + " POST /api/egress/ca/rotation");
            }
            return new EgressAuthority(certificate, key, row.createdAt, policy, clock);
        });
    }

    private Uni<CaKeySeal> seal() {
        return seal.map(s -> Uni.createFrom().item(s)).orElseGet(() -> Uni.createFrom().failure(unavailable(NO_KEY)));
    }

    // Hibernate Reactive wants a safe Vert.x sub-context; the proxy's handlers and plain threads are not on one
    private <T> Uni<T> inDatabase(Supplier<Uni<T>> work) {
        Context current = Vertx.currentContext();
        if (current != null && VertxContext.isDuplicatedContext(current)
                && VertxContextSafetyToggle.isExplicitlyMarkedAsSafe(current)) {
            return Uni.createFrom().deferred(work::get);
        }
        Context context = VertxContext.createNewDuplicatedContext(
                current != null ? current : vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        return Uni.createFrom().emitter(emitter -> context.runOnContext(ignored -> Uni.createFrom().deferred(work::get)
                .subscribe().with(emitter::complete, emitter::fail)));
    }

    // PostgreSQL keeps microseconds: the instant handed out is the one read back
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static ProblemException unavailable(String detail) {
        return new ProblemException(503, "Service Unavailable", detail, null);
    }
}
