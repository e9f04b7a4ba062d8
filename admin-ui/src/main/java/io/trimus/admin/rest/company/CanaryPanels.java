package io.trimus.admin.rest.company;

import io.trimus.admin.client.BackendException;
import io.trimus.admin.client.EgressCanaries;
import io.trimus.admin.client.EgressServiceApi.Canary;
import io.trimus.admin.view.CanaryViews;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The "Canaries" panel of a company's page from egress-service: the latest canary, or the sentence that says why it
 * is unknown, so the rest of the page still shows when egress-service is down.
 */
@ApplicationScoped
class CanaryPanels {
    private final EgressCanaries canaries;

    CanaryPanels(EgressCanaries canaries) {
        this.canaries = canaries;
    }

    /** The panel as egress-service has it now. */
    CanaryViews.Panel latest(UUID companyId) {
        try {
            return CanaryViews.of(companyId.toString(), canaries.latest(companyId), null);
        } catch (BackendException e) {
            return CanaryViews.failed(companyId.toString(), "The canaries could not be read: " + e.getMessage());
        }
    }

    /**
     * The latest canary's status of each company of a list page (at most one page, {@link CompanyResource#PAGE_SIZE}
     * calls), asked one after the other; at the first that fails the rest stay unknown (absent), so a slow or down
     * egress-service costs the page one timeout, not one per company.
     */
    Map<UUID, String> statuses(List<UUID> companyIds) {
        Map<UUID, String> statuses = new HashMap<>();
        for (UUID id : companyIds) {
            try {
                statuses.put(id, CanaryViews.status(canaries.latest(id).status()));
            } catch (BackendException e) {
                if (e.kind() == BackendException.Kind.UNAUTHENTICATED) {
                    throw e;
                }
                break;
            }
        }
        return statuses;
    }

    /** Requests a canary now and answers with the panel; a refusal is the latest panel with the reason under it. */
    CanaryViews.Panel run(UUID companyId) {
        try {
            Canary started = canaries.run(companyId);
            return CanaryViews.of(companyId.toString(), started, "running".equals(started.status())
                    ? "A canary is running; this panel shows its result when it finishes." : null);
        } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.UNAUTHENTICATED) {
                throw e; // the sign-in has ended: the error page sends the browser to sign in again
            }
            return latest(companyId).withNotice("No canary was started: " + e.getMessage());
        }
    }
}
