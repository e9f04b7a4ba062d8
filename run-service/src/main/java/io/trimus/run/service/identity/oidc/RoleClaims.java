package io.trimus.run.service.identity.oidc;

import io.trimus.events.auth.CompanyRole;
import org.jboss.logging.Logger;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads the roles claim of an ID token: each value is {@code operator}, {@code <company_id>:<role>}, or a name of the
 * role mapping (TRIMUS_OIDC_ROLE_MAPPING) that stands for one of those; anything else is ignored and logged. A company
 * named twice keeps its strongest role.
 */
public final class RoleClaims {
    /** Most values of the roles claim that are read; a token with more is refused. */
    public static final int MAX_VALUES = 200;
    private static final int MAX_VALUE_LENGTH = 256;
    private static final Logger LOG = Logger.getLogger(RoleClaims.class);

    private final Map<String, String> mapping;

    private RoleClaims(Map<String, String> mapping) {
        this.mapping = mapping;
    }

    /**
     * The reader for a mapping of {@code value=operator} / {@code value=<company_id>:<role>} entries; a malformed
     * entry is an {@link IllegalArgumentException} naming it, so a wrong setting stops the service at start.
     */
    public static RoleClaims withMapping(List<String> entries) {
        Map<String, String> mapping = new HashMap<>();
        for (String entry : entries) {
            int eq = entry.lastIndexOf('=');
            String key = eq > 0 ? entry.substring(0, eq).strip() : "";
            String role = eq > 0 ? entry.substring(eq + 1).strip() : "";
            if (key.isEmpty() || (!role.equals("operator") && companyRole(role).isEmpty())) {
                throw new IllegalArgumentException("TRIMUS_OIDC_ROLE_MAPPING: '" + entry + "' is not value=operator"
                        + " or value=<company_id>:<admin|member|viewer>");
            }
            mapping.put(key, role);
        }
        return new RoleClaims(Map.copyOf(mapping));
    }

    /**
     * The grants named by the claim's value (a string, or a list of strings; null when the token has no such claim).
     *
     * @throws IllegalArgumentException when the claim holds more than {@value #MAX_VALUES} values
     */
    public Grants read(Object claim) {
        List<String> values = values(claim);
        if (values.size() > MAX_VALUES) {
            throw new IllegalArgumentException("the roles claim holds " + values.size() + " values, more than "
                    + MAX_VALUES);
        }
        boolean operator = false;
        Map<UUID, CompanyRole> companies = new HashMap<>();
        for (String value : values) {
            String role = mapping.getOrDefault(value, value);
            if (role.equals("operator")) {
                operator = true;
                continue;
            }
            Optional<Map.Entry<UUID, CompanyRole>> parsed = companyRole(role);
            if (parsed.isEmpty()) {
                LOG.debugf("ignored a roles claim value that is no Trimus role: %s", abbreviate(value));
                continue;
            }
            companies.merge(parsed.get().getKey(), parsed.get().getValue(),
                    (a, b) -> a.covers(b) ? a : b);
        }
        return new Grants(operator, Map.copyOf(companies));
    }

    private static List<String> values(Object claim) {
        if (claim == null) {
            return List.of();
        }
        Collection<?> raw = claim instanceof Collection<?> c ? c : List.of(claim);
        return raw.stream().filter(String.class::isInstance).map(v -> ((String) v).strip())
                .filter(v -> !v.isEmpty() && v.length() <= MAX_VALUE_LENGTH).toList();
    }

    private static Optional<Map.Entry<UUID, CompanyRole>> companyRole(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        Optional<CompanyRole> role = CompanyRole.parse(text.substring(colon + 1).strip().toLowerCase(Locale.ROOT));
        try {
            UUID company = UUID.fromString(text.substring(0, colon).strip());
            return role.map(r -> Map.entry(company, r));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String abbreviate(String value) {
        return value.length() <= 64 ? value : value.substring(0, 64) + "…";
    }
}
