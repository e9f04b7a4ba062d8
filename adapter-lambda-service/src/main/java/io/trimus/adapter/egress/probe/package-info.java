/**
 * The checks a sandbox's resolver and egress proxy must pass before it starts (fail-secure). Entry points:
 * {@link io.trimus.adapter.egress.probe.ResolverProbe}, {@link io.trimus.adapter.egress.probe.ProxyProbe}. Imports
 * only config; never the attachment above it.
 */
package io.trimus.adapter.egress.probe;
