package io.trimus.egress.proxy.intercept;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Whom the proxy trusts when it opens TLS to the real host of a masked secret: the JVM's system trust store, plus the
 * CA certificates of TRIMUS_EGRESS_PROXY_UPSTREAM_CA_FILE when set. Host names are verified by the TLS engine
 * (endpoint identification), not here.
 */
public final class UpstreamTrust {
    private UpstreamTrust() {
    }

    /**
     * The trust manager: a chain is accepted when the system store or the extra file accepts it.
     *
     * @throws IllegalArgumentException when the file cannot be read or holds no certificate
     */
    public static X509ExtendedTrustManager of(Optional<String> extraCaFile) {
        List<X509ExtendedTrustManager> managers = new ArrayList<>();
        managers.add(manager(null));
        extraCaFile.filter(f -> !f.isBlank()).ifPresent(file -> managers.add(manager(extra(Path.of(file)))));
        return managers.size() == 1 ? managers.get(0) : new AnyOf(managers);
    }

    private static KeyStore extra(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            Collection<? extends java.security.cert.Certificate> certificates =
                    CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("TRIMUS_EGRESS_PROXY_UPSTREAM_CA_FILE " + file
                        + " holds no PEM certificate");
            }
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (java.security.cert.Certificate certificate : certificates) {
                store.setCertificateEntry("upstream-ca-" + i++, certificate);
            }
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("TRIMUS_EGRESS_PROXY_UPSTREAM_CA_FILE " + file + " cannot be read as"
                    + " PEM certificates: " + e.getMessage(), e);
        }
    }

    private static X509ExtendedTrustManager manager(KeyStore store) {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (var manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager x509) {
                    return x509;
                }
            }
            throw new IllegalStateException("the JVM offers no X.509 trust manager");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JVM's trust store cannot be read: " + e.getMessage(), e);
        }
    }

    /** Accepts what any of its managers accepts; trusts no client (the proxy is the client here). */
    private static final class AnyOf extends X509ExtendedTrustManager {
        private final List<X509ExtendedTrustManager> managers;

        AnyOf(List<X509ExtendedTrustManager> managers) {
            this.managers = managers;
        }

        @FunctionalInterface
        private interface Check {
            void run(X509ExtendedTrustManager manager) throws CertificateException;
        }

        private void anyAccepts(Check check) throws CertificateException {
            CertificateException last = null;
            for (X509ExtendedTrustManager manager : managers) {
                try {
                    check.run(manager);
                    return;
                } catch (CertificateException e) {
                    last = e;
                }
            }
            throw last;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            anyAccepts(m -> m.checkServerTrusted(chain, authType, engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            anyAccepts(m -> m.checkServerTrusted(chain, authType, socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            anyAccepts(m -> m.checkServerTrusted(chain, authType));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("the proxy does not accept client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("the proxy does not accept client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("the proxy does not accept client certificates");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return managers.stream().flatMap(m -> java.util.Arrays.stream(m.getAcceptedIssuers()))
                    .toArray(X509Certificate[]::new);
        }
    }
}
