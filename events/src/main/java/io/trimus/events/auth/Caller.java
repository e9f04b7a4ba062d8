package io.trimus.events.auth;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Who a bearer credential speaks for, as run-service's {@code GET /api/me} answers it and every service checks it: a
 * signed-in user (its session) or an API token, whether it acts for the platform ({@code operator}) and its role in
 * each company it belongs to. A user's companies are read when the credential is presented, so a changed membership
 * or a revoked token counts at once.
 *
 * @param kind       {@code user} for a signed-in user's session, {@code token} for an API token
 * @param id         the user's id, or the token's id
 * @param name       the user's email, or the token's name
 * @param operator   true when the caller acts for the platform: every company, workers, images, global settings
 * @param companies  the caller's role in each company it belongs to
 * @param a2aAgents  for an A2A-only token, the agents whose A2A endpoints it may call, and nothing else (no other
 *                   endpoint of any service); empty for every other credential
 */
public record Caller(String kind, UUID id, String name, boolean operator, List<Membership> companies,
                     List<UUID> a2aAgents) {
    /** {@link #kind()} of a signed-in user. */
    public static final String USER = "user";
    /** {@link #kind()} of an API token. */
    public static final String TOKEN = "token";

    public Caller {
        Objects.requireNonNull(kind, "kind");
        companies = companies == null ? List.of() : List.copyOf(companies);
        a2aAgents = a2aAgents == null ? List.of() : List.copyOf(a2aAgents);
    }

    /** A caller that may call every endpoint its roles allow. */
    public Caller(String kind, UUID id, String name, boolean operator, List<Membership> companies) {
        this(kind, id, name, operator, companies, List.of());
    }

    /** Whether this is an A2A-only token: it may call the A2A endpoints of {@link #a2aAgents()} and nothing else. */
    @JsonIgnore
    public boolean a2aOnly() {
        return !a2aAgents.isEmpty();
    }

    /** The caller's role in one company. */
    public record Membership(UUID companyId, CompanyRole role) {
    }

    /** The caller's own role in {@code company}, if it belongs to it (operators hold none unless they are members). */
    public Optional<CompanyRole> roleIn(UUID company) {
        return companies.stream().filter(m -> m.companyId().equals(company)).map(Membership::role).findFirst();
    }

    /**
     * True when the caller may act in {@code company} with at least {@code needed}: an operator always may, an A2A-only
     * token never (its one right is checked where the A2A endpoint is served).
     */
    public boolean may(UUID company, CompanyRole needed) {
        return !a2aOnly() && (operator || roleIn(company).map(role -> role.covers(needed)).orElse(false));
    }

    /** The caller in audit records and logs: {@code user alice@example.com} or {@code token ci-bot (uuid)}. */
    @JsonIgnore
    public String describe() {
        return USER.equals(kind) ? "user " + name : "token " + name + " (" + id + ")";
    }
}
