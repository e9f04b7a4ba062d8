package io.trimus.run.service.identity.oidc;

import io.trimus.events.auth.CompanyRole;

import java.util.Map;
import java.util.UUID;

/** What an identity provider grants a person: the operator flag and one role per company (the strongest named). */
public record Grants(boolean operator, Map<UUID, CompanyRole> companies) {

    /** Whether the provider grants no Trimus role at all. */
    public boolean none() {
        return !operator && companies.isEmpty();
    }

    /** The grants without the companies Trimus does not know. */
    public Grants within(java.util.Set<UUID> known) {
        Map<UUID, CompanyRole> kept = new java.util.HashMap<>(companies);
        kept.keySet().retainAll(known);
        return new Grants(operator, Map.copyOf(kept));
    }
}
