/**
 * Intake: the Kafka records that start or stop a run, {@code trimus.run.requested} and {@code trimus.run.cancel},
 * handed to the dispatcher on a worker thread. Entry points: {@link io.trimus.adapter.intake.RunRequestedConsumer},
 * {@link io.trimus.adapter.intake.RunCancelConsumer}. Translation only: imports dispatch, never an executor.
 */
package io.trimus.adapter.intake;
