/**
 * How each replica's sandbox registry follows the stored registrations: loaded at start, then every change announced
 * by PostgreSQL applied as it arrives, with the masks of masked runs opened. Entry point:
 * {@link io.trimus.egress.sandbox.replica.SandboxRegistryLoader}. Never imports dns, the proxy or rest.
 */
package io.trimus.egress.sandbox.replica;
