package io.trimus.egress.sandbox;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.commons.rows.Rows;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.masks.RunMasks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * The rules of sandbox addresses: one run holds an address at a time, a registration is stored before the resolver's
 * {@link SandboxRegistry} learns it (so a restart reloads exactly what was confirmed), and only the run that holds an
 * address can give it up. The in-memory registry is updated before the caller gets its answer, so one adapter's
 * register-then-deregister reaches memory in that order.
 */
@ApplicationScoped
public class SandboxService {
    private static final Logger LOG = Logger.getLogger(SandboxService.class);

    private final SandboxRegistrationRepository registrations;
    private final SandboxRegistry registry;
    private final MaskedSecrets masked;
    private final Duration maxAge;

    @Inject
    SandboxService(SandboxRegistrationRepository registrations, SandboxRegistry registry, MaskedSecrets masked,
                   TrimusConfig config) {
        this.registrations = registrations;
        this.registry = registry;
        this.masked = masked;
        this.maxAge = config.egress().sandboxes().registrationMaxAge();
    }

    /** Registers {@code sandbox} without masked secrets; see {@link #register(Sandbox, RunMasks)}. */
    public Uni<Sandbox> register(Sandbox sandbox) {
        return register(sandbox, null);
    }

    /**
     * Registers {@code sandbox} at its address: a free address, or one its run already holds (idempotent; a missing
     * container id keeps the stored one). 409 when another live run holds the address. {@code masks} (null when the
     * run has none) are kept in memory only, the row merely marks the run as masked.
     */
    public Uni<Sandbox> register(Sandbox sandbox, RunMasks masks) {
        Sandbox before = registry.lookup(sandbox.ip()).orElse(null);
        return TenantTransactions.asCaller(() -> registrations.claim(sandbox, masks != null,
                        Instant.now().minus(maxAge)))
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
        return TenantTransactions.asCaller(() -> registrations.release(ip, runId)
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

    /** Replaces the in-memory registry with every stored registration; returns how many there are. */
    @TenantTransaction(Rows.ALL_COMPANIES)
    public Uni<Integer> loadIntoRegistry() {
        return registrations.all().map(rows -> {
            rows.stream().filter(row -> row.masked).forEach(row -> masked.expect(row.ip, row.runId));
            registry.load(rows.stream().map(RegisteredSandbox::toSandbox).toList());
            LOG.infof("Loaded %d sandbox registrations", rows.size());
            return rows.size();
        });
    }
}
