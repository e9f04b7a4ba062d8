package io.trimus.egress.sandbox.replica;

import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.masks.MaskOpener;
import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.registration.RegisteredSandbox;
import org.jboss.logging.Logger;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One replica's in-memory copy of the stored registrations: the {@link SandboxRegistry} the resolver and the proxy
 * read, and the {@link MaskedSecrets} of masked runs, opened from the sealed copy in the row. A masked sandbox is
 * marked as waiting for its masks before it is attributed, so the proxy never sees it attributed with masks unknown:
 * until they are opened its connections are refused (masks_pending), never tunnelled unswapped.
 */
public final class RegistryReplica {
    private static final Logger LOG = Logger.getLogger(RegistryReplica.class);

    private final SandboxRegistry registry;
    private final MaskedSecrets masked;
    private final MaskOpener opener;

    public RegistryReplica(SandboxRegistry registry, MaskedSecrets masked, MaskOpener opener) {
        this.registry = registry;
        this.masked = masked;
        this.opener = opener;
    }

    /** The registry this replica attributes by. */
    public SandboxRegistry registry() {
        return registry;
    }

    /** The masked secrets this replica holds. */
    public MaskedSecrets masked() {
        return masked;
    }

    /** Makes {@code rows} the whole registry, opening the masks of masked runs not held yet; returns their number. */
    public int install(List<RegisteredSandbox> rows) {
        Map<String, UUID> kept = new HashMap<>();
        for (RegisteredSandbox row : rows) {
            kept.put(row.ip, row.runId);
            if (row.masked && masked.of(row.ip, row.runId).isEmpty()) {
                masked.expect(row.ip, row.runId);
                openSealed(row);
            }
        }
        masked.retainOnly(kept);
        registry.load(rows.stream().map(RegisteredSandbox::toSandbox).toList());
        return rows.size();
    }

    /**
     * Applies one announced change.
     *
     * @return true when the sandbox is masked and its masks are not held: read its row and {@link #open} them
     */
    public boolean apply(RegistrationChange change) {
        Sandbox sandbox = change.sandbox();
        if (change.delete()) {
            registry.deregister(sandbox.ip(), sandbox.runId());
            masked.drop(sandbox.ip(), sandbox.runId());
            return false;
        }
        Sandbox before = registry.lookup(sandbox.ip()).orElse(null);
        if (before != null && !before.runId().equals(sandbox.runId())) {
            masked.drop(before.ip(), before.runId());
        }
        boolean fetch = change.masked() && masked.of(sandbox.ip(), sandbox.runId()).isEmpty();
        if (fetch) {
            masked.expect(sandbox.ip(), sandbox.runId());
        }
        registry.register(sandbox);
        return fetch;
    }

    /**
     * Opens the sealed masks of {@code row} if its run still holds the address here; masks that do not open (this
     * replica has no TRIMUS_ENCRYPTION_KEY, or another one) leave the sandbox waiting, its connections refused.
     */
    public void open(RegisteredSandbox row) {
        Sandbox holder = row == null ? null : registry.lookup(row.ip).orElse(null);
        if (holder != null && holder.runId().equals(row.runId)) {
            openSealed(row);
        }
    }

    private void openSealed(RegisteredSandbox row) {
        if (!row.masked || row.sealedMasks == null) {
            return;
        }
        try {
            masked.put(row.ip, opener.open(row.runId, row.ip, row.sealedMasks, row.masksCa));
        } catch (ProblemException e) {
            LOG.warnf("The masked secrets of run %s at sandbox %s cannot be opened by this egress-service (%s): its"
                    + " connections are refused (masks_pending) until they can", row.runId, row.ip, e.getMessage());
        }
    }
}
