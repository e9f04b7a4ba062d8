package io.trimus.adapter.canary;

import io.trimus.events.CanaryCheck;
import io.trimus.events.CanaryRequested;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.UUID;

import static io.trimus.events.CanaryCheck.ALLOWED;
import static io.trimus.events.CanaryCheck.BLOCKED;
import static io.trimus.events.CanaryCheck.SKIPPED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What each line of the probe means: every got-string variant of every check, and output that is hostile, garbled,
 * incomplete or too long, which never passes for a clean canary.
 */
class ProbeReportTest {

    private static final String GW = "172.30.0.1";

    private static ProbeTargets targets(String allowedHost) throws ProbeTargets.Invalid {
        return ProbeTargets.of(new CanaryRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                "c1.canary.trimus.invalid", "1.1.1.1:443", allowedHost, 25, Instant.now()), GW, 3128, GW);
    }

    /** The output of a canary where every promise holds (the egress firewall in place). */
    private static String passing() {
        return String.join("\n",
                "trimus-canary unlisted_name dns nxdomain",
                "trimus-canary unlisted_name_via_proxy http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary ip_literal tcp timeout",
                "trimus-canary ip_literal_via_proxy http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary metadata tcp timeout",
                "trimus-canary metadata_via_proxy http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary unlisted_port http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary bridge_route.gateway tcp timeout",
                "trimus-canary bridge_route.docker0 tcp timeout",
                "trimus-canary allowed_host http 200 HTTP/1.1 200 Connection established",
                "trimus-canary-end", "");
    }

    private static CanaryCheck check(ProbeReport.Reading reading, String name) {
        return reading.checks().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    private static ProbeReport.Reading replace(String line, String with) throws ProbeTargets.Invalid {
        String output = passing();
        assertThat(output).contains(line);
        return ProbeReport.read(output.replace(line, with), targets("api.github.com:443"));
    }

    @Test
    void aCleanCanaryHasEveryCheckInOrderWithItsTargetAndNoError() throws Exception {
        ProbeReport.Reading reading = ProbeReport.read(passing(), targets("api.github.com:443"));

        assertThat(reading.error()).isNull();
        assertThat(reading.checks()).extracting(CanaryCheck::name).containsExactlyElementsOf(CanaryCheck.NAMES);
        assertThat(reading.checks()).allSatisfy(c -> assertThat(c.passed()).as(c.toString()).isTrue());
        assertThat(check(reading, "unlisted_name").got()).isEqualTo("NXDOMAIN");
        assertThat(check(reading, "unlisted_name").target()).isEqualTo("c1.canary.trimus.invalid (DNS at 172.30.0.1)");
        assertThat(check(reading, "ip_literal").target()).isEqualTo("1.1.1.1:443");
        assertThat(check(reading, "ip_literal_via_proxy").target()).isEqualTo("CONNECT 1.1.1.1:443 via 172.30.0.1:3128");
        assertThat(check(reading, "metadata").target()).isEqualTo("169.254.169.254:80");
        assertThat(check(reading, "metadata_via_proxy").target())
                .isEqualTo("GET http://169.254.169.254/latest/meta-data/ via 172.30.0.1:3128");
        assertThat(check(reading, "unlisted_port").target()).isEqualTo("CONNECT api.github.com:25 via 172.30.0.1:3128");
        assertThat(check(reading, "bridge_route").target()).isEqualTo("172.30.0.1:22, 172.17.0.1:22");
        assertThat(check(reading, "bridge_route").got()).isEqualTo("timed out");
        assertThat(check(reading, "allowed_host").got()).isEqualTo("HTTP 200");
        assertThat(check(reading, "allowed_host").expected()).isEqualTo(ALLOWED);
    }

    @Test
    void everyResolverAnswerButAnAddressIsBlocked() throws Exception {
        String line = "trimus-canary unlisted_name dns nxdomain";
        assertThat(check(replace(line, "trimus-canary unlisted_name dns refused"), "unlisted_name"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("REFUSED", BLOCKED);
        assertThat(check(replace(line, "trimus-canary unlisted_name dns servfail"), "unlisted_name").got())
                .isEqualTo("SERVFAIL");
        assertThat(check(replace(line, "trimus-canary unlisted_name dns noanswer whatever"), "unlisted_name"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("no address in the answer", BLOCKED);
        assertThat(check(replace(line, "trimus-canary unlisted_name dns noserver"), "unlisted_name"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("no answer from the resolver", BLOCKED);
        CanaryCheck resolved = check(replace(line, "trimus-canary unlisted_name dns answer 93.184.216.34"),
                "unlisted_name");
        assertThat(resolved.got()).isEqualTo("resolved to 93.184.216.34");
        assertThat(resolved.breached()).isTrue();
        CanaryCheck odd = check(replace(line, "trimus-canary unlisted_name dns answer <script>"), "unlisted_name");
        assertThat(odd.breached()).as("an answer is an answer, readable or not").isTrue();
        assertThat(odd.got()).isEqualTo("resolved (to no readable address)");
    }

    @Test
    void aDirectConnectionOrARefusalFromOutsideGotThroughATimeoutDidNot() throws Exception {
        String line = "trimus-canary ip_literal tcp timeout";
        assertThat(check(replace(line, "trimus-canary ip_literal tcp connected"), "ip_literal"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("connected", ALLOWED);
        assertThat(check(replace(line, "trimus-canary ip_literal tcp refused"), "ip_literal"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("connection refused (the packet got out and was answered)", ALLOWED);
        assertThat(check(replace(line, "trimus-canary ip_literal tcp unreachable"), "ip_literal"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("network unreachable", BLOCKED);
        assertThat(check(replace(line, "trimus-canary ip_literal tcp error nc: bad address"), "ip_literal"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("could not connect: nc: bad address", BLOCKED);
        assertThat(check(replace("trimus-canary metadata tcp timeout", "trimus-canary metadata tcp refused"),
                "metadata").breached()).isTrue();
    }

    @Test
    void aHostThatAnswersOnTheBridgeIsABreachEvenOnOneOfItsAddresses() throws Exception {
        CanaryCheck refused = check(replace("trimus-canary bridge_route.gateway tcp timeout",
                "trimus-canary bridge_route.gateway tcp refused"), "bridge_route");
        assertThat(refused.breached()).isTrue();
        assertThat(refused.got()).isEqualTo("172.30.0.1:22: connection refused by the host (its firewall let the"
                + " packet in); 172.17.0.1:22: timed out");
        String both = passing().replace("bridge_route.gateway tcp timeout", "bridge_route.gateway tcp refused")
                .replace("bridge_route.docker0 tcp timeout", "bridge_route.docker0 tcp refused");
        assertThat(check(ProbeReport.read(both, targets("api.github.com:443")), "bridge_route").got())
                .isEqualTo("connection refused by the host (its firewall let the packet in)");
        assertThat(check(replace("trimus-canary bridge_route.docker0 tcp timeout",
                "trimus-canary bridge_route.docker0 tcp connected"), "bridge_route").breached()).isTrue();
    }

    @Test
    void aConnectGetsThroughOnlyWithA2xx() throws Exception {
        String line = "trimus-canary ip_literal_via_proxy http 403 HTTP/1.1 403 Forbidden";
        assertThat(check(replace(line, "trimus-canary ip_literal_via_proxy http 200 HTTP/1.1 200 OK"),
                "ip_literal_via_proxy")).extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("HTTP 200", ALLOWED);
        assertThat(check(replace(line, "trimus-canary ip_literal_via_proxy http 502 x"), "ip_literal_via_proxy")
                .outcome()).isEqualTo(BLOCKED);
        assertThat(check(replace(line, "trimus-canary ip_literal_via_proxy http none"), "ip_literal_via_proxy"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("the proxy closed the connection without an answer", BLOCKED);
        assertThat(check(replace(line, "trimus-canary ip_literal_via_proxy proxy refused"), "ip_literal_via_proxy")
                .got()).isEqualTo("the proxy refused the connection (nothing listens there)");
        assertThat(check(replace(line, "trimus-canary ip_literal_via_proxy proxy timeout"), "ip_literal_via_proxy")
                .got()).isEqualTo("the proxy did not answer (timed out)");
        assertThat(check(replace(line, "trimus-canary ip_literal_via_proxy http garbled SSH-2.0"),
                "ip_literal_via_proxy")).extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("not an HTTP answer: SSH-2.0", BLOCKED);
        assertThat(check(replace("trimus-canary unlisted_port http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary unlisted_port http 200 HTTP/1.1 200 OK"), "unlisted_port").breached()).isTrue();
    }

    @Test
    void theMetadataAddressThroughTheProxyIsBlockedOnlyByTheProxysRefusal() throws Exception {
        String line = "trimus-canary metadata_via_proxy http 403 HTTP/1.1 403 Forbidden";
        assertThat(check(replace(line, "trimus-canary metadata_via_proxy http 502 HTTP/1.1 502 Bad Gateway"),
                "metadata_via_proxy")).extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("HTTP 502", ALLOWED);
        assertThat(check(replace(line, "trimus-canary metadata_via_proxy http 200 ok"), "metadata_via_proxy")
                .breached()).isTrue();
        assertThat(check(replace(line, "trimus-canary metadata_via_proxy proxy unreachable"), "metadata_via_proxy")
                .outcome()).isEqualTo(BLOCKED);
    }

    @Test
    void theAllowedHostIsAdmittedByAnyAnswerButA403() throws Exception {
        String line = "trimus-canary allowed_host http 200 HTTP/1.1 200 Connection established";
        assertThat(check(replace(line, "trimus-canary allowed_host http 502 HTTP/1.1 502 Bad Gateway"), "allowed_host"))
                .extracting(CanaryCheck::got, CanaryCheck::outcome)
                .containsExactly("admitted, HTTP 502 (upstream unreachable)", ALLOWED);
        CanaryCheck overBlocked = check(replace(line, "trimus-canary allowed_host http 403 HTTP/1.1 403 Forbidden"),
                "allowed_host");
        assertThat(overBlocked).extracting(CanaryCheck::got, CanaryCheck::outcome).containsExactly("HTTP 403", BLOCKED);
        assertThat(overBlocked.passed()).isFalse();
        assertThat(overBlocked.breached()).as("over-blocking is no breach").isFalse();
        assertThat(check(replace(line, "trimus-canary allowed_host proxy refused"), "allowed_host").outcome())
                .isEqualTo(BLOCKED);
    }

    @Test
    void withoutAnAllowedHostTheCheckIsSkippedWhateverTheProbePrints() throws Exception {
        ProbeReport.Reading reading = ProbeReport.read(passing(), targets(null));

        CanaryCheck skipped = check(reading, "allowed_host");
        assertThat(skipped.outcome()).isEqualTo(SKIPPED);
        assertThat(skipped.got()).isEqualTo("the company's allowlist names no host a probe can try");
        assertThat(skipped.target()).isNull();
        assertThat(check(reading, "unlisted_port").target())
                .isEqualTo("CONNECT c1.canary.trimus.invalid:25 via 172.30.0.1:3128");
        assertThat(reading.error()).isNull();
    }

    @Test
    void aMissingCheckIsAnErrorNamingItAndTheOthersAreKept() throws Exception {
        ProbeReport.Reading reading = replace("trimus-canary metadata tcp timeout\n", "");

        assertThat(reading.error()).isEqualTo("the probe reported no readable result for metadata");
        assertThat(reading.checks()).extracting(CanaryCheck::name).doesNotContain("metadata").hasSize(8);
        ProbeReport.Reading noBridgeHalf = replace("trimus-canary bridge_route.docker0 tcp timeout\n", "");
        assertThat(noBridgeHalf.error()).contains("bridge_route");
    }

    @Test
    void aProxyThatKeepsARequestWaitingDecidesNothingAndSaysSo() throws Exception {
        ProbeReport.Reading reading = replace("trimus-canary metadata_via_proxy http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary metadata_via_proxy http silent 15");

        assertThat(reading.checks()).extracting(CanaryCheck::name).doesNotContain("metadata_via_proxy");
        assertThat(reading.error()).isEqualTo("the proxy neither refused nor answered within 15 s: metadata_via_proxy");
        String both = passing().replace("metadata_via_proxy http 403 HTTP/1.1 403 Forbidden", "metadata_via_proxy http"
                + " silent 15").replace("trimus-canary metadata tcp timeout\n", "");
        assertThat(ProbeReport.read(both, targets("api.github.com:443")).error()).isEqualTo("the proxy neither refused"
                + " nor answered within 15 s: metadata_via_proxy; the probe reported no readable result for metadata");
    }

    @Test
    void nothingOrNoiseIsAnErrorNamingEveryCheck() throws Exception {
        for (String output : new String[] {null, "", "sh: nslookup: not found\nSegmentation fault",
                "\u0000\u0001\u00ff garbage \r\n\r\n"}) {
            ProbeReport.Reading reading = ProbeReport.read(output, targets("api.github.com:443"));
            assertThat(reading.checks()).isEmpty();
            assertThat(reading.error()).contains(String.join(", ", CanaryCheck.NAMES));
        }
    }

    @Test
    void aLineInTheWrongShapeForItsCheckIsNotRead() throws Exception {
        assertThat(replace("trimus-canary metadata tcp timeout", "trimus-canary metadata http 200").error())
                .contains("metadata");
        assertThat(replace("trimus-canary metadata tcp timeout", "trimus-canary metadata tcp maybe").error())
                .contains("metadata");
        assertThat(replace("trimus-canary unlisted_port http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary unlisted_port http 99999 x").error()).contains("unlisted_port");
        assertThat(replace("trimus-canary unlisted_name dns nxdomain", "TRIMUS-CANARY unlisted_name dns nxdomain")
                .error()).contains("unlisted_name");
    }

    @Test
    void theFirstLineOfACheckCountsSoALaterOneCannotWhitewashIt() throws Exception {
        String output = "trimus-canary ip_literal tcp connected\n" + passing();

        CanaryCheck check = check(ProbeReport.read(output, targets("api.github.com:443")), "ip_literal");

        assertThat(check.breached()).isTrue();
    }

    @Test
    void overLongLinesAndLinesPastTheBoundAreIgnoredAndGotStaysShort() throws Exception {
        String longLine = "trimus-canary metadata tcp timeout " + "x".repeat(ProbeReport.MAX_LINE);
        assertThat(replace("trimus-canary metadata tcp timeout", longLine).error()).contains("metadata");

        String flood = "noise\n".repeat(ProbeReport.MAX_LINES) + passing();
        assertThat(ProbeReport.read(flood, targets("api.github.com:443")).checks()).isEmpty();

        String detail = "y".repeat(ProbeReport.MAX_LINE - 60);
        CanaryCheck garbled = check(replace("trimus-canary ip_literal_via_proxy http 403 HTTP/1.1 403 Forbidden",
                "trimus-canary ip_literal_via_proxy http garbled " + detail), "ip_literal_via_proxy");
        assertThat(garbled.got().length()).isLessThanOrEqualTo(ProbeReport.MAX_GOT);
        assertThat(ProbeReport.read(passing(), targets("api.github.com:443")).checks())
                .allSatisfy(c -> assertThat(c.got().length()).isLessThanOrEqualTo(300));
    }

    @Test
    void aRequestThatCannotBeProbedSafelyIsRefusedNamingTheField() {
        assertThatThrownBy(() -> ProbeTargets.of(request("a;rm -rf /", "1.1.1.1:443", null, 25), GW, 3128, GW))
                .hasMessage("unlisted_name is not a DNS name");
        assertThatThrownBy(() -> ProbeTargets.of(request("a.invalid", "example.com:443", null, 25), GW, 3128, GW))
                .hasMessage("ip_literal is not address:port");
        assertThatThrownBy(() -> ProbeTargets.of(request("a.invalid", "1.1.1.1:0", null, 25), GW, 3128, GW))
                .hasMessage("ip_literal is not address:port");
        assertThatThrownBy(() -> ProbeTargets.of(request("a.invalid", "1.1.1.1:443", "$(id):443", 25), GW, 3128, GW))
                .hasMessage("allowed_host is not host:port");
        assertThatThrownBy(() -> ProbeTargets.of(request("a.invalid", "1.1.1.1:443", null, 70000), GW, 3128, GW))
                .hasMessage("unlisted_port is not a port");
    }

    @Test
    void theScriptGetsItsParametersAsVariables() throws Exception {
        ProbeTargets t = ProbeTargets.of(request("a.invalid", "[2606:4700::1111]:443", "api.github.com:443", 25),
                GW, 3128, GW);

        assertThat(t.env()).containsEntry("CANARY_IP_HOST", "2606:4700::1111")
                .containsEntry("CANARY_IP_LITERAL", "[2606:4700::1111]:443")
                .containsEntry("CANARY_PORT_TARGET", "api.github.com:25")
                .containsEntry("CANARY_PROXY_HOST", GW).containsEntry("CANARY_PROXY_PORT", "3128");
        assertThat(ProbeScript.command()).hasSize(3).startsWith("sh", "-c");
        assertThat(ProbeScript.command().get(2)).doesNotContain("a.invalid");
    }

    private static CanaryRequested request(String name, String ip, String allowed, int port) {
        return new CanaryRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), name, ip, allowed, port,
                Instant.now());
    }
}
