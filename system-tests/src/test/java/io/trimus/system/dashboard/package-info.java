/**
 * The dashboard (admin-ui) tested as a whole on {@link io.trimus.system.SystemStack}: its pages, accounts, access
 * rules, audit, live feeds and browser flows against the real run-service, adapter and egress-service. Entry points are
 * the {@code Dashboard*Test}, {@code EgressDashboardBrowserTest} and {@code SignInBrowserTest} classes; {@code Stack}
 * sets up data on the backends. Must never import a service's own code ({@code io.trimus.admin}, {@code io.trimus.run},
 * …): only the shared events module and the testing helpers.
 */
package io.trimus.system.dashboard;
