package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.events.Topics;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

/**
 * What the end-to-end tests do with runs and egress-service's API: build a run request for a docker sandbox on the
 * egress network, publish run requests to the real broker and wait for their terminal status, set an allowlist, and
 * read a company's anomalies back.
 */
final class SandboxRuns {
    static final ObjectMapper JSON = new ObjectMapper();

    private SandboxRuns() {
    }

    /**
     * The knobs of the one adapter service the end-to-end classes share ({@link #sharedAdapter}), each needed by one
     * class and harmless to the others: A2A peers on loopback (A2aDelegationEndToEndTest), masked registrations sent
     * again every second (MaskedSecretsEndToEndTest), a run finding the proxy gone waits 3 s for it before it fails
     * (ProxyEgressEndToEndTest; 30 s by default), lambda endpoints on loopback and a lease beat every second
     * (ScaleOutSurvivalTest, whose killed adapter it is), canary probes from the tests' busybox image
     * (CanaryEndToEndTest), gVisor's runsc allowed besides runc (ProxyEgressEndToEndTest).
     */
    static final Map<String, String> SHARED_ADAPTER_KNOBS = Map.of(
            "trimus.a2a.allow-private", "127.0.0.1/32",
            // every sandbox checks the resolver and the proxy afresh: tests stop them between runs
            "trimus.egress.resolver-check-trust", "0s",
            "trimus.egress.proxy-check-trust", "0s",
            "trimus.egress.masks-refresh", "1s",
            "trimus.egress.ready-timeout", "3s",
            "trimus.lambda.allow-private", "127.0.0.1/32",
            "trimus.adapter-lease.interval", "1s",
            // sandboxes under gVisor too (ProxyEgressEndToEndTest), registered by ./trimus test (scripts/gvisor.sh)
            "trimus.docker.runtimes", "runc,runsc",
            // canaries' probe sandboxes from the tests' busybox image (CanaryEndToEndTest)
            "trimus.egress.canary-image", io.trimus.testing.TestImages.BUSYBOX);
    private static io.trimus.testing.ServiceProcess shared;

    /** The {@code trimus.docker.instance} of the shared adapter ({@link #sharedAdapter}). */
    static final String SHARED_INSTANCE = "egress-e2e";

    /**
     * The real adapter service the end-to-end classes share, started by the first that needs it and left running for
     * the rest of the test JVM (its shutdown hook stops it): one boot instead of one per class. It is in the adapters'
     * consumer group of trimus.run.requested, so a class that starts adapters of its own on that topic counts it as
     * one of them (ScaleOutSurvivalTest: the adapter it kills; the next class that needs it starts it again). Pointed
     * at this egress-service, the shared broker and the tests' TRIMUS_ENCRYPTION_KEY, with
     * {@link #SHARED_ADAPTER_KNOBS}.
     */
    static synchronized io.trimus.testing.ServiceProcess sharedAdapter(java.net.URI egressService) {
        if (shared == null || !shared.isAlive()) {
            shared = adapter(egressService, SHARED_INSTANCE, SHARED_ADAPTER_KNOBS);
        }
        return shared;
    }

    /**
     * The real adapter service as a process, pointed at the egress-service under test (whose port is known only once
     * tests run) and the shared broker, with the tests' TRIMUS_ENCRYPTION_KEY; {@code extra} adds or overrides knobs.
     */
    static io.trimus.testing.ServiceProcess adapter(java.net.URI egressService, String instance,
                                                    Map<String, String> extra) {
        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("kafka.bootstrap.servers", String.class));
        config.put("trimus.egress.service-url", egressService.toString());
        config.put("trimus.encryption-key", EgressNetworkResource.ENCRYPTION_KEY);
        config.put("trimus.docker.instance", instance);
        config.putAll(extra);
        return io.trimus.testing.ServiceProcess.start(java.nio.file.Path.of("..", "adapter-lambda-service"),
                config);
    }

    /**
     * run-service as a process on the shared broker and database with the tests' operator token and the same
     * TRIMUS_ENCRYPTION_KEY as {@link #adapter} (secrets it seals, the adapter opens); {@code extra} adds knobs.
     */
    static io.trimus.testing.ServiceProcess runService(Map<String, String> extra) {
        Map<String, String> infra = new HashMap<>();
        for (String key : List.of("kafka.bootstrap.servers", "quarkus.datasource.reactive.url",
                "quarkus.datasource.jdbc.url", "quarkus.flyway.username", "quarkus.flyway.password")) {
            infra.put(key, org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue(key, String.class));
        }
        Map<String, String> config = new HashMap<>(io.trimus.testing.RunServiceResource.childConfig(infra));
        config.put("trimus.encryption-key", EgressNetworkResource.ENCRYPTION_KEY);
        config.putAll(extra);
        return io.trimus.testing.ServiceProcess.start(java.nio.file.Path.of("..", "run-service"),
                config);
    }

    /** A run request for a docker agent on the egress network running {@code /bin/sh -c script} in {@code image}. */
    static ObjectNode sandboxRequest(UUID run, UUID company, String image, String script, int timeoutSec) {
        return sandboxRequest(run, company, image, script, timeoutSec, null);
    }

    /** As above, under the OCI runtime {@code runtime} ({@code runsc}: gVisor), or the default when null. */
    static ObjectNode sandboxRequest(UUID run, UUID company, String image, String script, int timeoutSec,
                                     String runtime) {
        ObjectNode request = sandboxRequestOn(run, company, image, script, timeoutSec);
        if (runtime != null) {
            ((ObjectNode) request.get("adapter_config")).put("runtime", runtime);
        }
        return request;
    }

    private static ObjectNode sandboxRequestOn(UUID run, UUID company, String image, String script, int timeoutSec) {
        ObjectNode request = JSON.createObjectNode()
                .put("id", UUID.randomUUID().toString()).put("run_id", run.toString())
                .put("company_id", company.toString()).put("agent_id", UUID.randomUUID().toString())
                .put("adapter_type", "docker").put("requested_at", Instant.now().toString());
        request.set("adapter_config", JSON.valueToTree(Map.of("image", image, "network", EgressNetworkResource.NETWORK,
                "command", List.of("/bin/sh", "-c", script), "timeout_sec", timeoutSec)));
        return request;
    }

    /** Publishes one run request on {@code topic} and waits up to {@code timeout} for its terminal status. */
    static JsonNode publishAndAwait(KafkaCompanion kafka, String topic, UUID run, ObjectNode request,
                                    Duration timeout) {
        return publishAndAwait(kafka, List.of(new ProducerRecord<>(topic, run.toString(), request.toString())),
                timeout).get(run);
    }

    /** Publishes run requests (keyed by run id) and waits up to {@code timeout} for every terminal status. */
    static Map<UUID, JsonNode> publishAndAwait(KafkaCompanion kafka, List<ProducerRecord<String, String>> requests,
                                               Duration timeout) {
        try (ConsumerTask<String, String> statuses = kafka.consumeStrings().fromTopics(Topics.RUN_STATUS)) {
            kafka.produceStrings().fromRecords(new ArrayList<>(requests)).awaitCompletion(Duration.ofSeconds(30));
            Map<UUID, JsonNode> ends = new HashMap<>();
            await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
                for (ProducerRecord<String, String> request : requests) {
                    UUID run = UUID.fromString(request.key());
                    terminal(statuses, run).ifPresent(end -> ends.put(run, end));
                }
                return ends.size() == requests.size();
            });
            return ends;
        }
    }

    /** The run's terminal status event among those consumed so far. */
    static Optional<JsonNode> terminal(ConsumerTask<String, String> statuses, UUID run) throws Exception {
        for (var record : statuses.getRecords()) {
            if (run.toString().equals(record.key())) {
                JsonNode event = JSON.readTree(record.value());
                String status = event.get("status").asText();
                if (!status.equals("DISPATCHED") && !status.equals("RUNNING")) {
                    return Optional.of(event);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Whether busybox {@code nslookup} output answers {@code name} with {@code ip} (not merely names {@code ip} as
     * the server it asked, which it prints as {@code ip:53}).
     */
    static boolean resolvedTo(String output, String name, String ip) {
        return java.util.regex.Pattern.compile("Name:\\s+" + java.util.regex.Pattern.quote(name)
                + "\\s+Address:\\s+" + java.util.regex.Pattern.quote(ip) + "(?![:\\d])").matcher(output).find();
    }

    /** Replaces the company's allowlist through the API. */
    static void allow(UUID company, String... entries) {
        given().contentType(ContentType.JSON).body(Map.of("entries", List.of(entries)))
                .put("/api/companies/{c}/egress/allowlist", company).then().statusCode(200);
    }

    /** The company's stored anomaly for {@code qname}, when there is one. */
    static Optional<JsonNode> anomaly(UUID company, String qname) throws Exception {
        for (JsonNode item : anomalies(company, qname)) {
            if (qname.equals(item.get("qname").asText())) {
                return Optional.of(item);
            }
        }
        return Optional.empty();
    }

    /** The company's stored anomalies, newest first, only those for {@code qname} unless it is null. */
    static List<JsonNode> anomalies(UUID company, String qname) throws Exception {
        var request = given();
        if (qname != null) {
            request = request.queryParam("qname", qname);
        }
        String body = request.get("/api/companies/{c}/egress/anomalies?limit=200", company)
                .then().statusCode(200).extract().asString();
        List<JsonNode> items = new ArrayList<>();
        JSON.readTree(body).forEach(items::add);
        return items;
    }

    /** Random letters and digits, for secret values a test must be able to find (or not) anywhere. */
    static String randomAlphanumeric(int length) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        java.security.SecureRandom random = new java.security.SecureRandom();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
