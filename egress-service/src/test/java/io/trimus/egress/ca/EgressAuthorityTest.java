package io.trimus.egress.ca;

import io.trimus.testing.TestClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The egress CA's certificates as strict verifiers and real TLS clients see them, and its cache of leaves. */
class EgressAuthorityTest {
    private static final String HOST = "api.anthropic.test";
    private static final LeafPolicy POLICY = new LeafPolicy(Duration.ofDays(7), 1024);

    @TempDir
    Path dir;

    private static EgressAuthority authority(LeafPolicy policy, Clock clock) {
        CaCertificates.Issued ca = CaCertificates.newAuthority(clock.instant());
        return new EgressAuthority(ca.certificate(), ca.keys().getPrivate(), clock.instant(), policy, clock);
    }

    private static EgressAuthority authority() {
        return authority(POLICY, Clock.systemUTC());
    }

    private static X509Certificate leaf(EgressAuthority authority, String host) {
        return authority.keyManager().getCertificateChain(host)[0];
    }

    @Test
    void theCaIsAP256CaThatSignsLeavesOnlyForTenYears() throws Exception {
        EgressAuthority ca = authority();
        X509Certificate cert = ca.certificate();

        assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=Trimus egress CA,O=Trimus");
        assertThat(cert.getBasicConstraints()).isZero();
        assertThat(cert.getCriticalExtensionOIDs()).contains("2.5.29.19", "2.5.29.15");
        assertThat(cert.getKeyUsage()).containsExactly(false, false, false, false, false, true, true, false, false);
        assertThat(cert.getExtensionValue("2.5.29.14")).as("subject key identifier").isNotNull();
        assertThat(cert.getPublicKey().getAlgorithm()).isEqualTo("EC");
        assertThat(cert.getPublicKey().toString()).contains("secp256r1");
        assertThat(Duration.between(cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant()).toDays())
                .isBetween(3650L, 3651L);
        cert.verify(cert.getPublicKey());
        assertThat(ca.fingerprint()).matches("[0-9a-f]{64}").isEqualTo(CaCertificates.fingerprint(cert));
        assertThat(ca.certificatePem()).startsWith("-----BEGIN CERTIFICATE-----").doesNotContain("PRIVATE");
    }

    @Test
    void aLeafPassesOpenSslStrictVerificationForItsHostOnly() throws Exception {
        EgressAuthority ca = authority();
        Path caFile = write("ca.pem", ca.certificatePem());
        Path leafFile = write("leaf.pem", Pem.certificate(leaf(ca, HOST)));

        assertThat(openssl("verify", "-x509_strict", "-purpose", "sslserver", "-verify_hostname", HOST,
                "-CAfile", caFile.toString(), leafFile.toString())).isEqualTo("0 " + leafFile + ": OK");
        assertThat(openssl("verify", "-x509_strict", "-purpose", "sslserver", "-verify_hostname", "other.test",
                "-CAfile", caFile.toString(), leafFile.toString())).startsWith("2 ").contains("hostname mismatch");
    }

    @Test
    void aLeafOfAnotherCaFailsOpenSslVerification() throws Exception {
        Path caFile = write("ca.pem", authority().certificatePem());
        Path leafFile = write("leaf.pem", Pem.certificate(leaf(authority(), HOST)));

        assertThat(openssl("verify", "-x509_strict", "-CAfile", caFile.toString(), leafFile.toString()))
                .startsWith("2 ").contains("unable to get local issuer certificate");
    }

    @Test
    void aLeafNamesItsHostAndServesTlsServersOnly() throws Exception {
        X509Certificate leaf = leaf(authority(), HOST);

        assertThat(leaf.getSubjectAlternativeNames()).containsExactly(List.of(2, HOST));
        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(leaf.getKeyUsage()[0]).as("digitalSignature").isTrue();
        assertThat(leaf.getCriticalExtensionOIDs()).contains("2.5.29.15");
        assertThat(leaf.getExtensionValue("2.5.29.35")).as("authority key identifier").isNotNull();
        assertThat(leaf.getSerialNumber().signum()).isPositive();
    }

    @Test
    void aClientThatTrustsOnlyTheCaAcceptsTheLeafForTheHostItNamesOverSocketsAndEngines() throws Exception {
        EgressAuthority ca = authority();
        SSLContext server = TlsHandshakes.server(ca.keyManager());
        SSLContext client = TlsHandshakes.clientTrusting(ca.certificate());

        for (Certificate[] chain : List.of(TlsHandshakes.overSockets(server, client, HOST, HOST),
                TlsHandshakes.overEngines(server, client, "github.test", "github.test"))) {
            X509Certificate served = (X509Certificate) chain[0];
            served.verify(ca.certificate().getPublicKey());
            assertThat(served.getSubjectAlternativeNames()).hasSize(1);
        }
        assertThat(((X509Certificate) TlsHandshakes.overSockets(server, client, HOST, HOST)[0])
                .getSubjectAlternativeNames()).containsExactly(List.of(2, HOST));
    }

    @Test
    void aLeafForAnotherHostIsRefusedByAClientThatTrustsTheCa() throws Exception {
        EgressAuthority ca = authority();
        SSLContext server = TlsHandshakes.server(new AlwaysServing("bank.test", ca.keyManager()));
        SSLContext client = TlsHandshakes.clientTrusting(ca.certificate());

        assertThatThrownBy(() -> TlsHandshakes.overSockets(server, client, HOST, HOST))
                .isInstanceOf(SSLHandshakeException.class).hasMessageContaining(HOST);
    }

    @Test
    void aClientThatTrustsAnotherCaRefusesTheLeaf() throws Exception {
        SSLContext server = TlsHandshakes.server(authority().keyManager());
        SSLContext client = TlsHandshakes.clientTrusting(authority().certificate());

        assertThatThrownBy(() -> TlsHandshakes.overSockets(server, client, HOST, HOST))
                .isInstanceOf(SSLHandshakeException.class);
    }

    @Test
    void aHandshakeWithoutServerNameGetsNoCertificate() throws Exception {
        EgressAuthority ca = authority();
        SSLContext server = TlsHandshakes.server(ca.keyManager());
        SSLContext client = TlsHandshakes.clientTrusting(ca.certificate());

        assertThatThrownBy(() -> TlsHandshakes.overSockets(server, client, HOST, null))
                .isInstanceOf(SSLHandshakeException.class);
        assertThatThrownBy(() -> TlsHandshakes.overEngines(server, client, HOST, null))
                .isInstanceOf(SSLHandshakeException.class);
        assertThat(ca.cachedLeaves()).isZero();
    }

    @Test
    void onlyPlainHostNamesGetALeaf() {
        assertThat(LeafHostNames.of("API.Anthropic.test.")).contains("api.anthropic.test");
        assertThat(LeafHostNames.of("localhost")).contains("localhost");
        for (String refused : new String[]{"1.2.3.4", "*.github.com", "a..b", "-a.test", "a b.test", "", "a.test/x",
                "x".repeat(64) + ".test", "10.0.0.1."}) {
            assertThat(LeafHostNames.of(refused)).as(refused).isEmpty();
            assertThat(authority().keyManager().getCertificateChain(refused)).as(refused).isNull();
            assertThat(authority().keyManager().getPrivateKey(refused)).as(refused).isNull();
        }
    }

    @Test
    void aHostGetsTheSameLeafUntilItNearsItsEnd() {
        TestClock clock = new TestClock(Instant.parse("2026-12-01T12:00:00Z"));
        EgressAuthority ca = authority(POLICY, clock);

        X509Certificate first = leaf(ca, HOST);
        assertThat(leaf(ca, HOST)).isSameAs(first);
        assertThat(leaf(ca, "github.test")).isNotSameAs(first);
        assertThat(first.getNotBefore().toInstant()).isEqualTo(clock.instant().minus(Duration.ofHours(1)));
        assertThat(first.getNotAfter().toInstant()).isEqualTo(clock.instant().plus(Duration.ofDays(7)));

        clock.advance(Duration.ofDays(5).plusHours(23));
        assertThat(leaf(ca, HOST)).as("more than a day left").isSameAs(first);
        clock.advance(Duration.ofHours(2));
        X509Certificate renewed = leaf(ca, HOST);
        assertThat(renewed).as("less than a day left").isNotSameAs(first);
        assertThat(renewed.getNotAfter().toInstant()).isEqualTo(clock.instant().plus(Duration.ofDays(7)));
    }

    @Test
    void theCacheKeepsTheMostRecentlyUsedLeavesUpToItsSize() {
        EgressAuthority ca = authority(new LeafPolicy(Duration.ofDays(7), 2), Clock.systemUTC());

        X509Certificate a = leaf(ca, "a.test");
        X509Certificate b = leaf(ca, "b.test");
        assertThat(leaf(ca, "a.test")).isSameAs(a);   // a is now the most recently used
        leaf(ca, "c.test");                           // evicts b

        assertThat(ca.cachedLeaves()).isEqualTo(2);
        assertThat(leaf(ca, "a.test")).isSameAs(a);
        X509Certificate bAgain = leaf(ca, "b.test");
        assertThat(bAgain).isNotSameAs(b);
        assertThat(bAgain.getSerialNumber()).isNotEqualTo(b.getSerialNumber());
        assertThat(ca.cachedLeaves()).isEqualTo(2);
    }

    @Test
    void aLeafNeverOutlivesItsCa() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        EgressAuthority ca = authority(new LeafPolicy(Duration.ofDays(5000), 8), Clock.fixed(now, ZoneOffset.UTC));

        assertThat(leaf(ca, HOST).getNotAfter()).isEqualTo(ca.certificate().getNotAfter());
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.US_ASCII);
    }

    /** Runs openssl; returns its exit code and output, e.g. {@code "0 /tmp/…/leaf.pem: OK"}. */
    private static String openssl(String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return process.exitValue() + " " + output;
    }

    /** A server that shows the leaf of one host whatever the client asks for: what the key manager must not do. */
    private static final class AlwaysServing extends javax.net.ssl.X509ExtendedKeyManager {
        private final String host;
        private final javax.net.ssl.X509ExtendedKeyManager leaves;

        AlwaysServing(String host, javax.net.ssl.X509ExtendedKeyManager leaves) {
            this.host = host;
            this.leaves = leaves;
        }

        @Override
        public String chooseEngineServerAlias(String keyType, java.security.Principal[] issuers,
                                              javax.net.ssl.SSLEngine engine) {
            return host;
        }

        @Override
        public String chooseServerAlias(String keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return "EC".equals(keyType) ? host : null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return leaves.getCertificateChain(alias);
        }

        @Override
        public java.security.PrivateKey getPrivateKey(String alias) {
            return leaves.getPrivateKey(alias);
        }

        @Override
        public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
            return null;
        }

        @Override
        public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseClientAlias(String[] keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return null;
        }
    }
}
