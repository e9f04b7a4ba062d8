/**
 * Kafka in and out: the outbox relay publishes the rows services staged; consumers hand run status (and, per process, the signal that a run changed), adapter leases,
 * worker heartbeats and other services' audit records to services; observer beats go out on the lease topic.
 * Entry points: {@link io.trimus.run.messaging.OutboxRelay} (out), {@link io.trimus.run.messaging.RunStatusConsumer}
 * (in). Calls services only: never imports rest or a repository (Panache repositories, ClusterLocks).
 */
package io.trimus.run.messaging;
