package io.trimus.adapter.config;

import io.trimus.events.adapter.AllowedNetworks;
import io.trimus.events.adapter.DockerAdapterConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The service-wide defaults a docker container policy falls back on, checked once at boot.
 *
 * @param pidsLimit    TRIMUS_DOCKER_PIDS_LIMIT
 * @param tmpfsSize    TRIMUS_DOCKER_TMPFS_SIZE
 * @param securityOpts TRIMUS_DOCKER_SECURITY_OPTS, with {@code seccomp=<file>} already read into the entry
 * @param timeoutSec   TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC
 * @param instance     TRIMUS_DOCKER_INSTANCE, labelled on every container
 * @param allowedNetworks TRIMUS_DOCKER_ALLOWED_NETWORKS
 * @param allowRoot    TRIMUS_DOCKER_ALLOW_ROOT
 * @param limits       the ceilings on what an agent may ask for, and the memory and CPUs of one that asks for none
 * @param disk         the log and writable-layer caps
 */
public record DockerDefaults(long pidsLimit, String tmpfsSize, List<String> securityOpts, int timeoutSec,
                             String instance, AllowedNetworks allowedNetworks, boolean allowRoot,
                             ContainerLimits limits, DiskLimits disk) {

    /** Always first among a container's security options; no configuration may switch it off. */
    public static final String NO_NEW_PRIVILEGES = "no-new-privileges";

    /** The instance name when none is configured and the environment names no host. */
    public static final String DEFAULT_INSTANCE = "adapter";

    /**
     * TRIMUS_DOCKER_INSTANCE, else the host name Docker and Kubernetes give every container and pod ({@code HOSTNAME}),
     * else {@value #DEFAULT_INSTANCE}; the same default the consumer group names in application.properties use.
     */
    public static String instanceOf(DockerConfig config) {
        return config.instance().filter(name -> !name.isBlank()).orElseGet(() -> {
            String host = System.getenv("HOSTNAME");
            return host == null || host.isBlank() ? DEFAULT_INSTANCE : host;
        });
    }

    /** The networks allowed when none are configured: {@code none} and the default egress network. */
    public static final AllowedNetworks DEFAULT_NETWORKS = new AllowedNetworks(List.of("none",
            "trimus-egress-allowlist"));

    /**
     * Security options that would switch a confinement off; refused at boot, in either spelling ({@code =} or
     * {@code :}).
     */
    public static final List<String> UNCONFINED = List.of(NO_NEW_PRIVILEGES + "=false", "seccomp=unconfined",
            "apparmor=unconfined", "label=disable", "systempaths=unconfined");

    /**
     * Defaults of the instance named {@value #DEFAULT_INSTANCE}, the default networks, no root, and the default limits
     * and disk caps.
     */
    public DockerDefaults(long pidsLimit, String tmpfsSize, List<String> securityOpts, int timeoutSec) {
        this(pidsLimit, tmpfsSize, securityOpts, timeoutSec, DEFAULT_INSTANCE, DEFAULT_NETWORKS, false,
                ContainerLimits.DEFAULTS, DiskLimits.DEFAULTS);
    }

    /** A tmpfs size as Docker takes it: a number with an optional k, m or g. */
    public static final Pattern TMPFS_SIZE = Pattern.compile("[1-9][0-9]{0,15}[kmg]?");

    public DockerDefaults {
        if (pidsLimit <= 0) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_PIDS_LIMIT must be greater than 0, got " + pidsLimit);
        }
        if (tmpfsSize == null || !TMPFS_SIZE.matcher(tmpfsSize.toLowerCase(Locale.ROOT)).matches()) {
            throw new IllegalArgumentException(
                    "TRIMUS_DOCKER_TMPFS_SIZE must be a size like 64m, got '" + tmpfsSize + "'");
        }
        if (timeoutSec < DockerAdapterConfig.MIN_TIMEOUT_SEC) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC must be at least "
                    + DockerAdapterConfig.MIN_TIMEOUT_SEC + ", got " + timeoutSec);
        }
        for (String opt : securityOpts) {
            String normal = opt.trim().replaceFirst(":", "=").replace(" ", "").toLowerCase(Locale.ROOT);
            if (normal.equals(NO_NEW_PRIVILEGES + "=false")) {
                throw new IllegalArgumentException("TRIMUS_DOCKER_SECURITY_OPTS may not switch off "
                        + NO_NEW_PRIVILEGES + ": the docker adapter promises it for every container");
            }
            if (UNCONFINED.contains(normal)) {
                throw new IllegalArgumentException("TRIMUS_DOCKER_SECURITY_OPTS entry '" + opt + "' switches off a"
                        + " confinement every container is promised (seccomp, AppArmor, SELinux labels, masked /proc"
                        + " and /sys paths); remove it");
            }
        }
        if (allowedNetworks == null) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_ALLOWED_NETWORKS is required");
        }
        if (limits == null || disk == null) {
            throw new IllegalArgumentException("the container limits and disk caps are required");
        }
        limits.checkDefaults("TRIMUS_DOCKER_PIDS_LIMIT", pidsLimit, "TRIMUS_DOCKER_DEFAULT_TIMEOUT_SEC", timeoutSec);
        if (instance == null || !instance.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}")) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_INSTANCE must be 1-63 letters, digits, '.', '_' or"
                    + " '-', got '" + instance + "'");
        }
        tmpfsSize = tmpfsSize.toLowerCase(Locale.ROOT);
        securityOpts = List.copyOf(securityOpts);
    }

    /**
     * TRIMUS_DOCKER_MIN_TIMEOUT_SEC, checked: the floor of a run's adapter_config.timeout_sec at dispatch.
     *
     * @throws IllegalArgumentException when it is not between 1 and {@link DockerAdapterConfig#MIN_TIMEOUT_SEC}
     */
    public static int minTimeoutSec(DockerConfig config) {
        int floor = config.minTimeoutSec();
        if (floor < 1 || floor > DockerAdapterConfig.MIN_TIMEOUT_SEC) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_MIN_TIMEOUT_SEC must be between 1 and "
                    + DockerAdapterConfig.MIN_TIMEOUT_SEC + ", got " + floor);
        }
        return floor;
    }

    /** The defaults configured for this service; reads a {@code seccomp=<file>} profile once. */
    public static DockerDefaults from(DockerConfig config) {
        List<String> opts = config.securityOpts().orElse(List.of()).stream()
                .map(String::trim).filter(o -> !o.isEmpty()).map(DockerDefaults::inlineSeccompProfile).toList();
        return new DockerDefaults(config.pidsLimit(), config.tmpfsSize(), opts, config.defaultTimeoutSec(),
                instanceOf(config), new AllowedNetworks(config.allowedNetworks()), config.allowRoot(),
                ContainerLimits.from(config), DiskLimits.from(config));
    }

    /**
     * The Engine API takes a seccomp profile's JSON, not its path; like the docker CLI, read the file.
     * {@code seccomp=unconfined} and inline JSON are passed through.
     */
    public static String inlineSeccompProfile(String opt) {
        int eq = opt.indexOf('=');
        int colon = opt.indexOf(':');
        int sep = eq < 0 ? colon : colon < 0 ? eq : Math.min(eq, colon);
        if (sep < 0 || !opt.substring(0, sep).equals("seccomp")) {
            return opt;
        }
        String value = opt.substring(sep + 1).trim();
        if (value.equals("unconfined") || value.startsWith("{")) {
            return opt;
        }
        try {
            return "seccomp=" + Files.readString(Path.of(value), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("TRIMUS_DOCKER_SECURITY_OPTS names the seccomp profile " + value
                    + ", which cannot be read: " + e.getMessage(), e);
        }
    }
}


