package io.trimus.egress.ca;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Real TLS handshakes between a server that uses an egress CA's key manager and a client that trusts only that CA and
 * checks the host name as HTTPS does: over loopback sockets ({@code SSLSocket}) and in memory ({@code SSLEngine},
 * the way the proxy's Netty handlers drive it).
 */
final class TlsHandshakes {
    private static final int TIMEOUT_MILLIS = 10_000;

    private TlsHandshakes() {
    }

    static SSLContext server(KeyManager keyManager) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[]{keyManager}, null, null);
        return context;
    }

    static SSLContext clientTrusting(X509Certificate ca) throws GeneralSecurityException, IOException {
        KeyStore roots = KeyStore.getInstance(KeyStore.getDefaultType());
        roots.load(null, null);
        roots.setCertificateEntry("egress-ca", ca);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(roots);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /**
     * Connects a client that expects {@code host} and sends {@code sni} (none when null) to a loopback server; returns
     * the chain the client accepted, or throws what the client's handshake threw.
     */
    static Certificate[] overSockets(SSLContext server, SSLContext client, String host, String sni) throws Exception {
        try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> accepted = CompletableFuture.runAsync(() -> {
                try (SSLSocket peer = (SSLSocket) listener.accept()) {
                    peer.setSoTimeout(TIMEOUT_MILLIS);
                    peer.startHandshake();
                    peer.getOutputStream().write(1);
                    peer.getOutputStream().flush();
                } catch (IOException serverSideFailure) {
                    // the client's exception says why; the server's is the same failure seen from the other side
                }
            });
            Socket plain = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(plain, host,
                    listener.getLocalPort(), true)) {
                socket.setSoTimeout(TIMEOUT_MILLIS);
                socket.setSSLParameters(parameters(socket.getSSLParameters(), sni));
                socket.startHandshake();
                socket.getInputStream().read();
                return socket.getSession().getPeerCertificates();
            } finally {
                accepted.join();
            }
        }
    }

    /** The same handshake between two {@code SSLEngine}s in memory; returns the chain the client accepted. */
    static Certificate[] overEngines(SSLContext server, SSLContext client, String host, String sni) throws Exception {
        SSLEngine clientEngine = client.createSSLEngine(host, 443);
        clientEngine.setUseClientMode(true);
        clientEngine.setSSLParameters(parameters(clientEngine.getSSLParameters(), sni));
        SSLEngine serverEngine = server.createSSLEngine();
        serverEngine.setUseClientMode(false);
        ByteBuffer toServer = ByteBuffer.allocate(1 << 17);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 17);
        clientEngine.beginHandshake();
        serverEngine.beginHandshake();
        for (int round = 0; round < 100 && !(done(clientEngine) && done(serverEngine)); round++) {
            step(clientEngine, toClient, toServer);
            step(serverEngine, toServer, toClient);
        }
        if (!(done(clientEngine) && done(serverEngine))) {
            throw new IllegalStateException("the in-memory handshake did not finish");
        }
        return clientEngine.getSession().getPeerCertificates();
    }

    private static SSLParameters parameters(SSLParameters parameters, String sni) {
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setServerNames(sni == null ? List.of() : List.of(new SNIHostName(sni)));
        return parameters;
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    private static void step(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws Exception {
        ByteBuffer application = ByteBuffer.allocate(1 << 17);
        for (int i = 0; i < 20; i++) {
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    in.flip();
                    boolean nothing = !in.hasRemaining();
                    if (!nothing) {
                        engine.unwrap(in, application);
                    }
                    in.compact();
                    if (nothing) {
                        return;
                    }
                }
                default -> {
                    return;
                }
            }
        }
    }
}
