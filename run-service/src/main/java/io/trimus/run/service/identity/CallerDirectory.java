package io.trimus.run.service.identity;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.rows.TenantTransactions;
import io.trimus.commons.access.Credentials;
import io.trimus.events.auth.Caller;
import io.trimus.events.auth.CompanyRole;
import io.trimus.events.auth.ServiceCredential;
import io.trimus.events.secrets.EncryptionKey;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.identity.Credential;
import io.trimus.run.repository.identity.CredentialRepository;
import io.trimus.run.repository.identity.MembershipRepository;
import io.trimus.run.repository.identity.UserAccountRepository;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * run-service's answer to "who is this credential": reads the credential, and for a session its user's current
 * memberships, from run-service's own tables at every request, so a revoked token or a changed role counts at once.
 * {@code GET /api/me} serves the same answer to the other services.
 */
@ApplicationScoped
public class CallerDirectory implements Credentials {
    private static final Duration LAST_USE_RESOLUTION = Duration.ofMinutes(1);

    private final CredentialRepository credentials;
    private final UserAccountRepository users;
    private final MembershipRepository memberships;
    private final Optional<ServiceCredential> service;

    CallerDirectory(CredentialRepository credentials, UserAccountRepository users, MembershipRepository memberships,
                    TrimusConfig config) {
        this.credentials = credentials;
        this.users = users;
        this.memberships = memberships;
        this.service = config.encryptionKey().filter(k -> !k.isBlank())
                .map(k -> ServiceCredential.of(EncryptionKey.parse(k)));
    }

    @Override
    public Uni<Caller> caller(String secret) {
        Instant now = Instant.now();
        return TenantTransactions.acrossCompanies(() -> credentials.findByHash(BearerSecrets.hash(secret))
                .flatMap(credential -> credential == null || !credential.isActive(now)
                        || Credential.SETUP.equals(credential.kind) ? Uni.createFrom().nullItem()
                        : touch(credential, now).flatMap(used -> callerOf(used))));
    }

    @Override
    public boolean isService(String secret) {
        return service.map(credential -> credential.matches(secret)).orElse(false);
    }

    /** The caller of an active credential (joins the current session). */
    Uni<Caller> callerOf(Credential credential) {
        if (Credential.TOKEN.equals(credential.kind)) {
            boolean operator = Credential.OPERATOR_ROLE.equals(credential.role);
            List<Caller.Membership> companies = operator ? List.of() : List.of(new Caller.Membership(
                    credential.companyId, CompanyRole.parse(credential.role).orElseThrow()));
            return Uni.createFrom().item(new Caller(Caller.TOKEN, credential.id, credential.name, operator, companies,
                    credential.a2aAgentIds()));
        }
        return users.findById(credential.userId).flatMap(user -> user == null ? Uni.createFrom().nullItem()
                : memberships.ofUser(user.id).map(list -> new Caller(Caller.USER, user.id, user.email, user.operator,
                list.stream().map(m -> new Caller.Membership(m.key.companyId, CompanyRole.parse(m.role).orElseThrow()))
                        .toList())));
    }

    // Recorded to the minute: a write per request would make every read a write.
    private Uni<Credential> touch(Credential credential, Instant now) {
        if (credential.lastUsedAt == null || credential.lastUsedAt.isBefore(now.minus(LAST_USE_RESOLUTION))) {
            credential.lastUsedAt = now;
        }
        return Uni.createFrom().item(credential);
    }
}
