package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.auth.Caller;
import io.trimus.events.auth.CompanyRole;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.agent.AgentRepository;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.company.CompanyService;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * API tokens for automation: a company's (one role in it) or the platform's (operator). A token's value exists only in
 * the answer that creates it; revocation counts from the next request.
 */
@ApplicationScoped
public class TokenService {
    static final int MAX_NAME_CHARS = 100;
    private static final Duration MAX_LIFETIME = Duration.ofDays(3660);

    private final CredentialRepository credentials;
    private final AgentRepository agents;
    private final CompanyService companies;
    private final TrimusConfig config;
    private final AuditLog audit;

    TokenService(CredentialRepository credentials, CompanyService companies, AgentRepository agents,
                 TrimusConfig config, AuditLog audit) {
        this.credentials = credentials;
        this.agents = agents;
        this.audit = audit;
        this.companies = companies;
        this.config = config;
    }

    /** A token just made: its record and, this once, its value. */
    public record IssuedToken(Credential credential, String secret) {
    }

    /**
     * Makes a token for the company with the role; with {@code a2aAgents}, an A2A-only token: a member that may call
     * the A2A endpoints of those agents of the company and nothing else. 400 naming the field at fault, 409 past the
     * company's quota.
     */
    @TenantTransaction
    public Uni<IssuedToken> createForCompany(UUID companyId, String name, String role, Instant expiresAt,
                                             List<UUID> a2aAgents, Caller by) {
        CompanyRole parsed = role == null && a2aAgents != null ? CompanyRole.MEMBER : CompanyRole.parse(role)
                .orElseThrow(() -> ProblemException.invalid("role", "must be admin, member or viewer"));
        Credential token = newToken(name, parsed.wireName(), expiresAt, by);
        token.companyId = companyId;
        if (a2aAgents != null) {
            if (parsed != CompanyRole.MEMBER) {
                throw ProblemException.invalid("role", "an A2A-only token (a2a_agents) acts as a member: A2A calls"
                        + " start runs; leave role out or send member");
            }
            if (a2aAgents.isEmpty() || a2aAgents.size() > MAX_A2A_AGENTS) {
                throw ProblemException.invalid("a2a_agents", "must name 1 to " + MAX_A2A_AGENTS + " agents");
            }
            token.a2aAgents = new LinkedHashSet<>(a2aAgents).stream().map(UUID::toString)
                    .collect(Collectors.joining(","));
        }
        return companies.get(companyId).call(company -> knownAgents(companyId, a2aAgents))
                .flatMap(company -> credentials.tokensOf(companyId))
                .flatMap(existing -> {
                    long active = existing.stream().filter(t -> t.isActive(Instant.now())).count();
                    if (active >= config.auth().maxCompanyTokens()) {
                        return Uni.createFrom().failure(ProblemException.conflict("company " + companyId + " holds "
                                + active + " active tokens, the most allowed (TRIMUS_AUTH_MAX_COMPANY_TOKENS): revoke"
                                + " one first"));
                    }
                    return persist(token);
                })
                .call(issued -> audited(AuditRecord.TOKEN_CREATED, issued.credential()));
    }

    /** The most agents one A2A-only token names. */
    public static final int MAX_A2A_AGENTS = 20;

    /** 400 naming a2a_agents when one of them is not an agent of the company. */
    private Uni<Void> knownAgents(UUID companyId, List<UUID> a2aAgents) {
        if (a2aAgents == null) {
            return Uni.createFrom().voidItem();
        }
        return agents.inCompany(companyId, a2aAgents).invoke(found -> {
            Set<UUID> known = found.stream().map(agent -> agent.id).collect(Collectors.toSet());
            a2aAgents.stream().filter(id -> !known.contains(id)).findFirst().ifPresent(id -> {
                throw ProblemException.invalid("a2a_agents", "agent " + id + " is not an agent of company "
                        + companyId);
            });
        }).replaceWithVoid();
    }

    /** Makes an operator token. */
    @TenantTransaction
    public Uni<IssuedToken> createForOperator(String name, Instant expiresAt, Caller by) {
        return persist(newToken(name, Credential.OPERATOR_ROLE, expiresAt, by))
                .call(issued -> audited(AuditRecord.TOKEN_CREATED, issued.credential()));
    }

    /** The company's tokens, revoked and expired ones included. */
    @TenantTransaction
    public Uni<List<Credential>> listOfCompany(UUID companyId) {
        return companies.get(companyId).flatMap(company -> credentials.tokensOf(companyId));
    }

    /** The operator tokens, revoked and expired ones included. */
    @TenantTransaction
    public Uni<List<Credential>> listOfOperators() {
        return credentials.operatorTokens();
    }

    /** Revokes the company's token; 404 when it is not one of the company's. Revoking twice changes nothing. */
    @TenantTransaction
    public Uni<Credential> revokeOfCompany(UUID companyId, UUID tokenId) {
        return credentials.tokenOf(companyId, tokenId).flatMap(this::revoke)
                .call(token -> audited(AuditRecord.TOKEN_REVOKED, token));
    }

    /** Revokes an operator token; 404 when there is none with the id. */
    @TenantTransaction
    public Uni<Credential> revokeOfOperators(UUID tokenId) {
        return credentials.operatorToken(tokenId).flatMap(this::revoke)
                .call(token -> audited(AuditRecord.TOKEN_REVOKED, token));
    }

    private Uni<Credential> revoke(Credential token) {
        if (token == null) {
            return Uni.createFrom().failure(new ProblemException(404, "Not found", "no such token", null));
        }
        if (token.revokedAt == null) {
            token.revokedAt = Instant.now();
        }
        return Uni.createFrom().item(token);
    }

    /** The token's name, role and expiry; never its value (nor its hash). */
    private Uni<AuditRecord> audited(String action, Credential token) {
        return audit.record(token.companyId, action, new AuditRecord.Target("token", token.id.toString(), token.name),
                AuditLog.details("role", token.role, "expires_at", token.expiresAt == null ? null
                        : token.expiresAt.toString(), "a2a_agents", token.a2aAgents));
    }

    private Uni<IssuedToken> persist(Credential token) {
        String secret = BearerSecrets.generate(BearerSecrets.TOKEN_PREFIX);
        token.secretHash = BearerSecrets.hash(secret);
        return credentials.persist(token).map(saved -> new IssuedToken(saved, secret));
    }

    private static Credential newToken(String name, String role, Instant expiresAt, Caller by) {
        Credential token = new Credential();
        token.id = UUID.randomUUID();
        token.kind = Credential.TOKEN;
        token.name = checkedName(name);
        token.role = role;
        token.createdBy = by.describe();
        token.createdAt = Instant.now();
        token.expiresAt = checkedExpiry(expiresAt, token.createdAt);
        return token;
    }

    static String checkedName(String name) {
        String trimmed = name == null ? "" : name.strip();
        if (trimmed.isEmpty() || trimmed.length() > MAX_NAME_CHARS
                || !trimmed.chars().allMatch(c -> c >= 0x20 && c != 0x7f)) {
            throw ProblemException.invalid("name", "must be 1 to " + MAX_NAME_CHARS + " printable characters");
        }
        return trimmed;
    }

    private static Instant checkedExpiry(Instant expiresAt, Instant now) {
        if (expiresAt == null) {
            return null;
        }
        if (!expiresAt.isAfter(now)) {
            throw ProblemException.invalid("expires_at", "must be in the future");
        }
        if (expiresAt.isAfter(now.plus(MAX_LIFETIME))) {
            throw ProblemException.invalid("expires_at", "must be within 10 years");
        }
        return expiresAt;
    }
}
