/**
 * Agents: {@link io.trimus.run.repository.agent.Agent} and its repository. Entry point:
 * {@link io.trimus.run.repository.agent.AgentRepository}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository.agent;
