package io.trimus.egress.tunnelling;

import io.trimus.egress.config.TunnellingAction;
import io.trimus.egress.anomaly.AnomalyRecorder;
import io.trimus.egress.anomaly.AnomalyScores;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scoring from the names alone: synthetic tunnels are suspected within 200 names and before 2 KB of payload went
 * out, benign names of package managers, registries and CDNs never are; block mode refuses the base domain to that
 * sandbox only, from the crossing name on; memory stays bounded per sandbox.
 */
class TunnellingWatchTest {
    private static final Sandbox SANDBOX = new Sandbox("10.1.0.7", UUID.randomUUID(), UUID.randomUUID(),
            UUID.randomUUID(), "c1");
    private static final Sandbox OTHER = new Sandbox("10.1.0.8", SANDBOX.companyId(), UUID.randomUUID(),
            UUID.randomUUID(), "c2");
    private static final double THRESHOLD = 0.8;

    /** Names benign tools ask for, each many times, with the CDN and mirror names behind them. */
    static final List<String> BENIGN = List.of("registry.npmjs.org", "registry.yarnpkg.com", "pypi.org",
            "files.pythonhosted.org", "github.com", "api.github.com", "codeload.github.com",
            "objects.githubusercontent.com", "raw.githubusercontent.com", "release-assets.githubusercontent.com",
            "avatars.githubusercontent.com", "deb.debian.org", "security.debian.org", "ftp.debian.org",
            "cdn-fastly.deb.debian.org", "dl-cdn.alpinelinux.org", "proxy.golang.org", "sum.golang.org",
            "storage.googleapis.com", "index.crates.io", "static.crates.io", "crates.io", "repo.maven.apache.org",
            "repo1.maven.org", "central.sonatype.com", "plugins.gradle.org", "services.gradle.org",
            "downloads.gradle.org", "registry-1.docker.io", "auth.docker.io", "production.cloudflare.docker.com",
            "d2glxqk2uabbnd.cloudfront.net", "d1ddofxuxmaddy.cloudfront.net", "dkx9lp8dkyk1s.cloudfront.net",
            "api.anthropic.com", "statsig.anthropic.com", "api.openai.com", "chatgpt.com", "ab.chatgpt.com",
            "www.google.com", "fonts.googleapis.com", "fonts.gstatic.com", "clients1.google.com",
            "clients2.google.com", "update.googleapis.com", "en.wikipedia.org", "de.wikipedia.org",
            "upload.wikimedia.org", "rubygems.org", "index.rubygems.org", "packagist.org", "repo.packagist.org",
            "nodejs.org", "bun.sh", "get.pnpm.io", "objects.githubusercontent.com",
            "pkg-containers.githubusercontent.com", "ghcr.io", "quay.io", "cdn01.quay.io", "cdn02.quay.io",
            "cdn03.quay.io", "my-bucket.s3.us-west-2.amazonaws.com", "other-bucket.s3.amazonaws.com",
            "sts.us-east-1.amazonaws.com", "ec2.us-east-1.amazonaws.com", "s3.us-east-1.amazonaws.com",
            "mirrors.kernel.org", "archive.ubuntu.com", "security.ubuntu.com", "ports.ubuntu.com");

    private final AtomicLong clock = new AtomicLong();
    private final List<String> raised = new CopyOnWriteArrayList<>();
    private final AnomalyRecorder anomalies = (sandbox, sourceIp, qname, qtype, reason, enforced) -> {
        if (EgressAnomaly.SUSPECTED_TUNNELLING.equals(reason)) {
            raised.add(sandbox.ip() + " " + qname + " " + qtype + " " + enforced);
        }
    };

    static Stream<Encoders.Session> sessions() {
        return Stream.of(
                new Encoders.Session(Encoders.Encoding.BASE32, 110, 63, "t.example.com"),
                new Encoders.Session(Encoders.Encoding.BASE32, 30, 63, "t.example.com"),
                new Encoders.Session(Encoders.Encoding.HEX, 30, 63, "tun.example.org"),
                new Encoders.Session(Encoders.Encoding.HEX, 8, 63, "tun.example.org"),
                new Encoders.Session(Encoders.Encoding.HEX, 4, 63, "x.example.net"),
                new Encoders.Session(Encoders.Encoding.BASE36, 16, 20, "cdn.example.net"),
                new Encoders.Session(Encoders.Encoding.BASE32, 12, 8, "a.b.example.co.uk"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sessions")
    void aTunnelIsSuspectedWithin200NamesAndBefore2KbLeft(Encoders.Session session) {
        TunnellingWatch watch = new TunnellingWatch(THRESHOLD, TunnellingAction.ALERT, anomalies, clock::get);
        List<String> names = session.names(200, 7);
        int used = 0;
        for (String name : names) {
            clock.addAndGet(1_000_000_000L / 10);   // ten names a second
            watch.observe(SANDBOX, name, "A", false, false);
            used++;
            if (!raised.isEmpty()) {
                break;
            }
        }

        assertThat(raised).as(session + ": suspected").hasSize(1);
        assertThat(used).as(session + ": names used before").isLessThanOrEqualTo(200);
        assertThat((long) used * session.perName()).as(session + ": payload bytes out before").isLessThan(2048);
        AnomalyScores.Scored scored = watch.of(SANDBOX, names.get(0));
        assertThat(scored.score()).isGreaterThanOrEqualTo(THRESHOLD);
        assertThat(scored.signals()).as(session + ": what drove it").containsAnyOf("long_names", "high_entropy",
                "unique_names");
        System.out.printf("tunnelling: %s suspected after %d names, %d payload bytes, score %.3f %s%n", session,
                used, used * session.perName(), scored.score(), scored.signals());
    }

    @Test
    void benignNamesAreNeverSuspected() {
        TunnellingWatch watch = new TunnellingWatch(THRESHOLD, TunnellingAction.BLOCK, anomalies, clock::get);
        for (int round = 0; round < 50; round++) {
            for (String name : BENIGN) {
                clock.addAndGet(10_000_000L);
                assertThat(watch.observe(SANDBOX, name, "A", false, false)).as(name).isFalse();
                assertThat(watch.observe(SANDBOX, name, "AAAA", false, false)).as(name).isFalse();
            }
        }
        // typos and lookups of hosts that do not exist, denied
        for (String name : List.of("registry.npmjs.com", "pypi.python.org", "githib.com", "localhost.localdomain",
                "wpad.example.com", "_http._tcp.deb.debian.org", "isatap.example.com")) {
            assertThat(watch.observe(SANDBOX, name, "A", true, false)).isFalse();
        }

        assertThat(raised).isEmpty();
        String highest = BENIGN.stream().max(java.util.Comparator.comparingDouble(n -> watch.of(SANDBOX, n).score()))
                .orElseThrow();
        System.out.printf("tunnelling: the highest benign score %.3f, under %s%n", watch.of(SANDBOX, highest).score(),
                highest);
        assertThat(watch.of(SANDBOX, highest).score()).as(highest).isLessThan(0.5);
    }

    @Test
    void blockModeRefusesTheBaseDomainToThatSandboxFromTheCrossingNameOn() {
        TunnellingWatch watch = new TunnellingWatch(THRESHOLD, TunnellingAction.BLOCK, anomalies, clock::get);
        List<String> names = new Encoders.Session(Encoders.Encoding.BASE32, 30, 63, "t.example.com").names(200, 1);
        int crossing = -1;
        for (int i = 0; i < names.size() && crossing < 0; i++) {
            if (watch.observe(SANDBOX, names.get(i), "A", false, false)) {
                crossing = i;
            }
        }

        assertThat(crossing).as("refused from some name on").isGreaterThan(0);
        assertThat(raised).containsExactly(SANDBOX.ip() + " *.example.com A true");
        assertThat(watch.observe(SANDBOX, "api.example.com", "A", false, false)).as("the base domain, any name").isTrue();
        assertThat(watch.refused(SANDBOX, "www.example.com")).isTrue();
        assertThat(watch.observe(SANDBOX, "registry.npmjs.org", "A", false, false)).as("another base").isFalse();
        assertThat(watch.observe(OTHER, "api.example.com", "A", false, false)).as("another sandbox").isFalse();
        assertThat(raised).as("raised once").hasSize(1);

        assertThat(watch.notes(SANDBOX.ip(), SANDBOX.runId())).singleElement().asString()
                .startsWith("suspected tunnelling: names under *.example.com scored ")
                .contains("refused for the rest of the run");
        assertThat(watch.notes(OTHER.ip(), OTHER.runId())).as("another sandbox has nothing to say").isEmpty();
        assertThat(watch.notes(SANDBOX.ip(), UUID.randomUUID())).as("another run of the address").isEmpty();
    }

    @Test
    void alertModeRefusesNothingAndRaisesOnce() {
        TunnellingWatch watch = new TunnellingWatch(THRESHOLD, TunnellingAction.ALERT, anomalies, clock::get);
        for (String name : new Encoders.Session(Encoders.Encoding.HEX, 30, 63, "t.example.com").names(300, 2)) {
            assertThat(watch.observe(SANDBOX, name, "A", false, false)).isFalse();
        }

        assertThat(raised).containsExactly(SANDBOX.ip() + " *.example.com A false");
    }

    @Test
    void aSandboxKeepsAtMostItsBoundOfBaseDomainsAndTheRestShareOne() {
        TunnellingWatch watch = new TunnellingWatch(THRESHOLD, TunnellingAction.BLOCK, anomalies, clock::get);
        for (int i = 0; i < 5_000; i++) {
            watch.observe(SANDBOX, "www.d" + i + ".example", "A", true, false);
        }

        assertThat(raised).as("the names beyond the bound are scored together, and suspected")
                .contains(SANDBOX.ip() + " * A true");
        assertThat(watch.refused(SANDBOX, "www.d4999.example")).isTrue();
        assertThat(watch.refused(SANDBOX, "www.d1.example")).as("a base of its own, one name").isFalse();
    }

    @Test
    void scoresGoWithTheRegistration() {
        SandboxRegistry registry = new SandboxRegistry();
        registry.register(SANDBOX);
        TunnellingWatch watch = new TunnellingWatch(THRESHOLD, TunnellingAction.BLOCK, anomalies, clock::get);
        watch.observe(SANDBOX, "a.example.com", "A", false, false);
        watch.observe(OTHER, "a.example.com", "A", false, false);

        watch.forgetGone(registry);

        assertThat(watch.sandboxesScored()).isEqualTo(1);
        assertThat(watch.of(OTHER, "a.example.com")).isEqualTo(AnomalyScores.Scored.NONE);
        assertThat(watch.of(SANDBOX, "a.example.com").score()).isGreaterThan(0);
        assertThat(watch.of(null, "a.example.com")).as("an unattributed source has no score").isNull();
    }
}
