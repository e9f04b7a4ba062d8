package io.trimus.events.adapter;

import java.util.Objects;

/**
 * One company secret an agent's runs take along, sealed into run.requested by the role it plays so the adapter needs
 * no secret names.
 *
 * @param secretName the company secret
 * @param sealedAs   its key among the run's sealed secrets (a CLI's provider key variable, or
 *                   {@link LambdaAdapterConfig#AUTH_HEADER_SECRET})
 * @param required   whether a run may not start without it
 * @param role       what it is for, in words for the error a person sees when it is missing ("its ANTHROPIC_API_KEY")
 */
public record SecretNeed(String secretName, String sealedAs, boolean required, String role) {
    public SecretNeed {
        Objects.requireNonNull(secretName, "secretName");
        Objects.requireNonNull(sealedAs, "sealedAs");
        Objects.requireNonNull(role, "role");
    }
}
