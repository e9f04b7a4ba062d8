/**
 * The record of every attributed proxy connection: queued off the proxy's event loops
 * ({@link io.trimus.egress.connection.ConnectionRecorder}), written in batches, aged out, and read back per run.
 * Entry points: {@link io.trimus.egress.connection.BufferedConnectionRecorder#record} (writing) and
 * {@link io.trimus.egress.connection.RunEgressService} (reading). Never imports the proxy, dns or rest.
 */
package io.trimus.egress.connection;
