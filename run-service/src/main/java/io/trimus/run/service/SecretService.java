package io.trimus.run.service;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.adapter.CliAdapterConfig;
import io.trimus.events.secrets.Redactor;
import io.trimus.run.repository.CompanySecret;
import io.trimus.run.repository.CompanySecretRepository;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Company secrets: write-only values, encrypted before they reach the database, decrypted only to seal them into a
 * run's dispatch or to redact them from what a run printed.
 */
@ApplicationScoped
public class SecretService {
    private static final Logger LOG = Logger.getLogger(SecretService.class);
    /** Provider keys are ~100 bytes; a certificate bundle would be a few KiB. */
    public static final int MAX_VALUE_BYTES = 16 * 1024;

    private final CompanySecretRepository secrets;
    private final CompanyService companies;
    private final SecretCipher cipher;

    SecretService(CompanySecretRepository secrets, CompanyService companies, SecretCipher cipher) {
        this.secrets = secrets;
        this.companies = companies;
        this.cipher = cipher;
    }

    /** A secret's name and timestamps: everything about it the API ever shows. */
    public record SecretInfo(String name, Instant createdAt, Instant updatedAt) {
        static SecretInfo of(CompanySecret s) {
            return new SecretInfo(s.key.name, s.createdAt, s.updatedAt);
        }
    }

    /** The outcome of a put: the secret's info, and whether it was new. */
    public record Stored(SecretInfo secret, boolean created) {
    }

    /** Creates or replaces the secret. */
    @WithTransaction
    public Uni<Stored> put(UUID companyId, String name, String value) {
        try {
            checkName(name);
            checkValue(value);
        } catch (ProblemException e) {
            return Uni.createFrom().failure(e);
        }
        byte[] ciphertext = cipher.encrypt(companyId, name, value);
        // PostgreSQL keeps microseconds: the answer to this put must show the timestamps a later list shows
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        return companies.get(companyId)
                .flatMap(company -> secrets.findById(new CompanySecret.Key(companyId, name)))
                .flatMap(existing -> {
                    if (existing != null) {
                        existing.ciphertext = ciphertext;
                        existing.updatedAt = now;
                        return Uni.createFrom().item(new Stored(SecretInfo.of(existing), false));
                    }
                    CompanySecret secret = new CompanySecret();
                    secret.key = new CompanySecret.Key(companyId, name);
                    secret.ciphertext = ciphertext;
                    secret.createdAt = now;
                    secret.updatedAt = now;
                    return secrets.persist(secret).map(s -> new Stored(SecretInfo.of(s), true));
                });
    }

    /** The company's secrets, names and timestamps only. */
    @WithSession
    public Uni<List<SecretInfo>> list(UUID companyId) {
        return companies.get(companyId).flatMap(company -> secrets.listInCompany(companyId))
                .map(all -> all.stream().map(SecretInfo::of).toList());
    }

    /** Deletes the secret, or fails with 404. */
    @WithTransaction
    public Uni<Void> delete(UUID companyId, String name) {
        return companies.get(companyId)
                .flatMap(company -> secrets.deleteById(new CompanySecret.Key(companyId, name)))
                .flatMap(deleted -> deleted ? Uni.createFrom().voidItem()
                        : Uni.createFrom().failure(ProblemException.notFound("secret", name)));
    }

    /** The values of the named secrets that exist, by name; runs inside the caller's session. */
    public Uni<Map<String, String>> values(UUID companyId, Collection<String> names) {
        return secrets.named(companyId, names).map(found -> {
            Map<String, String> values = new LinkedHashMap<>();
            for (CompanySecret s : found) {
                values.put(s.key.name, cipher.decrypt(companyId, s.key.name, s.ciphertext));
            }
            return values;
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
