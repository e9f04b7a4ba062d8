package io.trimus.admin.view;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/** The dashboard's pages and the fragments htmx swaps in; checked against the views at build time. */
@CheckedTemplate
public class Templates {
    private Templates() {
    }

    public static native TemplateInstance overview(Views.Overview page);

    /** One item of the live anomaly ticker on the overview. */
    public static native TemplateInstance overview$ticker_item(Views.AnomalyRow item);

    public static native TemplateInstance companies(Views.Companies page);

    public static native TemplateInstance company(Views.Company page);

    /** A company's "Canaries" panel alone, answered to htmx (read again, or "Run a canary now"). */
    public static native TemplateInstance company$canary(CanaryViews.Panel canary);

    /**
     * A company page's header: name, and the red alert when its latest canary got through; sent beside the panel,
     * htmx swaps it out of band.
     */
    public static native TemplateInstance company$head(String companyId, String name, CanaryViews.Panel canary);

    public static native TemplateInstance egress(Views.Egress page);

    /** The egress mode and its switch alone, answered to an htmx change. */
    public static native TemplateInstance egress$policy(Views.Policy policy);

    /** An allowlist editor (the company's or an agent's own) alone, answered to an htmx change. */
    public static native TemplateInstance allowlist_editor(Views.Allowlist allowlist);

    /** An agent's egress page: its own allowlist. */
    public static native TemplateInstance agent_egress(Views.AgentEgress page);

    /** One row of the denials table, streamed in live. */
    public static native TemplateInstance egress$denial_row(Views.AnomalyRow row);

    public static native TemplateInstance run(Views.RunDetail page);

    public static native TemplateInstance anomalies(Views.Operator page);

    public static native TemplateInstance error(Views.Error page);

    public static native TemplateInstance login(Views.SignIn page);

    public static native TemplateInstance signedIn(Views.SignedIn page);

    public static native TemplateInstance setup(Views.Setup page);

    public static native TemplateInstance members(Views.Members page);

    /** A company's API tokens, or the operators' ({@code page.companyId} null). */
    public static native TemplateInstance tokens(Views.Tokens page);

    /** Audit records of a company ({@code page.companyId} set) or of the whole platform. */
    public static native TemplateInstance audit(Views.Audit page);

    public static native TemplateInstance operators(Views.Operators page);
}
