/**
 * The live topics ({@code trimus.egress.anomalies}, {@code trimus.run.status}), read by every replica from the latest
 * offset and broadcast in memory to the open feeds. Entry point: {@link io.trimus.admin.messaging.LiveFeed}. Knows only
 * the events contracts: never imports {@code auth}, {@code client}, {@code view} or {@code rest}.
 */
package io.trimus.admin.messaging;
