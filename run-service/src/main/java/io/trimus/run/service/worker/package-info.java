/**
 * Remote workers: the operator's grants of worker tags to companies, and the workers heard from on
 * {@code trimus.worker.heartbeats}. Entry point: {@link io.trimus.run.service.worker.WorkerTagService}.
 * Never imports rest or messaging.
 */
package io.trimus.run.service.worker;
