package io.trimus.egress.ca;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;

/**
 * The certificates of the egress CA, built with BouncyCastle and signed with the JDK's ECDSA: the CA itself and the
 * leaf certificates it issues for one host name each, with the extensions strict verifiers (OpenSSL 3's
 * {@code -x509_strict}, Python's default context) insist on.
 */
final class CaCertificates {
    static final String CA_NAME = "Trimus egress CA";
    static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /** Clocks of sandboxes and the proxy's host may disagree a little; a leaf valid from "now" could be refused. */
    static final Duration BACKDATE = Duration.ofHours(1);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final int COMMON_NAME_MAX = 64;
    private static final SecureRandom RANDOM = new SecureRandom();

    private CaCertificates() {
    }

    /** A CA key pair and certificate: EC P-256, 10 years, path length 0 (it signs leaves only). */
    static Issued newAuthority(Instant now) {
        KeyPair keys = newKeyPair();
        X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "Trimus").addRDN(BCStyle.CN, CA_NAME)
                .build();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, serial(),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(CA_VALIDITY)), name, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(keys.getPublic()));
            return new Issued(sign(builder, keys.getPrivate()), keys);
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("could not build the egress CA certificate", e);
        }
    }

    /** A leaf certificate for {@code host} (a valid, lower-case host name) with {@code leafKeys}' public key. */
    static X509Certificate leaf(String host, KeyPair leafKeys, X509Certificate ca, PrivateKey caKey,
                                Instant notBefore, Instant notAfter) {
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.O, "Trimus");
        if (host.length() <= COMMON_NAME_MAX) {
            subject.addRDN(BCStyle.CN, host);
        }
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca, serial(), Date.from(notBefore),
                    Date.from(notAfter), subject.build(), leafKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false,
                            new GeneralNames(new GeneralName(GeneralName.dNSName, host)))
                    .addExtension(Extension.subjectKeyIdentifier, false,
                            extensions.createSubjectKeyIdentifier(leafKeys.getPublic()))
                    .addExtension(Extension.authorityKeyIdentifier, false,
                            extensions.createAuthorityKeyIdentifier(ca.getPublicKey()));
            return sign(builder, caKey);
        } catch (GeneralSecurityException | CertIOException e) {
            throw new IllegalStateException("could not issue a leaf certificate", e);
        }
    }

    /** A fresh EC P-256 key pair. */
    static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("EC P-256 is not available in this JVM", e);
        }
    }

    /** SHA-256 of the certificate's DER, lower-case hex: how a CA is named everywhere. */
    static String fingerprint(X509Certificate certificate) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("the certificate cannot be encoded", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
            throws GeneralSecurityException {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(SIGNATURE).build(key)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException("no " + SIGNATURE + " signer", e);
        }
    }

    // positive and at most 20 octets (RFC 5280 §4.1.2.2); random, so no two certificates share one
    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).setBit(126);
    }

    /** A new certificate and the key pair it certifies. */
    record Issued(X509Certificate certificate, KeyPair keys) {
    }
}
