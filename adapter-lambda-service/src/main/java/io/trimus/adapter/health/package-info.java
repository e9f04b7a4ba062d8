/**
 * Readiness: the Docker engine answers, the egress network is ready, a worker joined its tags' groups. Entry points:
 * the {@code @Readiness} checks. A side stage: reads engine, egress.network and worker; nothing imports it.
 */
package io.trimus.adapter.health;
