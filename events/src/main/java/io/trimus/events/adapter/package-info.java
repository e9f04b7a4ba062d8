/**
 * Each adapter type's {@code adapter_config}, validated once for every service that reads it (run-service when an
 * agent is saved, the adapter service when a run starts): the types, the limits and the secrets a run takes along.
 * Entry point: {@link io.trimus.events.adapter.AdapterConfigs#parse}. Pure: no I/O; may use the event records,
 * never {@code auth} or a service.
 */
package io.trimus.events.adapter;
