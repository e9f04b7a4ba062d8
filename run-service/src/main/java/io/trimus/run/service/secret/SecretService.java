package io.trimus.run.service.secret;

import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.commons.rows.TenantTransaction;
import io.trimus.events.AuditRecord;
import io.trimus.events.MaskScope;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.secrets.Redactor;
import io.trimus.run.repository.agent.AgentRepository;
import io.trimus.run.repository.secret.CompanySecret;
import io.trimus.run.repository.secret.CompanySecretGrant;
import io.trimus.run.repository.secret.CompanySecretGrantRepository;
import io.trimus.run.repository.secret.CompanySecretRepository;
import io.trimus.run.service.audit.AuditLog;
import io.trimus.run.service.company.CompanyService;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Company secrets: write-only values, encrypted before they reach the database, granted to every agent of the company
 * or to named ones, decrypted only to seal them into a run of an agent they are granted to or to redact them from what
 * a run printed.
 */
@ApplicationScoped
public class SecretService {
    private static final Logger LOG = Logger.getLogger(SecretService.class);
    /** Provider keys are ~100 bytes; a certificate bundle would be a few KiB. */
    public static final int MAX_VALUE_BYTES = 16 * 1024;
    /** Most agents one secret may be granted to by name, counted as sent. */
    public static final int MAX_AGENTS = 1000;

    private final CompanySecretRepository secrets;
    private final CompanySecretGrantRepository grants;
    private final AgentRepository agentsRepository;
    private final CompanyService companies;
    private final SecretCipher cipher;
    private final AuditLog audit;

    SecretService(CompanySecretRepository secrets, CompanySecretGrantRepository grants,
                  AgentRepository agentsRepository, CompanyService companies, SecretCipher cipher, AuditLog audit) {
        this.audit = audit;
        this.secrets = secrets;
        this.grants = grants;
        this.agentsRepository = agentsRepository;
        this.companies = companies;
        this.cipher = cipher;
    }

    /**
     * A secret's name, the agents it is granted to ({@code null}: every agent of the company), whether it is masked
     * and, if so, the hosts and headers its real value may be sent in ({@code null} when plain), and timestamps:
     * everything about it the API ever shows.
     */
    public record SecretInfo(String name, List<UUID> agents, boolean masked, List<String> hosts, List<String> headers,
                             Instant createdAt, Instant updatedAt) {
        static SecretInfo of(CompanySecret s, Collection<UUID> granted) {
            return new SecretInfo(s.key.name, s.allAgents ? null : sorted(granted), s.masked, s.hostList(), s.headerList(),
                    s.createdAt, s.updatedAt);
        }

        private static List<UUID> sorted(Collection<UUID> ids) {
            return ids.stream().sorted(Comparator.comparing(UUID::toString)).toList();
        }
    }

    /** The outcome of a put: the secret's info, and whether it was new. */
    public record Stored(SecretInfo secret, boolean created) {
    }

    /**
     * What an agent may take into a run: the values of the named secrets granted to it, the scopes of those among
     * them that are masked (by name), and the names of those that are not granted.
     */
    public record Usable(Map<String, String> values, Map<String, MaskScope> masked, Set<String> notGranted) {
    }

    /** What a PUT says about a secret besides its value: whom it is granted to and whether (and where) it is masked. */
    public record Put(String value, List<String> agents, Boolean masked, List<String> hosts, List<String> headers) {
        @Override
        public String toString() {
            return "Put[value=" + Redactor.MARK + ", agents=" + agents + ", masked=" + masked + ", hosts=" + hosts
                    + ", headers=" + headers + "]";
        }
    }

    /**
     * Creates or replaces the secret, granted to {@code agents} (agent ids of the company) or, when that is null, to
     * every agent of the company, masked or plain as the put says. A put replaces the grant and the mask as well as
     * the value.
     */
    @TenantTransaction
    public Uni<Stored> put(UUID companyId, String name, Put put) {
        String value = put.value();
        List<String> agents = put.agents();
        List<UUID> granted;
        MaskScope mask;
        try {
            checkName(name);
            checkValue(value);
            mask = MaskedSecrets.scope(name, put.masked(), put.hosts(), put.headers(), value);
            granted = agentIds(agents);
        } catch (ProblemException e) {
            return Uni.createFrom().failure(e);
        }
        byte[] ciphertext = cipher.encrypt(companyId, name, value);
        // PostgreSQL keeps microseconds: the answer to this put must show the timestamps a later list shows
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return companies.get(companyId)
                .call(company -> checkAgentsOfCompany(companyId, agents, granted))
                .flatMap(company -> secrets.findById(new CompanySecret.Key(companyId, name)))
                .flatMap(existing -> {
                    if (existing != null) {
                        existing.ciphertext = ciphertext;
                        existing.allAgents = granted == null;
                        mask(existing, mask);
                        existing.updatedAt = now;
                        return Uni.createFrom().item(new Stored(SecretInfo.of(existing, orNone(granted)), false));
                    }
                    CompanySecret secret = new CompanySecret();
                    secret.key = new CompanySecret.Key(companyId, name);
                    secret.ciphertext = ciphertext;
                    secret.allAgents = granted == null;
                    mask(secret, mask);
                    secret.createdAt = now;
                    secret.updatedAt = now;
                    return secrets.persist(secret).map(s -> new Stored(SecretInfo.of(s, orNone(granted)), true));
                })
                .call(stored -> regrant(companyId, name, granted))
                // what the put said about the secret, never its value
                .call(stored -> audit.record(companyId, AuditRecord.SECRET_PUT, new AuditRecord.Target("secret", null,
                        name), AuditLog.details("created", stored.created(), "agents", stored.secret().agents(),
                        "masked", stored.secret().masked(), "hosts", stored.secret().hosts(), "headers",
                        stored.secret().headers())));
    }

    private static void mask(CompanySecret secret, MaskScope mask) {
        secret.masked = mask != null;
        secret.hosts = mask == null ? null : mask.hosts().toArray(String[]::new);
        secret.headers = mask == null ? null : mask.headers().toArray(String[]::new);
    }

    /** Makes {@code granted} the secret's grants; none when it is for every agent. */
    private Uni<Void> regrant(UUID companyId, String name, List<UUID> granted) {
        return grants.revokeAll(companyId, name).flatMap(revoked -> granted == null ? Uni.createFrom().voidItem()
                : grants.persist(granted.stream().map(agent -> new CompanySecretGrant(companyId, name, agent))));
    }

    /** The distinct agent ids of a put's {@code agents}, in their order; null (every agent) when it is absent. */
    static List<UUID> agentIds(List<String> agents) {
        if (agents == null) {
            return null;
        }
        if (agents.isEmpty()) {
            throw ProblemException.invalid("agents", "must name at least one agent; leave it out to grant the secret"
                    + " to every agent of the company");
        }
        if (agents.size() > MAX_AGENTS) {
            throw ProblemException.invalid("agents", "must name at most " + MAX_AGENTS + " agents, not "
                    + agents.size());
        }
        Set<UUID> ids = new LinkedHashSet<>();
        for (int i = 0; i < agents.size(); i++) {
            ids.add(Ids.parse("agents[" + i + "]", agents.get(i)));
        }
        return List.copyOf(ids);
    }

    /** A 400 naming the first entry of {@code agents} that is not an agent of the company (of another, or none). */
    private Uni<Void> checkAgentsOfCompany(UUID companyId, List<String> agents, List<UUID> granted) {
        if (granted == null) {
            return Uni.createFrom().voidItem();
        }
        return agentsRepository.inCompany(companyId, granted).flatMap(found -> {
            Set<UUID> known = found.stream().map(agent -> agent.id).collect(Collectors.toSet());
            for (int i = 0; i < agents.size(); i++) {
                if (!known.contains(UUID.fromString(agents.get(i)))) {
                    return Uni.createFrom().failure(ProblemException.invalidValue("agents[" + i + "]", agents.get(i),
                            "is not an agent of this company"));
                }
            }
            return Uni.createFrom().voidItem();
        });
    }

    private static List<UUID> orNone(List<UUID> granted) {
        return granted == null ? List.of() : granted;
    }

    /** The company's secrets: names, grants, masks and timestamps only. */
    @TenantTransaction
    public Uni<List<SecretInfo>> list(UUID companyId) {
        return companies.get(companyId).flatMap(company -> secrets.listInCompany(companyId))
                .flatMap(all -> grants.listInCompany(companyId).map(granted -> {
                    Map<String, List<UUID>> byName = granted.stream().collect(Collectors.groupingBy(
                            g -> g.key.secretName, Collectors.mapping(g -> g.key.agentId, Collectors.toList())));
                    return all.stream().map(s -> SecretInfo.of(s, byName.getOrDefault(s.key.name, List.of()))).toList();
                }));
    }

    /** Deletes the secret, or fails with 404. */
    @TenantTransaction
    public Uni<Void> delete(UUID companyId, String name) {
        return companies.get(companyId)
                .flatMap(company -> secrets.deleteById(new CompanySecret.Key(companyId, name)))
                .flatMap(deleted -> deleted ? Uni.createFrom().voidItem()
                        : Uni.createFrom().failure(ProblemException.notFound("secret", name)))
                .call(() -> audit.record(companyId, AuditRecord.SECRET_DELETED, new AuditRecord.Target("secret", null,
                        name), AuditLog.details()));
    }

    /** Of the named secrets, those the company does not have and those it has but not granted to the agent. */
    public record Unusable(Set<String> missing, Set<String> notGranted) {
        /** The first of them, missing ones first; null when the agent may use every one. */
        public String first() {
            return !missing.isEmpty() ? missing.iterator().next()
                    : notGranted.isEmpty() ? null : notGranted.iterator().next();
        }
    }

    /**
     * Of the named secrets that exist, the values of those granted to the agent and the scopes of the masked ones
     * among them, by name, and the names of those that are not granted (never decrypted); runs inside the caller's
     * session.
     */
    public Uni<Usable> usableBy(UUID companyId, UUID agentId, Collection<String> names) {
        return secrets.named(companyId, names).flatMap(found -> grantedAmong(companyId, agentId, found)
                .map(granted -> {
                    Map<String, String> values = new LinkedHashMap<>();
                    Map<String, MaskScope> masked = new LinkedHashMap<>();
                    Set<String> notGranted = new TreeSet<>();
                    for (CompanySecret s : found) {
                        if (granted.contains(s.key.name)) {
                            values.put(s.key.name, cipher.decrypt(companyId, s.key.name, s.ciphertext));
                            if (s.masked) {
                                masked.put(s.key.name, new MaskScope(s.key.name, s.hostList(), s.headerList()));
                            }
                        } else {
                            notGranted.add(s.key.name);
                        }
                    }
                    return new Usable(values, masked, notGranted);
                }));
    }

    /**
     * Which of the named secrets the agent could not take into a run (an agent not stored yet has no grant of its
     * own); nothing is decrypted. Runs inside the caller's session.
     */
    public Uni<Unusable> unusableBy(UUID companyId, UUID agentId, Collection<String> names) {
        return secrets.named(companyId, names).flatMap(found -> grantedAmong(companyId, agentId, found)
                .map(granted -> {
                    Set<String> existing = found.stream().map(s -> s.key.name).collect(Collectors.toSet());
                    Set<String> missing = new LinkedHashSet<>();
                    Set<String> notGranted = new LinkedHashSet<>();
                    for (String name : names) {
                        if (!existing.contains(name)) {
                            missing.add(name);
                        } else if (!granted.contains(name)) {
                            notGranted.add(name);
                        }
                    }
                    return new Unusable(missing, notGranted);
                }));
    }

    /** The names of {@code found} granted to the agent: to every agent of the company, or to it by name. */
    private Uni<Set<String>> grantedAmong(UUID companyId, UUID agentId, List<CompanySecret> found) {
        Set<String> granted = found.stream().filter(s -> s.allAgents).map(s -> s.key.name)
                .collect(Collectors.toCollection(java.util.HashSet::new));
        List<String> scoped = found.stream().filter(s -> !s.allAgents).map(s -> s.key.name).toList();
        if (scoped.isEmpty()) {
            return Uni.createFrom().item(granted);
        }
        return grants.grantedTo(companyId, agentId, scoped).map(list -> {
            list.forEach(g -> granted.add(g.key.secretName));
            return granted;
        });
    }

    /**
     * A redactor of every secret value of the company; runs inside the caller's session. A secret that no longer
     * decrypts (the key was changed) cannot appear in new output and is skipped.
     */
    public Uni<Redactor> redactor(UUID companyId) {
        return secrets.listInCompany(companyId).map(all -> {
            List<String> values = new java.util.ArrayList<>();
            for (CompanySecret s : all) {
                try {
                    values.add(cipher.decrypt(companyId, s.key.name, s.ciphertext));
                } catch (RuntimeException e) {
                    LOG.warnf("secret %s of company %s does not decrypt with the current TRIMUS_ENCRYPTION_KEY",
                            s.key.name, companyId);
                }
            }
            return Redactor.of(values);
        });
    }

    static void checkName(String name) {
        if (name == null || !CliAdapterConfig.SECRET_NAME.matcher(name).matches()) {
            throw ProblemException.invalid("name",
                    "must be 1 to 128 letters, digits or _, not starting with a digit (e.g. ANTHROPIC_API_KEY)");
        }
    }

    private static void checkValue(String value) {
        if (value == null || value.isEmpty()) {
            throw ProblemException.invalid("value", "is required and must not be empty");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_VALUE_BYTES) {
            throw ProblemException.invalid("value", "must be at most " + MAX_VALUE_BYTES + " bytes");
        }
    }
}
