/**
 * The rules and transaction boundaries of run-service, a sub-package per feature: run, recovery, agent, secret,
 * worker, company, identity, audit, outbox, a2a. Features form no cycle. Entry point:
 * {@link io.trimus.run.service.run.RunService}. Never imports rest or messaging.
 */
package io.trimus.run.service;
