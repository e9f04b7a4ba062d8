package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Event;
import com.github.dockerjava.api.model.EventType;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.testing.DockerClients;
import io.trimus.testing.InfraControl;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.Closeable;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 18's burst, with kill -9: two run-services and two adapter services on the real broker, database and Docker
 * engine (this egress-service the sandboxes' resolver), 4 companies pushing docker runs (on the egress network, each
 * looking up a name nobody allowed) and lambda runs (against a loopback endpoint that counts its calls). During the
 * burst one run-service and one adapter are killed; in a second burst the broker is stopped and started again. Every
 * run ends final exactly once, none is executed twice (the engine's own create events, the endpoint's own call count),
 * every denied lookup is counted in exactly one anomaly row, and the survivors carry on.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class ScaleOutSurvivalTest {
    private static final int COMPANIES = 4;
    /**
     * Runs of the first burst, the kill after half of them. What the kill meets does not grow with it: runs are posted
     * far faster than two cores run them, so at the kill (10 containers created) each adapter holds what its slots and
     * company shares hold, started and not, plus a queue; the half after the kill goes to the survivors alone.
     */
    private static final int BURST = 100;
    private static final Set<String> FINAL = Set.of("SUCCEEDED", "FAILED", "TIMED_OUT", "CANCELLED", "REJECTED");

    private static TestUpstreamDns upstream;
    private static LambdaEndpoint endpoint;
    private static EngineRecord engine;
    private static final List<ServiceProcess> processes = new CopyOnWriteArrayList<>();

    @TestHTTPResource("/")
    URI egressService;

    @Inject
    MeterRegistry meters;

    @BeforeAll
    static void outsideParts() throws Exception {
        upstream = new TestUpstreamDns().startReserved();
        endpoint = LambdaEndpoint.start();
        engine = EngineRecord.start();
    }

    @AfterAll
    static void stopAll() throws Exception {
        processes.forEach(ServiceProcess::close);
        if (engine != null) {
            engine.removeContainersOf("scale-a", SandboxRuns.SHARED_INSTANCE);
            engine.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    /** Companies, each with a docker agent (one denied lookup, then a second of work) and a lambda agent. */
    private record Company(String id, String dockerAgent, String lambdaAgent) {
    }

    private record Run(String company, String id, boolean docker) {
    }

    @Test
    void aBurstSurvivesKillingARunServiceAndAnAdapterAndABrokerRestart() throws Exception {
        // the two adapters are one of this class's own, which survives, and the one the end-to-end classes share (it
        // is in the adapters' consumer group anyway, with this class's knobs: SandboxRuns.SHARED_ADAPTER_KNOBS), which
        // is killed: its short TRIMUS_EGRESS_READY_TIMEOUT (3 s) never meets the runs that must succeed; all boot at
        // once (the adapters need only the broker and this egress-service, not a run-service)
        List<ServiceProcess> booted = startAll(List.of(this::runService, this::runService, () -> adapter("scale-a"),
                () -> SandboxRuns.sharedAdapter(egressService)));
        List<ServiceProcess> runServices = booted.subList(0, 2);
        List<ServiceProcess> adapters = booted.subList(2, 4);
        ServiceProcess survivor = runServices.get(0);
        List<Company> companies = new ArrayList<>();
        for (int i = 0; i < COMPANIES; i++) {
            companies.add(company(survivor, "Scale " + i + " " + UUID.randomUUID()));
        }
        double deniedBefore = denied();

        // burst 1: 100 runs over both run-services; after half of them, kill -9 one run-service and one adapter
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            if (i == BURST / 2) {
                await().atMost(Duration.ofSeconds(60)).until(() -> engine.created().size() >= 10);
                runServices.get(1).kill();
                adapters.get(1).kill();
            }
            ServiceProcess target = runServices.get(i % 2).isAlive() ? runServices.get(i % 2) : survivor;
            runs.add(start(target, companies.get(i % COMPANIES), i % 2 == 0));
        }
        Map<String, JsonNode> ends = awaitFinal(survivor, runs, Duration.ofMinutes(4));
        assertExactlyOnce(runs, ends);

        // burst 2: 40 runs on the survivors while the broker stops and comes back
        InfraControl broker = InfraControl.fromConfig();
        List<Run> second = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (i == 10) {
                broker.stopKafka();
            }
            if (i == 25) {
                broker.startKafka();
            }
            second.add(start(survivor, companies.get(i % COMPANIES), i % 2 == 0));
        }
        Map<String, JsonNode> secondEnds = awaitFinal(survivor, second, Duration.ofMinutes(3));
        assertExactlyOnce(second, secondEnds);
        // the survivors carry on: what was asked for once the broker was back all ran
        assertThat(second.subList(25, second.size())).as("runs asked for once the broker was back: %s",
                        second.subList(25, second.size()).stream().map(run -> secondEnds.get(run.id))
                                .filter(end -> !"SUCCEEDED".equals(end.path("status").asText())).toList())
                .extracting(run -> secondEnds.get(run.id).path("status").asText())
                .containsOnly("SUCCEEDED");

        // every denied lookup of both bursts is in exactly one anomaly row's count (folded repeats arrive when their
        // window closes)
        double deniedLookups = denied() - deniedBefore;
        assertThat(deniedLookups).isPositive();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> anomalyCount(companies) == deniedLookups);
        List<Run> all = new ArrayList<>(runs);
        all.addAll(second);
        Set<String> runsWithAnomalies = anomalyRuns(companies);
        all.stream().filter(Run::docker).filter(run -> "SUCCEEDED".equals(status(ends, secondEnds, run)))
                .forEach(run -> assertThat(runsWithAnomalies).as("denials of run %s", run.id).contains(run.id));

        System.out.printf("scale-out burst: %d runs (%s); after the broker restart %d runs (%s); denied lookups %.0f;"
                        + " containers created %d; lambda calls %d%n", runs.size(), byStatus(ends), second.size(),
                byStatus(secondEnds), deniedLookups, engine.created().size(), endpoint.calls());
    }

    private static String status(Map<String, JsonNode> ends, Map<String, JsonNode> more, Run run) {
        JsonNode end = ends.containsKey(run.id) ? ends.get(run.id) : more.get(run.id);
        return end.path("status").asText();
    }

    /**
     * Every run final; none started twice; a run that succeeded ran exactly once; a run that failed says why and, when
     * it never got to run, is not counted as run.
     */
    private static void assertExactlyOnce(List<Run> runs, Map<String, JsonNode> ends) {
        assertThat(ends).hasSize(runs.size());
        Map<String, Integer> containers = engine.createdPerRun();
        for (Run run : runs) {
            JsonNode end = ends.get(run.id);
            String status = end.path("status").asText();
            int executions = run.docker ? containers.getOrDefault(run.id, 0) : endpoint.callsOf(run.id);
            assertThat(executions).as("executions of %s run %s (%s)", run.docker ? "docker" : "lambda", run.id, end)
                    .isLessThanOrEqualTo(1);
            if (status.equals("SUCCEEDED")) {
                assertThat(executions).as("run %s succeeded", run.id).isEqualTo(1);
            } else {
                assertThat(status).as("run %s", run.id).isEqualTo("FAILED");
                assertThat(end.path("error").asText()).as("run %s", run.id).isNotBlank();
            }
        }
    }

    private Map<String, JsonNode> awaitFinal(ServiceProcess runService, List<Run> runs, Duration atMost) {
        Map<String, JsonNode> ends = new ConcurrentHashMap<>();
        await().atMost(atMost).pollInterval(Duration.ofSeconds(1)).conditionEvaluationListener(condition -> {
            if (condition.getRemainingTimeInMS() <= 2000) {
                runs.stream().filter(run -> !ends.containsKey(run.id)).limit(5).forEach(run ->
                        System.out.println("not final: " + given().baseUri(runService.baseUri().toString())
                                .get("/api/companies/{c}/runs/{r}", run.company, run.id).asString()));
            }
        }).until(() -> {
            for (Run run : runs) {
                if (!ends.containsKey(run.id)) {
                    JsonNode view = SandboxRuns.JSON.readTree(given().baseUri(runService.baseUri().toString())
                            .get("/api/companies/{c}/runs/{r}", run.company, run.id).then().statusCode(200)
                            .extract().asString());
                    if (FINAL.contains(view.path("status").asText())) {
                        ends.put(run.id, view);
                    }
                }
            }
            return ends.size() == runs.size();
        });
        return ends;
    }

    private static String byStatus(Map<String, JsonNode> ends) {
        return new TreeMap<>(ends.values().stream().collect(Collectors.groupingBy(end -> end.path("status").asText(),
                Collectors.counting()))).toString();
    }

    private double denied() {
        return meters.find("trimus.egress.dns.queries").tag("decision", "not_allowlisted").functionCounters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    private static double anomalyCount(List<Company> companies) throws Exception {
        double sum = 0;
        for (Company company : companies) {
            for (JsonNode row : SandboxRuns.anomalies(UUID.fromString(company.id), null)) {
                sum += row.path("count").asDouble();
            }
        }
        return sum;
    }

    private static Set<String> anomalyRuns(List<Company> companies) throws Exception {
        Set<String> runs = new java.util.HashSet<>();
        for (Company company : companies) {
            for (JsonNode row : SandboxRuns.anomalies(UUID.fromString(company.id), null)) {
                runs.add(row.path("run_id").asText());
            }
        }
        return runs;
    }

    private static Run start(ServiceProcess runService, Company company, boolean docker) {
        String id = given().baseUri(runService.baseUri().toString()).contentType(ContentType.JSON)
                .body(Map.of("input", "scale"))
                .post("/api/companies/{c}/agents/{a}/runs", company.id, docker ? company.dockerAgent : company.lambdaAgent)
                .then().statusCode(202).extract().path("id");
        return new Run(company.id, id, docker);
    }

    private Company company(ServiceProcess runService, String name) {
        String base = runService.baseUri().toString();
        String id = given().baseUri(base).contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/api/companies").then().statusCode(201).extract().path("id");
        String docker = given().baseUri(base).contentType(ContentType.JSON).body(Map.of("name", "looker",
                        "adapter_type", "docker", "adapter_config", Map.of("image", TestImages.busybox(),
                                "network", EgressNetworkResource.NETWORK, "timeout_sec", 60,
                                "command", List.of("/bin/sh", "-c", "nslookup denied-$TRIMUS_RUN_ID.scale.trimus.test"
                                        + " >/dev/null 2>&1; sleep 1; echo done"))))
                .post("/api/companies/{c}/agents", id).then().statusCode(201).extract().path("id");
        String lambda = given().baseUri(base).contentType(ContentType.JSON).body(Map.of("name", "caller",
                        "adapter_type", "lambda", "adapter_config", Map.of("endpoint_url", endpoint.url(),
                                "timeout_ms", 30_000)))
                .post("/api/companies/{c}/agents", id).then().statusCode(201).extract().path("id");
        return new Company(id, docker, lambda);
    }

    private ServiceProcess runService() {
        // the adapters beat every second: five missed beats, not the production floor of ten, judge one lost
        return track(SandboxRuns.runService(Map.of("trimus.run.recovery-interval", "1s",
                "trimus.run.min-lease-grace", "5s")));
    }

    private ServiceProcess adapter(String instance) {
        return track(SandboxRuns.adapter(egressService, instance, Map.of(
                "trimus.lambda.allow-private", "127.0.0.1/32",
                "trimus.adapter-lease.interval", "1s")));
    }

    private static ServiceProcess track(ServiceProcess process) {
        processes.add(process);
        return process;
    }

    /** Starts the services side by side (each takes seconds to boot on two cores). */
    private static List<ServiceProcess> startAll(List<java.util.function.Supplier<ServiceProcess>> starts)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(starts.size());
        try {
            List<Future<ServiceProcess>> started = new ArrayList<>();
            starts.forEach(start -> started.add(pool.submit(start::get)));
            List<ServiceProcess> all = new ArrayList<>();
            for (Future<ServiceProcess> process : started) {
                all.add(process.get());
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A lambda endpoint on loopback that answers each call a second later and counts the calls of each run. */
    private static final class LambdaEndpoint implements Closeable {
        private final HttpServer server;
        private final ScheduledExecutorService answers = Executors.newScheduledThreadPool(2);
        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        private LambdaEndpoint(HttpServer server) {
            this.server = server;
        }

        static LambdaEndpoint start() throws Exception {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            LambdaEndpoint endpoint = new LambdaEndpoint(server);
            server.createContext("/run", exchange -> {
                String run = exchange.getRequestHeaders().getFirst("Idempotency-Key");
                endpoint.calls.computeIfAbsent(String.valueOf(run), k -> new AtomicInteger()).incrementAndGet();
                endpoint.answers.schedule(() -> {
                    byte[] body = "{\"status\":\"succeeded\",\"output\":\"lambda ok\"}"
                            .getBytes(StandardCharsets.UTF_8);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                    return null;
                }, 1, TimeUnit.SECONDS);
            });
            server.start();
            return endpoint;
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/run";
        }

        int callsOf(String run) {
            AtomicInteger n = calls.get(run);
            return n == null ? 0 : n.get();
        }

        int calls() {
            return calls.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        @Override
        public void close() {
            server.stop(0);
            answers.shutdownNow();
        }
    }

    /** The engine's own record of the containers created for runs (its event stream), whoever created them. */
    private static final class EngineRecord implements Closeable {
        private final DockerClient docker;
        private final List<String> created = new CopyOnWriteArrayList<>();
        private final ResultCallback.Adapter<Event> stream;

        private EngineRecord(DockerClient docker) {
            this.docker = docker;
            this.stream = docker.eventsCmd().withEventTypeFilter(EventType.CONTAINER).withEventFilter("create")
                    .withLabelFilter("trimus.run_id")
                    .exec(new ResultCallback.Adapter<>() {
                        @Override
                        public void onNext(Event event) {
                            created.add(event.getActor().getAttributes().get("trimus.run_id"));
                        }
                    });
        }

        static EngineRecord start() {
            return new EngineRecord(DockerClients.local());
        }

        List<String> created() {
            return created;
        }

        Map<String, Integer> createdPerRun() {
            Map<String, Integer> perRun = new HashMap<>();
            created.forEach(run -> perRun.merge(run, 1, Integer::sum));
            return perRun;
        }

        /** Removes what the killed adapter left on the engine (its containers outlive it). */
        void removeContainersOf(String... instances) {
            for (String instance : instances) {
                docker.listContainersCmd().withShowAll(true)
                        .withLabelFilter(Map.of("trimus.adapter_instance", instance)).exec()
                        .forEach(c -> docker.removeContainerCmd(c.getId()).withForce(true).exec());
            }
        }

        @Override
        public void close() throws java.io.IOException {
            stream.close();
            docker.close();
        }
    }
}
