/**
 * egress-service's configuration ({@code trimus.*}, the TRIMUS_EGRESS_* environment). Entry point:
 * {@link io.trimus.egress.config.TrimusConfig}. Imports no other egress package: everything may read it.
 */
package io.trimus.egress.config;
