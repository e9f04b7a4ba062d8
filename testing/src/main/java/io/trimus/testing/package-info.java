/**
 * Test infrastructure and the dev launcher: the real Kafka broker and PostgreSQL server in child JVMs
 * ({@link io.trimus.testing.Infra}, started for a Quarkus test by {@link io.trimus.testing.TrimusInfraResource}),
 * service child JVMs started on port 0 ({@link io.trimus.testing.ServiceProcess}), the OIDC provider stand-in, the
 * test images built on the local Docker engine ({@link io.trimus.testing.TestImages}) and the one test operator and
 * encryption key ({@link io.trimus.testing.TestOperator}), and a loopback TCP relay a test can switch off or cut
 * ({@link io.trimus.testing.TcpRelay}). Entry points: {@code TrimusInfraResource} for a
 * {@code @QuarkusTest}, {@link io.trimus.testing.DevInfraMain} for {@code ./trimus up}'s infrastructure.
 * <p>
 * Used by tests and the dev run only, never by a service's main code; never imports a service's code
 * ({@code io.trimus.run}, {@code adapter}, {@code egress}, {@code admin}).
 */
package io.trimus.testing;
