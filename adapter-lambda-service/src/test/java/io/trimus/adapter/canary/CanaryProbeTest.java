package io.trimus.adapter.canary;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.trimus.adapter.container.ContainerPolicy;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.Engine;
import io.trimus.adapter.support.ProxyStandIn;
import io.trimus.adapter.support.Registrations;
import io.trimus.adapter.support.RunBus;
import io.trimus.commons.net.Cidr;
import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryRequested;
import io.trimus.events.CanaryResult;
import io.trimus.events.EventTypes;
import io.trimus.events.Topics;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static io.trimus.adapter.support.EgressTestResource.GATEWAY;
import static io.trimus.adapter.support.EgressTestResource.SUBNET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real canary on the real engine, through the app's own Kafka intake and out on its results topic: the probe image
 * runs the real probe script on the test egress network, against the egress-service stand-in (registry, resolver and
 * proxy checks) and a proxy stand-in on the network's gateway that admits one host. The test stack has no egress
 * firewall, so the host answers on the bridge and the canary says so; everything the proxy refuses stays refused.
 * Nothing of the canary appears on trimus.run.status or trimus.adapter.leases.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressTestResource.class, scope = TestResourceScope.GLOBAL)
class CanaryProbeTest {

    private static final String ADMITTED = "allowed.canary.test:443";
    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static ProxyStandIn proxy;
    private static ConsumerTask<String, String> results;
    private static ConsumerTask<String, String> leases;

    private final RunBus bus = RunBus.get();
    private final Registrations registrations = Registrations.ofApp();

    @Inject
    EnsureEgressNetwork egressNetwork;

    @BeforeAll
    static void standIns() {
        Engine.busybox();
        results = RunBus.get().consume(Topics.EGRESS_CANARY_RESULTS);
        leases = RunBus.get().consume(Topics.ADAPTER_LEASES);
    }

    @BeforeEach
    void egressNetworkIsReady() {
        await().atMost(Duration.ofSeconds(60)).until(() -> egressNetwork.status().ready());
        if (proxy == null) {
            // the gateway address exists once the app has made its network
            proxy = ProxyStandIn.onGateway(GATEWAY, 3128, ADMITTED);
        }
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        results.stop();
        leases.stop();
    }

    @Test
    void aCanaryProbesEveryCheckOnTheEgressNetworkAndAnswersOnItsOwnTopicOnly() {
        CanaryRequested request = request(UUID.randomUUID(), ADMITTED);

        bus.canary(request);
        ConsumerRecord<String, String> record = awaitResult(request.canaryId());
        CanaryResult result = read(record.value());

        assertThat(result.error()).as(record.value()).isNull();
        assertThat(result.checks()).extracting(CanaryCheck::name).containsExactlyElementsOf(CanaryCheck.NAMES);
        for (String mustFail : List.of(CanaryCheck.UNLISTED_NAME, CanaryCheck.UNLISTED_NAME_VIA_PROXY,
                CanaryCheck.IP_LITERAL, CanaryCheck.IP_LITERAL_VIA_PROXY, CanaryCheck.METADATA,
                CanaryCheck.METADATA_VIA_PROXY, CanaryCheck.UNLISTED_PORT)) {
            assertThat(check(result, mustFail).outcome()).as(mustFail + " in " + record.value())
                    .isEqualTo(CanaryCheck.BLOCKED);
        }
        assertThat(check(result, CanaryCheck.METADATA_VIA_PROXY).got()).isEqualTo("HTTP 403");
        assertThat(check(result, CanaryCheck.UNLISTED_PORT).target())
                .isEqualTo("CONNECT allowed.canary.test:25 via " + GATEWAY + ":3128");
        assertThat(check(result, CanaryCheck.BRIDGE_ROUTE).breached())
                .as("without the egress firewall the host answers on the bridge: " + record.value()).isTrue();
        assertThat(check(result, CanaryCheck.ALLOWED_HOST))
                .extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("HTTP 200", CanaryCheck.ALLOWED);
        assertThat(proxy.requestLines()).contains("CONNECT " + request.unlistedName() + ":443 HTTP/1.1",
                "CONNECT 1.1.1.1:443 HTTP/1.1", "GET http://169.254.169.254/latest/meta-data/ HTTP/1.1",
                "CONNECT allowed.canary.test:25 HTTP/1.1", "CONNECT " + ADMITTED + " HTTP/1.1");

        assertThat(record.key()).isEqualTo(request.companyId().toString());
        assertThat(header(record, "ce_type")).isEqualTo(EventTypes.EGRESS_CANARY_RESULT);
        assertThat(result.instance()).isNotBlank();
        assertThat(Cidr.parse(SUBNET).contains(result.sandboxIp())).as(result.sandboxIp()).isTrue();

        var put = registrations.putsOf(request.canaryId());
        assertThat(put).isNotEmpty().allSatisfy(r -> {
            assertThat(r.field("company_id")).isEqualTo(request.companyId().toString());
            assertThat(r.field("agent_id")).isEqualTo(CanaryRequested.PROBE_AGENT_ID.toString());
        });
        assertThat(registrations.deletesOf(result.sandboxIp())).isNotEmpty();
        assertThat(Engine.docker().listContainersCmd().withShowAll(true)
                .withNameFilter(List.of(ContainerPolicy.PROBE_NAME_PREFIX + request.canaryId())).exec()).isEmpty();
        assertThat(bus.records(request.canaryId())).as("nothing on trimus.run.status").isEmpty();
        assertThat(leases.getRecords()).as("nothing on trimus.adapter.leases")
                .noneMatch(r -> r.value().contains(request.canaryId().toString()));
    }

    @Test
    void aRedeliveredCanaryIsProbedOnceAndABadRequestIsAnsweredWithTheReason() {
        CanaryRequested bad = new CanaryRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "not a name", "1.1.1.1:443", null, 25, Instant.now());

        bus.canary(bad);
        bus.canary(bad);
        CanaryResult result = read(awaitResult(bad.canaryId()).value());

        assertThat(result.error()).isEqualTo("the canary request cannot be probed: unlisted_name is not a DNS name");
        assertThat(result.checks()).isEmpty();
        assertThat(registrations.putsOf(bad.canaryId())).isEmpty();
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> resultsOf(bad.canaryId())
                .size() == 1);
    }

    private static CanaryRequested request(UUID company, String allowed) {
        UUID canary = UUID.randomUUID();
        return new CanaryRequested(UUID.randomUUID(), canary, company,
                "c" + canary.toString().substring(0, 8) + ".canary.trimus.invalid", "1.1.1.1:443", allowed, 25,
                Instant.now());
    }

    private static ConsumerRecord<String, String> awaitResult(UUID canaryId) {
        await().atMost(RunBus.FIRST_EVENT).pollInterval(Duration.ofMillis(200))
                .until(() -> !resultsOf(canaryId).isEmpty());
        return resultsOf(canaryId).get(0);
    }

    private static List<ConsumerRecord<String, String>> resultsOf(UUID canaryId) {
        return results.getRecords().stream().filter(r -> r.value().contains(canaryId.toString())).toList();
    }

    private static CanaryCheck check(CanaryResult result, String name) {
        return result.checks().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static CanaryResult read(String value) {
        try {
            return JSON.readValue(value, CanaryResult.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
