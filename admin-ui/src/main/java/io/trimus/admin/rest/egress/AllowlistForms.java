package io.trimus.admin.rest.egress;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.auth.PageAccess;
import io.trimus.admin.client.AllowlistEditor;
import io.trimus.admin.client.AllowlistEditor.Scope;
import io.trimus.admin.client.AllowlistEntries;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.rest.PageForbidden;
import io.trimus.admin.view.AllowlistViews;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import io.trimus.admin.view.Views.RuleDraft;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.util.List;
import java.util.function.Supplier;

/**
 * The allowlist editors' forms, for the company's list and an agent's own alike: the plain field, the request-rule
 * form (add, or edit an entry in place), remove. Only the company's admins change a list (refused here with 403 before
 * egress-service is asked, which refuses others too). Without JavaScript post/redirect/get (a refusal is the whole page
 * with the reason next to the form, HTTP 400, nothing changed); with htmx the editor alone.
 */
@ApplicationScoped
public class AllowlistForms {
    private final AllowlistEditor allowlists;
    private final EgressPage pages;
    private final PageAccess access;

    AllowlistForms(AllowlistEditor allowlists, EgressPage pages, PageAccess access) {
        this.allowlists = allowlists;
        this.pages = pages;
        this.access = access;
    }

    /** What a change left: the list as stored and a sentence saying what happened. */
    record Done(boolean own, List<String> entries, String notice) {
    }

    /** Refuses a caller who is not an admin of the company, before anything is asked or changed. */
    void requireAdmin(Scope scope) {
        if (!access.admin(scope.companyId().toString())) {
            throw new PageForbidden("You cannot do this: changing an allowlist needs the admin role in this company.");
        }
    }

    /** The plain field: a name, wildcard, {@code name:port}, or an object's JSON as typed. */
    RestResponse<TemplateInstance> add(Scope scope, String entry, String htmx) {
        requireAdmin(scope);
        String typed = entry == null ? "" : entry.strip();
        return answer(scope, () -> {
            AllowlistEditor.Change change = allowlists.add(scope, typed);
            return new Done(true, change.entries(), change.added() ? "Added " + typed + "."
                    : typed + " is already on the allowlist.");
        }, e -> pages.allowlist(scope, e.getMessage(), typed, null, null, null), htmx);
    }

    /** The request-rule form: a new object entry, or ({@code old} given) the entry {@code old} changed to it. */
    RestResponse<TemplateInstance> rule(Scope scope, String old, String host, String ports, List<String> methods,
                                        String paths, String htmx) {
        requireAdmin(scope);
        RuleDraft draft = AllowlistViews.draft(bounded(host, AllowlistEntries.MAX_HOST),
                bounded(ports, AllowlistEntries.MAX_PORTS_TEXT),
                methods == null ? List.of() : methods.stream().limit(AllowlistEntries.METHODS.size()).toList(),
                bounded(paths, AllowlistEntries.MAX_PATHS_TEXT), old);
        return answer(scope, () -> {
            String entry = AllowlistEntries.fromForm(host, ports, methods, paths);
            if (old != null) {
                return new Done(true, allowlists.replace(scope, old, entry), "Saved the entry for "
                        + host.strip() + ".");
            }
            AllowlistEditor.Change change = allowlists.add(scope, entry);
            return new Done(true, change.entries(), change.added() ? "Added the entry for " + host.strip() + "."
                    : "That entry is already on the allowlist.");
        }, e -> pages.allowlist(scope, null, null, draft, e.getMessage(), null), htmx);
    }

    /** Removes an entry as listed. */
    RestResponse<TemplateInstance> remove(Scope scope, String entry, String htmx) {
        requireAdmin(scope);
        return answer(scope, () -> new Done(true, allowlists.remove(scope, entry), "Removed " + entry + "."),
                e -> pages.allowlist(scope, e.getMessage(), null, null, null, null), htmx);
    }

    /** Runs a change and answers with the editor (htmx) or a redirect to the page; a refusal with {@code refused}. */
    RestResponse<TemplateInstance> answer(Scope scope, Supplier<Done> change,
                                          java.util.function.Function<BackendException, Views.Allowlist> refused,
                                          String htmx) {
        Done done;
        try {
            done = change.get();
        } catch (BackendException e) {
            if (e.kind() != BackendException.Kind.REFUSED) {
                throw e;
            }
            Views.Allowlist editor = refused.apply(e);
            if (htmx != null) {
                return RestResponse.ok(Templates.allowlist_editor(editor)); // htmx swaps only 2xx answers
            }
            return RestResponse.status(RestResponse.Status.BAD_REQUEST, scope.agent()
                    ? Templates.agent_egress(pages.agentPage(scope, editor))
                    : Templates.egress(pages.page(scope.companyId(), pages.policy(scope.companyId(), null), editor)));
        }
        if (htmx != null) {
            return RestResponse.ok(Templates.allowlist_editor(EgressPage.stored(scope, done.own(), done.entries(),
                    done.notice())));
        }
        // without JavaScript: post/redirect/get, so a reload does not send the form again
        return RestResponse.seeOther(URI.create(scope.agent()
                ? "/companies/" + scope.companyId() + "/agents/" + scope.agentId() + "/egress"
                : "/companies/" + scope.companyId() + "/egress"));
    }

    /** A typed value cut to what a form shows back (the whole value is checked, and refused, before this is shown). */
    private static String bounded(String value, int max) {
        if (value == null) {
            return "";
        }
        return value.length() <= max ? value : value.substring(0, max);
    }
}
