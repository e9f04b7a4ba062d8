/**
 * Kafka the way every service uses it: one CloudEvent per record with its aggregate's key, single-partition topics
 * created before use, and the stop bounds read from {@code trimus.shutdown.*}. Entry point:
 * {@link io.trimus.commons.messaging.CloudEventRecords}. Imports no other commons package and no service.
 */
package io.trimus.commons.messaging;
