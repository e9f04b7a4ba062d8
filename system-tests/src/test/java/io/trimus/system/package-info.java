/**
 * The system tests' one shared stack: {@link io.trimus.system.SystemStack} (entry point, a JUnit 5 extension) starts
 * real Kafka and PostgreSQL, an OpenID Connect provider and the built jars of every service once per test run, and
 * {@link io.trimus.testing.TcpRelay}s forward and switch loopback connections between them. Talks to the services
 * over HTTP and Kafka only: must never import a service's own code ({@code io.trimus.run}, {@code io.trimus.adapter},
 * {@code io.trimus.egress}, {@code io.trimus.admin}).
 */
package io.trimus.system;
