/**
 * Status out: every run transition as a CloudEvent on {@code trimus.run.status}, keyed by run id, with the lease
 * and a worker's held runs updated on the way. Entry point: {@link io.trimus.adapter.status.RunStatusPublisher} (the
 * {@code run.RunReporter} every stage reports through). Never imports dispatch or an executor.
 */
package io.trimus.adapter.status;
