/**
 * The contracts between the services: one record per CloudEvent ({@link io.trimus.events.RunRequested},
 * {@link io.trimus.events.RunStatusChanged}, {@link io.trimus.events.EgressAnomaly}, …), their topic names and types,
 * and where each JSON Schema lives. Entry points: {@link io.trimus.events.Topics}, {@link io.trimus.events.EventTypes}.
 * Plain Java and Jackson only: never imports a service, commons, Quarkus, Kafka, nor this module's
 * {@code adapter}, {@code auth} or {@code secrets} packages, which build on these records.
 */
package io.trimus.events;
