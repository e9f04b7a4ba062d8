/**
 * Agents: registering them after checking their adapter_config against the adapter's contract and the operator's
 * choices, and warning when a sandboxed agent cannot reach its provider through the company's egress allowlist
 * (asked of egress-service over HTTP). Entry point: {@link io.trimus.run.service.agent.AgentService}. Never imports
 * rest, messaging, or egress-service's code.
 */
package io.trimus.run.service.agent;
