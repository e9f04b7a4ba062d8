package io.trimus.commons.access;

import io.trimus.events.auth.CompanyRole;

import java.util.Arrays;
import java.util.Optional;

/**
 * Who may call an endpoint: the "who" column of docs/access.md, one value per endpoint, enforced by
 * {@link AccessFilter}. The company levels check the caller's role in the company the request names (path parameter
 * {@code company_id}, else query parameter {@code company_id}); an operator passes every level but {@link #SERVICE}.
 */
public enum Access {
    /** No credential needed (sign-in itself, health). */
    ANYONE("anyone", null),
    /** Any valid credential; what it answers depends on the caller (e.g. only its own companies). */
    SIGNED_IN("signed-in", null),
    /** Any role in the company. */
    VIEWER("viewer", CompanyRole.VIEWER),
    /** {@code member} or {@code admin} of the company. */
    MEMBER("member", CompanyRole.MEMBER),
    /** {@code admin} of the company. */
    ADMIN("admin", CompanyRole.ADMIN),
    /**
     * A published agent's A2A endpoint: {@code member} or {@code admin} of the company, or an A2A-only token that names
     * the agent (the path's {@code agent_id}); the one level such a token passes.
     */
    A2A("a2a", CompanyRole.MEMBER),
    /** The platform's operators only. */
    OPERATOR("operator", null),
    /** Trimus's own services only (the service credential); never a tenant, token or user. */
    SERVICE("service", null);

    private final String label;
    private final CompanyRole companyRole;

    Access(String label, CompanyRole companyRole) {
        this.label = label;
        this.companyRole = companyRole;
    }

    /** The word docs/access.md uses. */
    public String label() {
        return label;
    }

    /** The least company role the level needs, for company levels. */
    public Optional<CompanyRole> companyRole() {
        return Optional.ofNullable(companyRole);
    }

    /** The level docs/access.md calls {@code label}. */
    public static Optional<Access> ofLabel(String label) {
        return Arrays.stream(values()).filter(a -> a.label.equals(label)).findFirst();
    }
}
