package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * {@code io.trimus.audit.record.v1} on {@link Topics#AUDIT}: one change to what a company or the platform may do (an
 * agent, a secret, the allowlist or egress policy, a member, a token, a worker grant…), who made it, when, from where.
 * {@code details} says what changed in a few words and never carries a secret's value, a token, a password or a setup
 * link. Kafka key and subject: {@link #key()}.
 *
 * @param companyId the company the change belongs to; null for a change of the platform (an operator, an operator
 *                  token, the egress CA, a sign-in)
 * @param action    one of {@link #ACTIONS}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AuditRecord(UUID id, Instant occurredAt, Actor actor, UUID companyId, String action, Target target,
                          Map<String, Object> details, Source source) {
    /** The Kafka key (and CloudEvent subject) of platform records: they have no company. */
    public static final String PLATFORM_KEY = "platform";

    public static final String COMPANY_CREATED = "company.created";
    public static final String AGENT_CREATED = "agent.created";
    public static final String SECRET_PUT = "secret.put";
    public static final String SECRET_DELETED = "secret.deleted";
    public static final String WORKER_TAG_GRANTED = "worker_tag.granted";
    public static final String WORKER_TAG_REVOKED = "worker_tag.revoked";
    public static final String MEMBER_PUT = "member.put";
    public static final String MEMBER_REMOVED = "member.removed";
    public static final String OPERATOR_PUT = "operator.put";
    public static final String OPERATOR_REMOVED = "operator.removed";
    public static final String TOKEN_CREATED = "token.created";
    public static final String TOKEN_REVOKED = "token.revoked";
    public static final String SESSION_OPENED = "session.opened";
    public static final String SESSION_CLOSED = "session.closed";
    public static final String PASSWORD_SET = "password.set";
    public static final String ALLOWLIST_REPLACED = "allowlist.replaced";
    public static final String EGRESS_POLICY_SET = "egress_policy.set";
    public static final String EGRESS_CA_ROTATED = "egress_ca.rotated";
    public static final String AGENT_A2A_PUBLISHED = "agent.a2a_published";
    public static final String SETUP_LINK_ISSUED = "setup_link.issued";
    public static final String PASSWORD_REMOVED = "password.removed";
    public static final String ACCOUNT_VOUCHED = "account.vouched";
    /** Every action, the closed list the schema enumerates; a new one is an additive change of the contract. */
    public static final List<String> ACTIONS = List.of(COMPANY_CREATED, AGENT_CREATED, SECRET_PUT, SECRET_DELETED,
            WORKER_TAG_GRANTED, WORKER_TAG_REVOKED, MEMBER_PUT, MEMBER_REMOVED, OPERATOR_PUT, TOKEN_CREATED,
            TOKEN_REVOKED, SESSION_OPENED, SESSION_CLOSED, PASSWORD_SET, ALLOWLIST_REPLACED, EGRESS_POLICY_SET,
            EGRESS_CA_ROTATED, OPERATOR_REMOVED, AGENT_A2A_PUBLISHED, SETUP_LINK_ISSUED, PASSWORD_REMOVED,
            ACCOUNT_VOUCHED);

    public AuditRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(occurredAt, "occurred_at");
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(target, "target");
        details = details == null ? Map.of() : details;
        source = source == null ? Source.NONE : source;
    }

    /** A record of a change made now; PostgreSQL keeps microseconds, so the record does too. */
    public static AuditRecord now(Actor actor, Source source, UUID companyId, String action, Target target,
                                  Map<String, Object> details) {
        return new AuditRecord(UUID.randomUUID(), Instant.now().truncatedTo(ChronoUnit.MICROS), actor, companyId,
                action, target, details, source);
    }

    /** The Kafka key and subject: the company id, or {@value #PLATFORM_KEY}; one company's records keep their order. */
    public String key() {
        return companyId == null ? PLATFORM_KEY : companyId.toString();
    }

    /**
     * Who made the change.
     *
     * @param kind {@code user} (a signed-in user), {@code token} (an API token), {@code service} (a Trimus service on
     *             its own credential) or {@code system} (Trimus itself, e.g. the bootstrap operator at start)
     * @param id   the user's or token's id; null for service and system
     * @param name the user's email or the token's name; the service's name; {@code trimus} for system
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Actor(String kind, UUID id, String name) {
        public static final String USER = "user";
        public static final String TOKEN = "token";
        public static final String SERVICE = "service";
        public static final String SYSTEM = "system";
        /** Trimus itself, acting on its configuration. */
        public static final Actor TRIMUS = new Actor(SYSTEM, null, "trimus");

        public Actor {
            Objects.requireNonNull(kind, "kind");
        }
    }

    /**
     * What was changed: {@code type} (company, agent, secret, worker_tag, member, operator, token, session, allowlist,
     * egress_policy, egress_ca), its id when it has one, and a name a person recognises (a secret's name, an email…).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Target(String type, String id, String name) {
        public Target {
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * Where the change came from, as the service saw the request: the peer address ({@code ip}), and what the request
     * claimed, bounded and never trusted: its {@code X-Forwarded-For} and {@code User-Agent}.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Source(String ip, String forwardedFor, String userAgent) {
        /** Longest {@code forwarded_for} kept. */
        public static final int MAX_FORWARDED_FOR = 200;
        /** Longest {@code user_agent} kept. */
        public static final int MAX_USER_AGENT = 300;
        /** No request: a change Trimus made on its own. */
        public static final Source NONE = new Source(null, null, null);

        /** The source of a request, the claimed headers cut to their bounds and stripped of control characters. */
        public static Source of(String ip, String forwardedFor, String userAgent) {
            return new Source(bounded(ip, 64), bounded(forwardedFor, MAX_FORWARDED_FOR),
                    bounded(userAgent, MAX_USER_AGENT));
        }

        private static String bounded(String text, int max) {
            if (text == null || text.isBlank()) {
                return null;
            }
            String printable = text.strip().replaceAll("\\p{Cntrl}", "?");
            return printable.length() > max ? printable.substring(0, max) : printable;
        }
    }
}
