/**
 * The egress network: its settings checked at boot, ensured (created, or checked when not Trimus's own) and watched
 * on the engine. Entry point: {@link io.trimus.adapter.egress.network.EnsureEgressNetwork}. Imports only engine,
 * config and net; never the attachment above it.
 */
package io.trimus.adapter.egress.network;
