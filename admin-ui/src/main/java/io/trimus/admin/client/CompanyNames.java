package io.trimus.admin.client;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.UUID;

/**
 * Company names for pages that know only ids (egress-service knows no names), read from run-service and kept (at
 * most {@value #MAX_KEPT}); a company's name never changes in this version. Falls back to the id when run-service
 * cannot say. Asked as the signed-in caller, only for companies the page already shows (operator views).
 */
@ApplicationScoped
public class CompanyNames {
    private static final int MAX_KEPT = 10_000;

    private final RunServiceApi runService;
    private final Backends backends;
    private final Cache<UUID, String> names = Caffeine.newBuilder().maximumSize(MAX_KEPT).build();

    CompanyNames(RunServiceApi runService, Backends backends) {
        this.runService = runService;
        this.backends = backends;
    }

    /** The company's name, or its id when run-service does not know it or cannot be reached. */
    public String of(UUID companyId) {
        return of(companyId, null, true);
    }

    /** {@link #of(UUID)} asked with an explicit {@code Authorization} value, for work outside a request. */
    public String of(UUID companyId, String authorization) {
        return of(companyId, authorization, false);
    }

    private String of(UUID companyId, String authorization, boolean current) {
        if (companyId == null) {
            return "unattributed source";
        }
        String known = names.getIfPresent(companyId);
        if (known != null) {
            return known;
        }
        try {
            String name = current
                    ? backends.call(Backend.RUN_SERVICE, auth -> runService.company(auth, companyId)).name()
                    : backends.callAs(authorization, Backend.RUN_SERVICE, auth -> runService.company(auth, companyId))
                    .name();
            names.put(companyId, name);
            return name;
        } catch (BackendException e) {
            return companyId.toString();
        }
    }
}
