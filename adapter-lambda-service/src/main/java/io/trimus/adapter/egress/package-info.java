/**
 * Egress attachment: a container's way onto the egress network (or a tenant network) and off it again, its address
 * claimed at egress-service before it exists. Entry point: {@link io.trimus.adapter.egress.SandboxAttachment#attach};
 * the network, registry, probe and CA parts in sub-packages. Imports only engine, config and net: never the container
 * runtime, an executor or a stage above it.
 */
package io.trimus.adapter.egress;
