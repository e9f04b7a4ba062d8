/**
 * The worker tags an operator granted to companies. Entry point:
 * {@link io.trimus.run.repository.worker.CompanyWorkerTagRepository}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository.worker;
