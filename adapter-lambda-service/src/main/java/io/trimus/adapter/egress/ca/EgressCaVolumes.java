package io.trimus.adapter.egress.ca;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.events.EgressCa;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.jboss.logging.Logger;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Puts egress-service's CA certificate where a sandbox can read it: fetched for each run, written once per CA into a
 * Docker named volume {@code trimus-egress-ca-<16 hex of its fingerprint>} as {@code egress-ca.pem} and
 * {@code ca-bundle.pem} (the CA, then every root this JVM trusts), which the sandbox mounts read-only at
 * {@link EgressCa#DIRECTORY}. A sandbox's root is read-only, so the files cannot go into the container itself; the
 * volume is filled through a helper container that is created from the run's own image and never started.
 * Content-addressed and tiny, a volume is kept.
 */
public class EgressCaVolumes {

    private static final Logger LOG = Logger.getLogger(EgressCaVolumes.class);
    /** Name prefix of the CA volumes. */
    public static final String VOLUME_PREFIX = "trimus-egress-ca-";
    /** Label of a CA volume: the full fingerprint. */
    public static final String LABEL_FINGERPRINT = "trimus.egress_ca.sha256";

    private final DockerClient docker;
    private final EgressServiceClient egressService;
    private final Set<String> filled = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean failing = new AtomicBoolean();

    /** The CA in place for a sandbox: its SHA-256 fingerprint (lower-case hex) and the volume holding it. */
    public record Placed(String fingerprint, String volume) {
    }

    /** The CA cannot be placed; the message says why in words a person can act on. */
    public static final class Unavailable extends Exception {
        Unavailable(String reason) {
            super(reason, null, false, false);
        }
    }

    public EgressCaVolumes(DockerClient docker, EgressServiceClient egressService) {
        this.docker = docker;
        this.egressService = egressService;
    }

    /**
     * The current egress CA, its volume filled (once per CA and process, again if the volume was removed meanwhile).
     * The first failure of a streak is logged as a warning.
     *
     * @param image the run's image, of which a helper container is created (never started) to fill a new volume
     * @throws Unavailable when egress-service serves no CA or its volume cannot be filled
     */
    public Placed place(String image) throws Unavailable, InterruptedException {
        try {
            Placed placed = fetchAndFill(image);
            if (failing.getAndSet(false)) {
                LOG.infof("the egress CA is available again (%s)", placed.volume());
            }
            return placed;
        } catch (Unavailable e) {
            if (failing.compareAndSet(false, true)) {
                LOG.warnf("the egress CA cannot be placed in sandboxes: %s; until it can, runs with masked secrets"
                        + " fail and other sandboxes start without %s", e.getMessage(), EgressCa.DIRECTORY);
            }
            throw e;
        }
    }

    private Placed fetchAndFill(String image) throws Unavailable, InterruptedException {
        String pem;
        try {
            pem = egressService.ca();
        } catch (EgressServiceClient.RegistrationFailed e) {
            throw new Unavailable("egress-service's CA could not be fetched: " + e.getMessage());
        }
        X509Certificate ca = certificate(pem);
        byte[] der;
        try {
            der = ca.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new Unavailable("egress-service's CA certificate cannot be encoded");
        }
        String fingerprint = HexFormat.of().formatHex(sha256(der));
        String volume = VOLUME_PREFIX + fingerprint.substring(0, 16);
        fill(volume, fingerprint, image, der);
        return new Placed(fingerprint, volume);
    }

    private synchronized void fill(String volume, String fingerprint, String image, byte[] der) throws Unavailable {
        try {
            if (filled.contains(volume) && exists(volume)) {
                return;
            }
            docker.createVolumeCmd().withName(volume).withLabels(Map.of(LABEL_FINGERPRINT, fingerprint)).exec();
            String helper = docker.createContainerCmd(image)
                    .withEntrypoint("/trimus-egress-ca-helper-never-started")
                    .withCmd(List.of())
                    .withNetworkDisabled(true)
                    .withLabels(Map.of(LABEL_FINGERPRINT, fingerprint))
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none")
                            .withMounts(List.of(new Mount().withType(MountType.VOLUME).withSource(volume)
                                    .withTarget(EgressCa.DIRECTORY))))
                    .exec().getId();
            try {
                docker.copyArchiveToContainerCmd(helper).withRemotePath(EgressCa.DIRECTORY)
                        .withTarInputStream(new ByteArrayInputStream(tar(der))).exec();
            } finally {
                docker.removeContainerCmd(helper).withForce(true).exec();
            }
            filled.add(volume);
            LOG.infof("egress CA %s placed in volume %s", fingerprint, volume);
        } catch (NotFoundException e) {
            throw new Unavailable("the egress CA volume " + volume + " could not be filled: image " + image
                    + " not found on the Docker engine");
        } catch (RuntimeException e) {
            throw new Unavailable("the egress CA volume " + volume + " could not be filled: " + e.getMessage());
        }
    }

    private boolean exists(String volume) {
        try {
            docker.inspectVolumeCmd(volume).exec();
            return true;
        } catch (NotFoundException gone) {
            return false;
        }
    }

    /** The tar of the two files, read-only for everyone. */
    private static byte[] tar(byte[] caDer) throws Unavailable {
        byte[] ca = pem(caDer).getBytes(StandardCharsets.US_ASCII);
        byte[] bundle = bundle(caDer).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            add(tar, EgressCa.CA_FILE.substring(EgressCa.DIRECTORY.length() + 1), ca);
            add(tar, EgressCa.BUNDLE_FILE.substring(EgressCa.DIRECTORY.length() + 1), bundle);
        } catch (IOException e) {
            throw new Unavailable("the egress CA files could not be packed: " + e.getMessage());
        }
        return out.toByteArray();
    }

    private static void add(TarArchiveOutputStream tar, String name, byte[] content) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        entry.setMode(0100444);
        entry.setIds(0, 0);
        tar.putArchiveEntry(entry);
        tar.write(content);
        tar.closeArchiveEntry();
    }

    /** The CA, then every root the default trust manager of this JVM accepts. */
    static String bundle(byte[] caDer) throws Unavailable {
        StringBuilder out = new StringBuilder(pem(caDer));
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init((KeyStore) null);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509TrustManager x509) {
                    for (X509Certificate root : x509.getAcceptedIssuers()) {
                        out.append(pem(root.getEncoded()));
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new Unavailable("this JVM's trusted roots cannot be read: " + e.getMessage());
        }
        return out.toString();
    }

    private static String pem(byte[] der) {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END CERTIFICATE-----\n";
    }

    /** The one CA certificate of egress-service's answer. */
    private static X509Certificate certificate(String pem) throws Unavailable {
        Collection<? extends Certificate> certificates;
        try {
            certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new Unavailable("egress-service's CA answer is not a PEM certificate");
        }
        if (certificates.size() != 1 || !(certificates.iterator().next() instanceof X509Certificate ca)) {
            throw new Unavailable("egress-service's CA answer holds " + certificates.size()
                    + " certificates, not one");
        }
        if (ca.getBasicConstraints() < 0) {
            throw new Unavailable("egress-service's CA answer is not a CA certificate");
        }
        return ca;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
