package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.ExecCreateCmdResponse;
import com.github.dockerjava.api.model.Container;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.DnsServerLifecycle;
import io.trimus.egress.dns.ResolverRestart;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.proxy.ProxyLifecycle;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.egress.sandbox.replica.SandboxRegistryLoader;
import io.trimus.events.Topics;
import io.trimus.testing.Containers;
import io.trimus.testing.DockerClients;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Attribution cannot be confused (issue 13): two real adapter processes on one Docker engine start sandboxes on the
 * egress network at the same time, and every DNS query of every sandbox is attributed to its own run, because this
 * egress-service decides which run holds which address; and a sandbox keeps resolving, attributed, across a restart
 * of egress-service's resolver, because the registrations are stored and reloaded before it answers again.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class SandboxAttributionEndToEndTest {
    private static final String ALLOWED = "api.attribution.trimus.test";
    private static final String ALLOWED_IP = "198.51.100.9";
    private static final String DENIED_ZONE = ".denied.attribution.trimus.test";
    private static final int RUNS = 20;
    private static final Pattern ADDRESS = Pattern.compile("inet (172\\.30\\.0\\.\\d+)/");

    /** The run-request topics of this class's two adapters: fresh per test run, so a failed start leaves nothing behind. */
    private static final String TOPIC_PREFIX = "trimus.run.requested.attribution-" + UUID.randomUUID() + "-";
    private static final DockerClient DOCKER = DockerClients.local();
    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static String image;
    private static ServiceProcess first;
    private static ServiceProcess second;

    @TestHTTPResource("/")
    URI egressService;

    @Inject
    DnsServerLifecycle resolver;

    @Inject
    ProxyLifecycle proxy;

    @Inject
    SandboxRegistry registry;

    @Inject
    SandboxRegistryLoader loader;

    @BeforeAll
    static void startUpstream() {
        upstream = new TestUpstreamDns().a(ALLOWED, ALLOWED_IP).startReserved();
        image = TestImages.busybox();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterAll
    static void stop() {
        for (ServiceProcess adapter : new ServiceProcess[]{first, second}) {
            if (adapter != null) {
                adapter.close();
            }
        }
        if (upstream != null) {
            upstream.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void twoAdapterProcessesStartingTwentySandboxesAtOnceHaveEveryQueryAttributedToItsOwnRun() throws Exception {
        startAdapters();
        Map<UUID, UUID> companyOf = new HashMap<>();
        List<ProducerRecord<String, String>> requests = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            UUID run = UUID.randomUUID();
            UUID company = UUID.randomUUID();
            SandboxRuns.allow(company, ALLOWED);
            companyOf.put(run, company);
            // the lookups come while the other sandboxes hold their addresses too: every run sleeps in between
            String script = "ip -4 -o addr show eth0; nslookup " + ALLOWED + "; sleep 3; nslookup " + run
                    + DENIED_ZONE + "; echo done";
            requests.add(new ProducerRecord<>(topicOf(i % 2 == 0 ? "a" : "b"), run.toString(),
                    sandboxRequest(run, company, script).toString()));
        }

        Map<UUID, JsonNode> ends = publishAndAwait(requests);

        Set<String> addresses = new HashSet<>();
        for (Map.Entry<UUID, JsonNode> end : ends.entrySet()) {
            String output = end.getValue().path("output").asText();
            assertThat(end.getValue().get("status").asText()).as(end.getValue().toString()).isEqualTo("SUCCEEDED");
            assertThat(SandboxRuns.resolvedTo(output, ALLOWED, EgressNetworkResource.GATEWAY))
                    .as("attributed, so answered: " + output).isTrue();
            assertThat(output).as("attributed, so answered: " + output).contains("NXDOMAIN")
                    .doesNotContain("REFUSED").endsWith("done\n");
            Matcher address = ADDRESS.matcher(output);
            assertThat(address.find()).as(output).isTrue();
            assertThat(addresses.add(address.group(1))).as(address.group(1) + " given to two sandboxes").isTrue();
        }
        for (UUID run : ends.keySet()) {
            JsonNode anomaly = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> SandboxRuns.anomaly(companyOf.get(run), run + DENIED_ZONE), Optional::isPresent).orElseThrow();
            assertThat(anomaly.get("run_id").asText()).as("the query of run " + run).isEqualTo(run.toString());
            assertThat(anomaly.get("reason").asText()).isEqualTo("not_allowlisted");
        }
    }

    @Test
    void aRunningSandboxKeepsResolvingAttributedAcrossARestartOfEgressService() throws Throwable {
        startAdapters();
        UUID run = UUID.randomUUID();
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, ALLOWED);
        // the sandbox's own process asks before the restart, waits for it, and asks again
        String script = "nslookup " + ALLOWED + "; nslookup before." + run + DENIED_ZONE + "; echo restart-now;"
                + " until [ -e /tmp/restarted ]; do sleep 0.2; done;"
                + " nslookup " + ALLOWED + "; nslookup after." + run + DENIED_ZONE + "; echo done";
        try (ConsumerTask<String, String> statuses = kafka.consumeStrings().fromTopics(Topics.RUN_STATUS)) {
            kafka.produceStrings().fromRecords(new ProducerRecord<>(topicOf("a"), run.toString(),
                    sandboxRequest(run, company, script).toString())).awaitCompletion(Duration.ofSeconds(30));
            String container = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> running(run), Optional::isPresent).orElseThrow();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> SandboxRuns.anomaly(company, "before." + run + DENIED_ZONE).isPresent());

            ResolverRestart.restart(resolver, proxy, registry, loader);
            exec(container, "touch /tmp/restarted");

            JsonNode end = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> SandboxRuns.terminal(statuses, run), Optional::isPresent).orElseThrow();
            String output = end.path("output").asText();
            assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
            String afterRestart = output.substring(output.indexOf("restart-now"));
            assertThat(SandboxRuns.resolvedTo(afterRestart, ALLOWED, EgressNetworkResource.GATEWAY))
                    .as("answered after the restart: " + output).isTrue();
            assertThat(afterRestart).as("answered after the restart: " + output)
                    .contains("NXDOMAIN").doesNotContain("REFUSED").endsWith("done\n");
        }
        JsonNode after = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> SandboxRuns.anomaly(company, "after." + run + DENIED_ZONE), Optional::isPresent).orElseThrow();
        assertThat(after.get("run_id").asText()).isEqualTo(run.toString());
        assertThat(after.get("reason").asText()).isEqualTo("not_allowlisted");
    }

    // --- helpers --------------------------------------------------------------------------------------------

    /** Two adapter services on this engine, each with its own instance name and its own run-request topic. */
    private void startAdapters() throws Exception {
        if (first != null) {
            return;
        }
        if (!kafka.topics().list().contains(topicOf("a"))) {
            kafka.topics().createAndWait(topicOf("a"), 1);
            kafka.topics().createAndWait(topicOf("b"), 1);
        }
        CompletableFuture<ServiceProcess> a = CompletableFuture.supplyAsync(() -> adapter("a"));
        CompletableFuture<ServiceProcess> b = CompletableFuture.supplyAsync(() -> adapter("b"));
        first = a.join();
        second = b.join();
    }

    private ServiceProcess adapter(String name) {
        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", ConfigProvider.getConfig().getValue("kafka.bootstrap.servers",
                String.class));
        config.put("trimus.egress.service-url", egressService.toString());
        // the deployment's key: the adapters' sandbox registrations present the service credential derived from it
        config.put("trimus.encryption-key", EgressNetworkResource.ENCRYPTION_KEY);
        config.put("trimus.docker.instance", "attribution-" + name);
        config.put("trimus.docker.max-concurrent-runs", String.valueOf(RUNS));
        config.put("mp.messaging.incoming.\"trimus.run.requested\".topic", topicOf(name));
        return ServiceProcess.start(Path.of("..", "adapter-lambda-service"), config);
    }

    private static String topicOf(String adapter) {
        return TOPIC_PREFIX + adapter;
    }

    private static ObjectNode sandboxRequest(UUID run, UUID company, String script) {
        return SandboxRuns.sandboxRequest(run, company, image, script, 120);
    }

    private static Map<UUID, JsonNode> publishAndAwait(List<ProducerRecord<String, String>> requests) {
        return SandboxRuns.publishAndAwait(kafka, requests, Duration.ofSeconds(240));
    }

    /** The id of the run's container once it runs. */
    private static Optional<String> running(UUID run) {
        return Containers.findByLabel(DOCKER, "trimus.run_id", run.toString()).stream()
                .filter(c -> "running".equals(c.getState())).map(Container::getId).findFirst();
    }

    private static void exec(String container, String command) throws Exception {
        ExecCreateCmdResponse exec = DOCKER.execCreateCmd(container).withCmd("/bin/sh", "-c", command).exec();
        DOCKER.execStartCmd(exec.getId()).start().awaitCompletion();
    }
}
