package io.trimus.egress.ca;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.StandardConstants;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Optional;

/**
 * The key manager of a TLS server that answers every handshake with a leaf certificate for exactly the host the
 * client named in its SNI, signed by one egress CA. The alias is that host name. A handshake without SNI, or with a
 * name no certificate may be issued for, gets no alias and fails: the proxy never shows a certificate for a name the
 * client did not ask for.
 */
final class LeafKeyManager extends X509ExtendedKeyManager {
    private static final String KEY_TYPE = "EC";

    private final LeafCertificates leaves;
    private final X509Certificate ca;

    LeafKeyManager(LeafCertificates leaves, X509Certificate ca) {
        this.leaves = leaves;
        this.ca = ca;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return engine == null ? null : alias(keyType, engine.getHandshakeSession());
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return socket instanceof SSLSocket tls ? alias(keyType, tls.getHandshakeSession()) : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return LeafHostNames.of(alias).map(host -> new X509Certificate[]{leaves.leaf(host), ca}).orElse(null);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return LeafHostNames.of(alias).isPresent() ? leaves.privateKey() : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return null;    // no fixed set: one alias per host name asked for
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }

    private String alias(String keyType, SSLSession handshake) {
        if (!KEY_TYPE.equalsIgnoreCase(keyType) || !(handshake instanceof ExtendedSSLSession session)) {
            return null;
        }
        Optional<String> host = session.getRequestedServerNames().stream()
                .filter(name -> name.getType() == StandardConstants.SNI_HOST_NAME)
                .findFirst()
                .map(LeafKeyManager::asciiName)
                .flatMap(LeafHostNames::of);
        host.ifPresent(leaves::leaf);   // issued now, so the chain the JDK asks for next is ready
        return host.orElse(null);
    }

    private static String asciiName(SNIServerName name) {
        try {
            SNIHostName host = name instanceof SNIHostName known ? known : new SNIHostName(name.getEncoded());
            return host.getAsciiName();
        } catch (IllegalArgumentException notAHostName) {
            return null;
        }
    }
}
