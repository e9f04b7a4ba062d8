/**
 * The A2A face of published agents: the agent card and JSON-RPC endpoint under {@code /a2a/…}, and publishing an
 * agent. Entry point: {@link io.trimus.run.rest.a2a.A2aResource}. Calls service.a2a; never imports messaging or a
 * repository.
 */
package io.trimus.run.rest.a2a;
