package io.trimus.admin.client;

import io.trimus.admin.client.EgressServiceApi.Policy;
import io.trimus.admin.client.EgressServiceApi.PolicyBody;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;
import java.util.UUID;

/**
 * A company's egress mode as egress-service keeps it: {@code enforce} (hosts off the allowlist denied) or
 * {@code report} (let through and recorded). A mode other than these two is refused here, before any call.
 */
@ApplicationScoped
public class EgressPolicies {
    /** The modes egress-service knows. */
    public static final Set<String> MODES = Set.of("enforce", "report");

    private final Backends backends;
    private final EgressServiceApi egress;

    EgressPolicies(Backends backends, EgressServiceApi egress) {
        this.backends = backends;
        this.egress = egress;
    }

    /** The company's policy; a company that never chose one is in enforce mode. */
    public Policy read(UUID companyId) {
        return backends.call(Backend.EGRESS_SERVICE, auth -> egress.policy(auth, companyId));
    }

    /** Switches the company to {@code mode}; a {@link BackendException} of kind REFUSED for any other word. */
    public Policy switchTo(UUID companyId, String mode) {
        if (mode == null || !MODES.contains(mode)) {
            throw new BackendException(Backend.EGRESS_SERVICE, BackendException.Kind.REFUSED,
                    "Choose a mode: enforce or report.", "mode", null);
        }
        return backends.call(Backend.EGRESS_SERVICE, auth -> egress.replacePolicy(auth, companyId, new PolicyBody(mode)));
    }
}
