package io.trimus.egress.proxy;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test certificate authority made with the JDK's keytool: its CA certificate as a PEM file, and leaf key managers
 * for names it signs. Stands in for a private PKI (an "outside" server's) or for the egress CA where the test is about
 * the proxy, not about how the egress CA issues leaves.
 */
public final class TestPki {
    private static final String PASSWORD = "changeit";

    private final Path dir;
    private final Path caStore;
    public final Path caPem;

    private TestPki(Path dir) {
        this.dir = dir;
        this.caStore = dir.resolve("ca.p12");
        this.caPem = dir.resolve("ca.pem");
    }

    /** A new CA in a new temporary directory. */
    public static TestPki create(String caName) throws IOException, InterruptedException {
        TestPki pki = new TestPki(Files.createTempDirectory("test-pki"));
        pki.keytool("-genkeypair", "-alias", "ca", "-keystore", pki.caStore.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + caName, "-ext", "bc:c", "-validity", "2");
        pki.keytool("-exportcert", "-alias", "ca", "-keystore", pki.caStore.toString(), "-storepass", PASSWORD,
                "-rfc", "-file", pki.caPem.toString());
        return pki;
    }

    /** A key manager serving one leaf certificate for {@code names}, signed by this CA, with its chain. */
    /** The CA made earlier in {@code dir} by {@link #create}. */
    public static TestPki open(Path dir) {
        return new TestPki(dir);
    }

    /** The directory holding the CA. */
    public Path dir() {
        return dir;
    }

    public X509ExtendedKeyManager leaf(String... names) throws Exception {
        Path store = Files.createTempFile(dir, "leaf", ".p12");
        Files.delete(store);
        Path csr = dir.resolve("leaf.csr");
        Path pem = dir.resolve("leaf.pem");
        List<String> san = new ArrayList<>();
        for (String name : names) {
            san.add("dns:" + name);
        }
        keytool("-genkeypair", "-alias", "leaf", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + names[0], "-validity", "2");
        keytool("-certreq", "-alias", "leaf", "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", csr.toString());
        keytool("-gencert", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASSWORD,
                "-infile", csr.toString(), "-outfile", pem.toString(), "-rfc", "-validity", "2",
                "-ext", "SAN=" + String.join(",", san), "-ext", "EKU=serverAuth");
        keytool("-importcert", "-alias", "ca", "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", caPem.toString(), "-noprompt");
        keytool("-importcert", "-alias", "leaf", "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", pem.toString(), "-noprompt");
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
        factory.init(keys, PASSWORD.toCharArray());
        return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
    }

    /** A trust manager that trusts this CA alone. */
    public X509TrustManager trust() throws Exception {
        KeyStore anchors = KeyStore.getInstance("PKCS12");
        anchors.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            anchors.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(anchors);
        return (X509TrustManager) factory.getTrustManagers()[0];
    }

    private void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
        }
    }
}
