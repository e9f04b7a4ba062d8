/**
 * Registering sandbox addresses, for the adapter service ({@code /internal/sandboxes}): one run holds an address at a
 * time, a registration (and its sealed masks) is stored before this replica's registry learns it. Entry point:
 * {@link io.trimus.egress.sandbox.registration.SandboxService}. Never imports {@code sandbox.replica}, dns or the
 * proxy.
 */
package io.trimus.egress.sandbox.registration;
