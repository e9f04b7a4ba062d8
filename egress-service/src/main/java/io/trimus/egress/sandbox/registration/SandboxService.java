package io.trimus.egress.sandbox.registration;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The rules of sandbox addresses: one run holds an address at a time, a registration is stored before the resolver's
 * {@link SandboxRegistry} learns it (so a restart reloads exactly what was confirmed), and only the run that holds an
 * address can give it up. This replica's registry is updated before the caller gets its answer, so one adapter's
 * register-then-deregister reaches memory in that order; the other replicas learn each change from the database
 * ({@link io.trimus.egress.sandbox.replica.RegistrationFeed}).
 */
@ApplicationScoped
public class SandboxService {
    private static final Logger LOG = Logger.getLogger(SandboxService.class);

    private final SandboxRegistrationRepository registrations;
    private final SandboxRegistry registry;
    private final MaskedSecrets masked;
    private final String origin;
    private final Duration maxAge;

    @Inject
    SandboxService(SandboxRegistrationRepository registrations, SandboxRegistry registry, MaskedSecrets masked,
                   ReplicaOrigin origin, TrimusConfig config) {
        this.registrations = registrations;
        this.registry = registry;
        this.masked = masked;
        this.origin = origin.id();
        this.maxAge = config.egress().sandboxes().registrationMaxAge();
    }

    /** Registers {@code sandbox} without masked secrets; see {@link #register(Sandbox, RunMasks, SealedMasks)}. */
    public Uni<Sandbox> register(Sandbox sandbox) {
        return register(sandbox, null, null);
    }

    /**
     * Registers {@code sandbox} at its address: a free address, or one its run already holds (idempotent; a missing
     * container id keeps the stored one). 409 when another live run holds the address. {@code masks} (null when the
     * run has none) are held in memory opened, and stored only as {@code sealed}, as they arrived, for the other
     * replicas. Every replica learns the change from the database's announcement of it.
     */
    public Uni<Sandbox> register(Sandbox sandbox, RunMasks masks, SealedMasks sealed) {
        if ((masks == null) != (sealed == null)) {
            throw new IllegalArgumentException("opened masks go with the sealed text they were opened from");
        }
        Sandbox before = registry.lookup(sandbox.ip()).orElse(null);
        return TenantTransactions.asCaller(() -> registrations.markOrigin(origin)
                        .chain(() -> registrations.claim(sandbox, sealed, Instant.now().minus(maxAge))))
                .onItem().ifNull().failWith(() -> ProblemException.conflict("sandbox address " + sandbox.ip()
                        + " is held by another run; deregister it with that run's id, or register another address"))
                .invoke(row -> {
                    if (masks != null) {
                        masked.put(row.ip, masks);
                    } else if (row.masked) {
                        masked.expect(row.ip, row.runId);
                    }
                })
                .map(RegisteredSandbox::toSandbox)
                .invoke(stored -> {
                    registry.register(stored);
                    if (before != null && !before.runId().equals(stored.runId())) {
                        LOG.warnf("Sandbox address %s was registered to run %s for longer than %s: run %s takes it"
                                + " over", stored.ip(), before.runId(), maxAge, stored.runId());
                    }
                });
    }

    /** Gives up the address {@code ip} held by {@code runId}: 404 when nothing holds it, 409 when another run does. */
    public Uni<Void> deregister(String ip, UUID runId) {
        return TenantTransactions.asCaller(() -> registrations.markOrigin(origin)
                        .chain(() -> registrations.release(ip, runId))
                        .call(released -> released ? Uni.createFrom().voidItem() : registrations.findById(ip)
                                .invoke(holder -> {
                                    throw holder == null
                                            ? ProblemException.notFound("sandbox at", ip)
                                            : ProblemException.conflict("sandbox address " + ip + " is held by"
                                            + " another run than " + runId + "; only the run that holds it can"
                                            + " deregister it");
                                })))
                .invoke(() -> {
                    registry.deregister(ip, runId);
                    masked.drop(ip, runId);
                })
                .replaceWithVoid();
    }
}
