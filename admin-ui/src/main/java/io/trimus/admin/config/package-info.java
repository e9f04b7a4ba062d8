/**
 * The dashboard's knobs ({@code trimus.*}, {@code trimus.oidc.*}), documented on docs/configuration.md. Entry point:
 * {@link io.trimus.admin.config.TrimusConfig}. The bottom of the graph: imports no other package of the dashboard.
 */
package io.trimus.admin.config;
