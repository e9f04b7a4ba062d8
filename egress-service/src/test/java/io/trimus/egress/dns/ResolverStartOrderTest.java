package io.trimus.egress.dns;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.is;

/** The resolver answers only once the stored sandbox registrations are in memory, so no running sandbox is refused. */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class ResolverStartOrderTest {

    @Inject
    TrimusConfig config;

    @Inject
    Vertx vertx;

    @Inject
    AllowlistCache allowlists;

    @Inject
    AnomalyRecorder anomalies;

    @Inject
    MeterRegistry meters;

    @Inject
    SandboxRegistry registry;

    @Test
    void aResolverWhoseRegistryIsNotLoadedRefusesToStart() {
        DnsServerLifecycle unloaded = new DnsServerLifecycle(config, vertx, new SandboxRegistry(), allowlists,
                anomalies, meters, company -> io.trimus.egress.policy.EgressMode.ENFORCE, () -> true);

        assertThatThrownBy(() -> unloaded.start(new InetSocketAddress("127.0.0.1", 0)))
                .hasMessageContaining("sandbox registrations are not loaded");
        assertThat(unloaded.port()).isEmpty();
    }

    @Test
    void theServiceIsReadyOnlyWithItsRegistryLoaded() {
        assertThat(registry.isLoaded()).as("loaded at start, before the resolver").isTrue();
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'egress-sandbox-registry' }.status", is("UP"));
    }
}
