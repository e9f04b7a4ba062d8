/**
 * egress-service's sandbox registry as this service calls it ({@code PUT|DELETE /internal/sandboxes/{ip}}) and the
 * refresh of registrations holding masks. Entry point: {@link io.trimus.adapter.egress.registry.EgressServiceClient}.
 * Imports only config and net; never the attachment above it.
 */
package io.trimus.adapter.egress.registry;
