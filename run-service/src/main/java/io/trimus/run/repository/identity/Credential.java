package io.trimus.run.repository.identity;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * A bearer secret's record: an API token (a company and role, or the operator role), a user's dashboard session, or
 * a one-time setup link. Only the SHA-256 of the secret is kept.
 */
@Entity
@Table(name = "credential")
public class Credential {
    public static final String TOKEN = "token";
    public static final String SESSION = "session";
    public static final String SETUP = "setup";
    public static final String OPERATOR_ROLE = "operator";

    @Id
    public UUID id;
    public String kind;
    public String name;
    public byte[] secretHash;
    public UUID companyId;
    public String role;
    public UUID userId;
    public String createdBy;
    public Instant createdAt;
    public Instant expiresAt;
    public Instant lastUsedAt;
    public Instant revokedAt;
    /** For an A2A-only token, the agents whose A2A endpoints it may call, comma-separated; else null. */
    public String a2aAgents;

    /** A new session or setup link of the user, not yet persisted. */
    public static Credential ofUser(String kind, String name, UUID userId, byte[] secretHash, String createdBy,
                                    Instant createdAt, Instant expiresAt) {
        Credential credential = new Credential();
        credential.id = UUID.randomUUID();
        credential.kind = kind;
        credential.name = name;
        credential.userId = userId;
        credential.secretHash = secretHash;
        credential.createdBy = createdBy;
        credential.createdAt = createdAt;
        credential.expiresAt = expiresAt;
        return credential;
    }

    /** The agents of an A2A-only token, else none. */
    public java.util.List<UUID> a2aAgentIds() {
        return a2aAgents == null || a2aAgents.isEmpty() ? java.util.List.of()
                : java.util.Arrays.stream(a2aAgents.split(",")).map(UUID::fromString).toList();
    }

    /** True when the credential may be used at {@code now}: not revoked, not expired. */
    public boolean isActive(Instant now) {
        return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
    }
}
