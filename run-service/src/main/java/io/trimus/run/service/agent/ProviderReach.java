package io.trimus.run.service.agent;

import io.smallrye.mutiny.Uni;
import io.trimus.events.adapter.AdapterType;
import io.trimus.events.adapter.ProviderHost;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Whether a claude_sandbox / codex_sandbox agent can reach its provider's API host through its company's egress
 * allowlist, as warnings for the response that creates it: an agent is still created when it cannot (the allowlist may
 * be changed next), and when egress-service cannot be asked the warning says so. Never fails.
 */
@ApplicationScoped
public class ProviderReach {
    /** A bound above the allowlist call's own timeout, so a stuck call cannot hold the response. */
    private static final Duration AT_MOST = Duration.ofSeconds(10);

    private final EgressAllowlists allowlists;

    public ProviderReach(EgressAllowlists allowlists) {
        this.allowlists = allowlists;
    }

    /**
     * The warnings for an agent of {@code type} in {@code companyId}; empty when there is nothing to say. egress-service
     * is asked as the caller ({@code authorization}, the caller's own header), never with more rights.
     */
    public Uni<List<String>> warnings(UUID companyId, AdapterType type, String authorization) {
        String host = ProviderHost.of(type).orElse(null);
        if (host == null) {
            return Uni.createFrom().item(List.of());
        }
        return allowlists.entries(companyId, authorization)
                .map(entries -> ProviderHost.reachable(entries, host) ? List.<String>of()
                        : List.of(host + " is not on this company's egress allowlist: the agent cannot reach its"
                                + " provider"))
                .ifNoItem().after(AT_MOST).fail()
                .onFailure().recoverWithItem(failure -> List.of("the company's egress allowlist could not be checked ("
                        + reason(failure) + "): unless " + host + " is on it, the agent cannot reach its provider"));
    }

    private static String reason(Throwable failure) {
        if (failure instanceof EgressAllowlists.Unavailable) {
            return failure.getMessage();
        }
        if (failure instanceof io.smallrye.mutiny.TimeoutException) {
            return "egress-service did not answer within " + AT_MOST.toSeconds() + " s";
        }
        return "egress-service could not be asked";
    }
}
