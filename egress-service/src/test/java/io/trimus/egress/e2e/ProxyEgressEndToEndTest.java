package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.proxy.ProxyControl;
import io.trimus.egress.proxy.ProxyLifecycle;
import io.trimus.events.Topics;
import io.trimus.testing.DockerClients;
import io.trimus.testing.ServiceProcess;
import io.trimus.testing.TestImages;
import io.trimus.testing.TrimusInfraResource;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The egress proxy attacked from real sandboxes: an "outside" host (a container on a non-internal bridge network of
 * its own, {@value EgressNetworkResource#OUTSIDE_SUBNET}, serving HTTPS with a certificate it made and plain HTTP),
 * the stand-in upstream DNS mapping test names to it, and sandboxes started by the real adapter service on the
 * egress network that try every way out with curl, openssl and nc. Only the allow-listed host, on its ports, through
 * the proxy, gets through; everything else is refused and recorded as an anomaly.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = EgressNetworkResource.class, scope = TestResourceScope.GLOBAL)
class ProxyEgressEndToEndTest {
    private static final String OUTSIDE_NETWORK = EgressNetworkResource.OUTSIDE_NETWORK;
    private static final String OUTSIDE_IP = "10.123.0.10";
    private static final String ALLOWED = "api.proxy.trimus.test";
    private static final String OTHER_ALLOWED = "other.proxy.trimus.test";
    private static final String UNLISTED = "unlisted.proxy.trimus.test";
    private static final String METADATA = "metadata.proxy.trimus.test";
    private static final String LOOPBACK = "loopback.proxy.trimus.test";
    /** Two names of one name-based front end on the outside network; only the first is ever allow-listed. */
    private static final String VHOST = "vhost.proxy.trimus.test";
    private static final String HIDDEN = "hidden.proxy.trimus.test";
    private static final String PROXY = "http://" + EgressNetworkResource.GATEWAY + ":"
            + EgressNetworkResource.PROXY_PORT;
    /** One line per probe: {@code name=<http code>/<CONNECT code> rc=<curl exit code>}. */
    private static final String PROBE = "t() { n=$1; shift; o=$(curl -sk -o /dev/null -w '%{http_code}/%{http_connect}'"
            + " --max-time 8 \"$@\" 2>/dev/null); echo \"$n=$o rc=$?\"; }; ";
    private static final Pattern RESULT = Pattern.compile("^(\\w+)=(\\S*) rc=(\\d+)$", Pattern.MULTILINE);

    private static final DockerClient DOCKER = DockerClients.local();
    private static final String ENCRYPTION_KEY = EgressNetworkResource.ENCRYPTION_KEY;
    private static TestUpstreamDns upstream;
    private static KafkaCompanion kafka;
    private static ServiceProcess adapter;
    private static String tools;
    private static String outside;
    private static LenientVirtualHosts vhosts;

    @TestHTTPResource("/")
    URI egressService;

    @Inject
    ProxyLifecycle proxy;

    @BeforeAll
    static void startOutside() throws Exception {
        tools = TestImages.httpTools(DOCKER);
        outside = startOutsideHost();
        vhosts = new LenientVirtualHosts(EgressNetworkResource.OUTSIDE_GATEWAY, 80);
        upstream = new TestUpstreamDns().a(ALLOWED, OUTSIDE_IP).a(OTHER_ALLOWED, OUTSIDE_IP).a(UNLISTED, OUTSIDE_IP)
                .a(METADATA, "169.254.169.254").a(LOOPBACK, "127.0.0.1")
                .a(VHOST, EgressNetworkResource.OUTSIDE_GATEWAY).a(HIDDEN, EgressNetworkResource.OUTSIDE_GATEWAY)
                .startReserved();
        kafka = new KafkaCompanion(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterAll
    static void stop() throws Exception {
        if (vhosts != null) {
            vhosts.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (outside != null) {
            DOCKER.removeContainerCmd(outside).withForce(true).exec();
        }
        try {
            DOCKER.removeNetworkCmd(OUTSIDE_NETWORK).exec();
        } catch (NotFoundException gone) {
            // nothing to remove
        }
    }

    /** Under runc and under gVisor (runsc, its own network stack): every way out ends the same. */
    @ParameterizedTest(name = "under {0}")
    @ValueSource(strings = {"runc", "runsc"})
    void aSandboxReachesItsAllowListedHostThroughTheProxyAndNothingElse(String runtime) throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, ALLOWED, OTHER_ALLOWED, METADATA, LOOPBACK);
        String script = PROBE
                // plain bytes on the steered TLS port: nothing comes back (in the background from the start, side by
                // side with the probes and the next one: each holds its connection open seconds on purpose)
                + "(n=$( (printf 'GET / HTTP/1.1\\r\\nHost: " + ALLOWED + "\\r\\n\\r\\n'; sleep 2) | nc -w 4 "
                + EgressNetworkResource.GATEWAY + " 443 | wc -c); echo \"plain_on_443=$n rc=0\") & "
                // one kept-alive steered connection asking for a second host
                // (stdin stays open a while: a client's half-close before the answer would end the connection)
                + "(s=$( (printf 'GET / HTTP/1.1\\r\\nHost: " + ALLOWED + "\\r\\n\\r\\nGET / HTTP/1.1\\r\\nHost: "
                + OTHER_ALLOWED + "\\r\\n\\r\\n'; sleep 3) | nc -w 5 " + EgressNetworkResource.GATEWAY + " 80"
                + " | grep -o 'HTTP/1.[01] [0-9]*' | cut -d' ' -f2 | sort | tr '\\n' ,);"
                + " echo \"second_host=$s rc=0\") & "
                + "t https_steered --noproxy '*' https://" + ALLOWED + "/; "
                + "t https_explicit -x " + PROXY + " https://" + ALLOWED + "/; "
                // the HTTPS_PROXY every container on the egress network gets
                + "t https_env https://" + ALLOWED + "/; "
                + "t http_steered --noproxy '*' http://" + ALLOWED + "/; "
                + "t http_explicit -x " + PROXY + " http://" + ALLOWED + "/; "
                + "t unlisted_steered --noproxy '*' https://" + UNLISTED + "/; "
                + "t unlisted_explicit -x " + PROXY + " https://" + UNLISTED + "/; "
                + "t literal_explicit -x " + PROXY + " https://" + OUTSIDE_IP + "/; "
                + "t literal_direct --noproxy '*' https://" + OUTSIDE_IP + "/; "
                + "t port_explicit -x " + PROXY + " https://" + ALLOWED + ":8443/; "
                + "t metadata_explicit -x " + PROXY + " https://" + METADATA + "/; "
                + "t metadata_steered --noproxy '*' https://" + METADATA + "/; "
                + "t loopback_explicit -x " + PROXY + " http://" + LOOPBACK + "/; "
                // the same tunnel, its ClientHello naming the host it was opened for, then another one (fronting)
                + "for sni in " + ALLOWED + " " + OTHER_ALLOWED + "; do echo | openssl s_client -proxy "
                + EgressNetworkResource.GATEWAY + ":" + EgressNetworkResource.PROXY_PORT + " -connect " + ALLOWED
                + ":443 -servername $sni 2>/dev/null | grep -q 'BEGIN CERTIFICATE' && r=handshake || r=refused;"
                + " echo \"sni_${sni%%.*}=$r rc=0\"; done; wait; echo kernel=$(uname -r) rc=0";

        JsonNode end = run(company, script, runtime);

        String output = end.path("output").asText();
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        Map<String, String> results = results(output);
        assertThat(results).as(output)
                .containsEntry("https_steered", "200/000 rc=0")
                .containsEntry("https_explicit", "200/200 rc=0")
                .containsEntry("https_env", "200/200 rc=0")
                .containsEntry("http_steered", "200/000 rc=0")
                .containsEntry("http_explicit", "200/000 rc=0")
                .containsEntry("unlisted_steered", "000/000 rc=6")
                .containsEntry("unlisted_explicit", "000/403 rc=56")
                .containsEntry("literal_explicit", "000/403 rc=56")
                .containsEntry("port_explicit", "000/403 rc=56")
                .containsEntry("metadata_explicit", "000/403 rc=56")
                .containsEntry("loopback_explicit", "403/000 rc=0")
                .containsEntry("sni_api", "handshake rc=0")
                .containsEntry("sni_other", "refused rc=0")
                .containsEntry("plain_on_443", "0 rc=0");
        assertThat(results.get("kernel").equals(System.getProperty("os.version") + " rc=0"))
                .as("runc shares the host's kernel, gVisor brings its own: " + results.get("kernel"))
                .isEqualTo(runtime.equals("runc"));
        assertThat(results.get("literal_direct")).as("no direct route out: " + output).doesNotContain("rc=0");
        assertThat(results.get("metadata_steered")).as(output).startsWith("000/000").doesNotEndWith("rc=0");
        assertThat(results.get("second_host")).as(output).contains("403");
        assertThat(upstream.namesSeen()).doesNotContain(UNLISTED);

        Set<String> reasons = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> reasons(company), found -> found.containsAll(Set.of("not_allowlisted",
                        "proxy_not_allowlisted", "proxy_address_denied", "proxy_port_denied",
                        "proxy_host_mismatch")));
        assertThat(reasons).doesNotContain("unattributed_source");

        // what the run talked to, from the proxy's per-run record
        UUID run = UUID.fromString(end.get("run_id").asText());
        JsonNode record = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> runEgress(company, run), r -> r.path("summary").path("allowed").asLong() >= 5);
        JsonNode api = hostEntry(record, ALLOWED, 443);
        assertThat(api.path("connections").asLong()).as(record.toString()).isGreaterThanOrEqualTo(3);
        assertThat(api.path("bytes_in").asLong()).as(record.toString()).isGreaterThan(500);
        assertThat(hostEntry(record, ALLOWED, 80).path("connections").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(record.path("summary").path("refused").asLong()).as(record.toString()).isGreaterThanOrEqualTo(5);
        assertThat(runEgress(UUID.randomUUID(), run).path("summary").path("connections").asLong())
                .as("another company reads nothing of this run").isZero();
    }

    /**
     * Request smuggling past the allowlist: to an allow-listed name of a name-based front end, a chunked request whose
     * last chunk ends with a bare LF, and behind it a second request for a name of the same front end that is not
     * allow-listed. The front end, lenient like many, ends the body at the bare LF and serves the second request; the
     * proxy once counted it as the first one's trailers and relayed it, recording only the allowed host. Both plain
     * ways, the explicit proxy (absolute-form) and the steered port 80, must refuse it with 400 and the anomaly.
     */
    @Test
    void aRequestSmuggledBehindABareLfNeverReachesTheNameItIsFor() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, VHOST);
        String smuggled = "Transfer-Encoding: chunked\\r\\n\\r\\n3\\r\\nabc\\r\\n0\\r\\n\\n"
                + "GET /secret HTTP/1.1\\r\\nHost: " + HIDDEN + "\\r\\n\\r\\n";
        // both ways side by side: each holds its connection open 3 s on purpose
        String script = "(" + smuggle("explicit", "POST http://" + VHOST + "/ HTTP/1.1\\r\\nHost: " + VHOST
                + "\\r\\n" + smuggled, EgressNetworkResource.PROXY_PORT) + ") & ("
                + smuggle("transparent", "POST / HTTP/1.1\\r\\nHost: " + VHOST + "\\r\\n" + smuggled, 80) + ") & wait";

        JsonNode end = run(company, script);

        String output = end.path("output").asText();
        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("SUCCEEDED");
        assertThat(results(output)).as(output)
                .containsEntry("explicit", "HTTP/1.1_400, rc=0")
                .containsEntry("transparent", "HTTP/1.1_400, rc=0");
        assertThat(output).doesNotContain("vhost=" + HIDDEN);
        assertThat(vhosts.served).noneMatch(request -> request.startsWith(HIDDEN));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> reasons(company).contains("proxy_malformed_request"));
        UUID run = UUID.fromString(end.get("run_id").asText());
        JsonNode record = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> runEgress(company, run), r -> r.path("summary").path("refused").asLong() >= 2);
        List<String> refusals = new java.util.ArrayList<>();
        record.path("connections").forEach(connection -> refusals.add(connection.path("reason").asText()));
        assertThat(refusals).as(record.toString()).containsOnly("proxy_malformed_request");
    }

    /**
     * Sends {@code bytes} (printf escapes) to the proxy's {@code port} from the sandbox and prints
     * {@code name=<status lines and virtual hosts that answered, comma-separated> rc=0}.
     */
    private static String smuggle(String name, String bytes, int port) {
        return "r=$( (printf '" + bytes + "'; sleep 3) | nc -w 5 " + EgressNetworkResource.GATEWAY + " " + port
                + " | grep -oE 'HTTP/1.[01] [0-9]+|vhost=[a-z.]+' | tr ' \\n' '_,'); echo \"" + name + "=$r rc=0\"; ";
    }

    @Test
    void reportModeLetsAnUnlistedHostThroughAndRecordsItEnforceModeDoesNot() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, ALLOWED);
        policy(company, "report");

        JsonNode reported = run(company, PROBE + "t steered --noproxy '*' https://" + UNLISTED + "/;"
                + " t explicit -x " + PROXY
                + " https://" + UNLISTED + "/; t metadata -x " + PROXY + " https://" + METADATA + "/");

        assertThat(results(reported.path("output").asText())).as(reported.toString())
                .containsEntry("steered", "200/000 rc=0")
                .containsEntry("explicit", "200/200 rc=0")
                .containsEntry("metadata", "000/403 rc=56");
        List<JsonNode> notEnforced = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> SandboxRuns.anomalies(company, UNLISTED), found -> found.size() >= 2);
        assertThat(notEnforced).extracting(a -> a.get("reason").asText())
                .contains("not_allowlisted", "proxy_not_allowlisted");
        assertThat(notEnforced).allSatisfy(a -> assertThat(a.get("enforced").asBoolean()).isFalse());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> SandboxRuns
                .anomalies(company, METADATA).stream().anyMatch(a -> a.get("enforced").asBoolean()));

        policy(company, "enforce");
        JsonNode enforced = run(company, PROBE + "t steered --noproxy '*' https://" + UNLISTED + "/;"
                + " t explicit -x " + PROXY
                + " https://" + UNLISTED + "/");

        assertThat(results(enforced.path("output").asText())).as(enforced.toString())
                .containsEntry("steered", "000/000 rc=6")
                .containsEntry("explicit", "000/403 rc=56");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> SandboxRuns
                .anomalies(company, UNLISTED).stream().anyMatch(a -> a.get("enforced").asBoolean()));
    }

    @Test
    void anotherCompanysSandboxCannotUseTheFirstCompanysAllowlist() throws Exception {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        SandboxRuns.allow(first, ALLOWED);
        SandboxRuns.allow(second, OTHER_ALLOWED);

        JsonNode end = run(second, PROBE + "t steered --noproxy '*' https://" + ALLOWED + "/;"
                + " t explicit -x " + PROXY
                + " https://" + ALLOWED + "/; t own -x " + PROXY + " https://" + OTHER_ALLOWED + "/");

        Map<String, String> results = results(end.path("output").asText());
        assertThat(results).as(end.toString())
                .containsEntry("steered", "000/000 rc=6")
                .containsEntry("explicit", "000/403 rc=56")
                .containsEntry("own", "200/200 rc=0");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> reasons(second).contains("proxy_not_allowlisted"));
        assertThat(SandboxRuns.anomalies(first, null)).isEmpty();
    }

    @Test
    void withTheProxyGoneANewSandboxRunFailsBeforeItsContainerStarts() throws Exception {
        UUID company = UUID.randomUUID();
        SandboxRuns.allow(company, ALLOWED);
        startAdapter();
        ProxyControl.stop(proxy);
        JsonNode end;
        try {
            end = run(company, "echo started");
        } finally {
            ProxyControl.start(proxy);
        }

        assertThat(end.get("status").asText()).as(end.toString()).isEqualTo("FAILED");
        assertThat(end.path("error").asText()).as(end.toString())
                .contains("the Trimus egress proxy at " + EgressNetworkResource.GATEWAY).contains("does not answer");
        assertThat(end.path("output").asText()).as("nothing ran").isEmpty();
        UUID run = UUID.fromString(end.get("run_id").asText());
        assertThat(DOCKER.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of("trimus.run_id", run.toString())).exec()).isEmpty();
    }

    // --- helpers --------------------------------------------------------------------------------------------

    private JsonNode run(UUID company, String script) {
        return run(company, script, null);
    }

    private JsonNode run(UUID company, String script, String runtime) {
        startAdapter();
        UUID run = UUID.randomUUID();
        return SandboxRuns.publishAndAwait(kafka, Topics.RUN_REQUESTED, run,
                SandboxRuns.sandboxRequest(run, company, tools, script, 120, runtime), Duration.ofSeconds(180));
    }

    /**
     * The real adapter service the end-to-end classes share; a run finding the proxy gone waits 3 s for it before it
     * fails (30 s by default; {@link SandboxRuns#SHARED_ADAPTER_KNOBS}).
     */
    private void startAdapter() {
        if (adapter == null) {
            adapter = SandboxRuns.sharedAdapter(egressService);
        }
    }

    private static void policy(UUID company, String mode) {
        given().contentType(ContentType.JSON).body(Map.of("mode", mode))
                .put("/api/companies/{c}/egress/policy", company).then().statusCode(200);
    }

    private static JsonNode runEgress(UUID company, UUID run) throws Exception {
        return SandboxRuns.JSON.readTree(given().get("/api/companies/{c}/runs/{r}/egress", company, run)
                .then().statusCode(200).extract().asString());
    }

    private static JsonNode hostEntry(JsonNode record, String host, int port) {
        for (JsonNode entry : record.path("summary").path("hosts")) {
            if (entry.path("host").asText().equals(host) && entry.path("port").asInt() == port) {
                return entry;
            }
        }
        throw new AssertionError("no " + host + ":" + port + " in " + record);
    }

    private static Map<String, String> results(String output) {
        Map<String, String> results = new HashMap<>();
        Matcher line = RESULT.matcher(output);
        while (line.find()) {
            results.put(line.group(1), line.group(2) + " rc=" + line.group(3));
        }
        return results;
    }

    private static Set<String> reasons(UUID company) throws Exception {
        return SandboxRuns.anomalies(company, null).stream().map(a -> a.get("reason").asText())
                .collect(Collectors.toSet());
    }

    /**
     * The outside host on its own non-internal bridge network: HTTPS on 443 with a certificate it makes at start
     * ({@code openssl s_server -www}), plain HTTP on 80 (busybox httpd); ready once both accept.
     */
    private static String startOutsideHost() {
        EgressNetworkResource.ensureOutsideNetwork(DOCKER);
        DOCKER.listContainersCmd().withShowAll(true).withNameFilter(List.of("trimus-test-outside-host")).exec()
                .forEach(old -> DOCKER.removeContainerCmd(old.getId()).withForce(true).exec());
        String serve = "mkdir -p /www && echo outside > /www/index.html && httpd -p 80 -h /www && "
                + "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2"
                + " -subj /CN=outside -keyout /tmp/key.pem -out /tmp/cert.pem 2>/dev/null && "
                + "exec openssl s_server -quiet -accept 443 -cert /tmp/cert.pem -key /tmp/key.pem -www";
        String id = DOCKER.createContainerCmd(tools).withName("trimus-test-outside-host")
                .withCmd("/bin/sh", "-c", serve)
                .withUser("0")
                .withLabels(Map.of(TestImages.LABEL, "true"))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode(OUTSIDE_NETWORK))
                .withIpv4Address(OUTSIDE_IP)
                .exec().getId();
        DOCKER.startContainerCmd(id).exec();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> accepts(OUTSIDE_IP, 443) && accepts(OUTSIDE_IP, 80));
        return id;
    }

    private static boolean accepts(String ip, int port) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(ip, port), 500);
            return true;
        } catch (java.io.IOException notYet) {
            return false;
        }
    }
}
