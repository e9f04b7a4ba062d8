package io.trimus.egress.ca;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.util.io.pem.PemGenerationException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

/** PEM text of certificates and PKCS#8 private keys, written and read by BouncyCastle's PEM codec. */
final class Pem {
    private Pem() {
    }

    static String certificate(X509Certificate certificate) {
        return write(certificate);
    }

    static X509Certificate readCertificate(String pem) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (CertificateException e) {
            throw new IllegalStateException("a stored egress CA certificate is not a valid certificate", e);
        }
    }

    static String privateKey(PrivateKey key) {
        try {
            return write(new JcaPKCS8Generator(key, null));
        } catch (PemGenerationException e) {
            throw new IllegalStateException("the private key cannot be encoded as PKCS#8", e);
        }
    }

    static PrivateKey readPrivateKey(String pem) {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            if (!(parser.readObject() instanceof PrivateKeyInfo info)) {
                throw new IllegalStateException("a stored egress CA key is not a PKCS#8 private key");
            }
            return new JcaPEMKeyConverter().getPrivateKey(info);
        } catch (IOException e) {
            throw new IllegalStateException("a stored egress CA key cannot be read", e);
        }
    }

    private static String write(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }
}
