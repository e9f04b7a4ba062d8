package io.trimus.admin.auth;

import io.trimus.admin.client.Backend;
import io.trimus.admin.client.Backends;
import io.trimus.admin.client.Fetched;
import io.trimus.admin.client.RunServiceApi;
import io.trimus.admin.client.RunServiceApi.Company;
import io.trimus.events.auth.Caller;
import io.trimus.events.auth.CompanyRole;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Named;

import java.util.List;
import java.util.UUID;

/**
 * What the signed-in caller may see and do, for templates ({@code {inject:access.admin(companyId)}}) and resources:
 * the layout's company switcher, which actions a page shows, the CSRF token its forms carry. Hiding is a courtesy: the
 * backends refuse the same actions anyway.
 */
@Named("access")
@RequestScoped
public class PageAccess {
    /** Most companies the switcher lists (operators see a link to the full list beyond). */
    static final int SWITCHER_SIZE = 100;

    private final SignedIn signedIn;
    private final Backends backends;
    private final RunServiceApi runService;
    private List<CompanyChoice> companies;

    PageAccess(SignedIn signedIn, Backends backends, RunServiceApi runService) {
        this.signedIn = signedIn;
        this.backends = backends;
        this.runService = runService;
    }

    /** A company in the switcher with the caller's role in it ({@code operator} for an operator who is no member). */
    public record CompanyChoice(String id, String name, String role) {
    }

    public boolean signedIn() {
        return signedIn.present();
    }

    /** The caller's name: a user's email or a token's name. */
    public String who() {
        return signedIn.present() ? signedIn.caller().name() : "";
    }

    /** Whether the caller came with the session cookie (only then does the page offer "Sign out"). */
    public boolean session() {
        return signedIn.present() && !signedIn.csrfToken().isEmpty();
    }

    public boolean operator() {
        return signedIn.present() && signedIn.caller().operator();
    }

    /** Whether the caller may read the company (any role in it, or an operator). */
    public boolean viewer(String companyId) {
        return may(companyId, CompanyRole.VIEWER);
    }

    /** Whether the caller may change the company's agents, allowlist, policy, members and tokens. */
    public boolean admin(String companyId) {
        return may(companyId, CompanyRole.ADMIN);
    }

    /** Whether the caller may start and cancel the company's runs. */
    public boolean member(String companyId) {
        return may(companyId, CompanyRole.MEMBER);
    }

    /** The token forms carry in {@code _csrf} (and htmx in X-CSRF-Token); empty for bearer callers. */
    public String csrf() {
        return signedIn.csrfToken();
    }

    /** The caller's companies with their names (operators: every company, the first {@value #SWITCHER_SIZE}). */
    public List<CompanyChoice> companies() {
        if (companies == null) {
            Fetched<List<Company>> page = signedIn.present()
                    ? backends.fetch(Backend.RUN_SERVICE, auth -> runService.companies(auth, SWITCHER_SIZE, null))
                    : Fetched.of(List.of());
            Caller caller = signedIn.present() ? signedIn.caller() : null;
            companies = page.failed() ? List.of() : page.value().stream().map(c -> new CompanyChoice(c.id().toString(),
                    c.name(), caller.roleIn(c.id()).map(CompanyRole::wireName).orElse("operator"))).toList();
        }
        return companies;
    }

    private boolean may(String companyId, CompanyRole needed) {
        if (!signedIn.present() || companyId == null) {
            return false;
        }
        try {
            return signedIn.caller().may(UUID.fromString(companyId), needed);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
