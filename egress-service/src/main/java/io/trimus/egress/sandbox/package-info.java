/**
 * Which sandbox owns which source address, in memory: the attribution the resolver and the proxy read on every query
 * and connection. Entry point: {@link io.trimus.egress.sandbox.SandboxRegistry#lookup}. Never imports
 * {@code sandbox.registration} or {@code sandbox.replica}, which fill it.
 */
package io.trimus.egress.sandbox;
