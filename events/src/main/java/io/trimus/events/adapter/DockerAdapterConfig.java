package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.EgressCa;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code adapter_config} of a {@code docker} agent, validated strictly: run-service checks it on
 * write and the adapter service parses it again before it starts anything. Absent limits are
 * {@code null} and take the adapter service's defaults.
 *
 * @param image      image reference on the Docker engine (required; never pulled implicitly)
 * @param command    argv replacing the image's CMD, empty to keep it
 * @param env        variables forwarded into the container; nothing else of the host enters
 * @param network    Docker network to join, {@code none} by default
 * @param writable   true opts out of the read-only root filesystem (its size limited by TRIMUS_DOCKER_WRITABLE_LAYER_SIZE
 *                   where the engine can, else refused unless TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER)
 * @param pidsLimit  process limit, or null for TRIMUS_DOCKER_PIDS_LIMIT; at most TRIMUS_DOCKER_MAX_PIDS
 * @param memory     memory limit as written (e.g. {@code 256m}), or null for TRIMUS_DOCKER_DEFAULT_MEMORY; at most
 *                   TRIMUS_DOCKER_MAX_MEMORY
 * @param cpus       CPU limit (fractional), or null for TRIMUS_DOCKER_DEFAULT_CPUS; at most TRIMUS_DOCKER_MAX_CPUS
 * @param timeoutSec wall-clock limit in seconds (≥ 10, or the adapter's lowered floor), or null for the adapter default; at most
 *                   TRIMUS_DOCKER_MAX_TIMEOUT_SEC (the operator's ceilings are checked by {@link ResourceCeilings})
 * @param user       {@code uid[:gid]} to run as, or null for the image's non-root USER, else {@link ContainerUser#DEFAULT};
 *                   root only where TRIMUS_DOCKER_ALLOW_ROOT allows it
 * @param tmpNoexec  true mounts the read-only root's {@code /tmp} tmpfs {@code noexec} as well (default: exec, so
 *                   tools that build and run helpers there work)
 * @param secretEnv  variable → company secret ({@link SecretEnv}): sealed into each run, set in the container
 * @param runtime    the OCI runtime to run under ({@code runc}, {@code runsc} for gVisor), or null for
 *                   TRIMUS_DOCKER_DEFAULT_RUNTIME; one of TRIMUS_DOCKER_RUNTIMES ({@link AllowedRuntimes})
 */
public record DockerAdapterConfig(String image, List<String> command, Map<String, String> env, String network,
                                  boolean writable, Long pidsLimit, String memory, Double cpus, Integer timeoutSec,
                                  String user, boolean tmpNoexec, Map<String, String> secretEnv, String runtime)
        implements AdapterConfig {

    public static final String NETWORK_NONE = "none";
    /**
     * The smallest timeout_sec: run-service refuses less on write; the adapter service refuses less at dispatch unless
     * its operator lowered its floor (TRIMUS_DOCKER_MIN_TIMEOUT_SEC, see {@link #parse(JsonNode, int)}).
     */
    public static final int MIN_TIMEOUT_SEC = 10;
    public static final int MAX_TIMEOUT_SEC = 86_400;
    private static final Set<String> FIELDS = Set.of("image", "command", "env", "network", "writable", "pids_limit",
            "memory", "cpus", "timeout_sec", "user", "tmp_noexec", SecretEnv.FIELD, AllowedRuntimes.FIELD);
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final Pattern NETWORK = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}");
    private static final String PREFIX = ConfigFields.PREFIX;

    /** Its {@code secret_env}, each required: an operator image gets no other company secret. */
    @Override
    public List<SecretNeed> secretNeeds() {
        return SecretEnv.needs(secretEnv);
    }

    /** Memory limit in bytes, or null when none is set. */
    public Long memoryBytes() {
        return memory == null ? null : MemorySize.parseBytes(memory);
    }

    /**
     * Reads and validates a docker adapter_config.
     *
     * @throws AdapterConfigException naming the first field that breaks the contract
     */
    public static DockerAdapterConfig parse(JsonNode config) {
        return parse(config, MIN_TIMEOUT_SEC);
    }

    /**
     * Reads and validates a docker adapter_config, accepting a timeout_sec down to {@code minTimeoutSec} (the
     * adapter service's TRIMUS_DOCKER_MIN_TIMEOUT_SEC; {@link #MIN_TIMEOUT_SEC} by default).
     *
     * @throws AdapterConfigException naming the first field that breaks the contract
     */
    public static DockerAdapterConfig parse(JsonNode config, int minTimeoutSec) {
        ConfigFields.requireObjectOf(config, FIELDS, "docker");
        Map<String, String> env = env(config.get("env"));
        return new DockerAdapterConfig(image(config.get("image")), command(config.get("command")),
                env, network(config.get("network")), ConfigFields.bool(config.get("writable"), "writable"),
                ConfigFields.pidsLimit(config.get("pids_limit")), ConfigFields.memory(config.get("memory")),
                ConfigFields.cpus(config.get("cpus")), ConfigFields.timeoutSec(config.get("timeout_sec"), minTimeoutSec),
                ContainerUser.parse(config.get("user")), ConfigFields.bool(config.get("tmp_noexec"), "tmp_noexec"),
                SecretEnv.parse(config.get(SecretEnv.FIELD), env.keySet(), "in adapter_config.env"),
                AllowedRuntimes.parse(config.get(AllowedRuntimes.FIELD)));
    }

    private static String image(JsonNode node) {
        if (ConfigFields.absent(node)) {
            throw new AdapterConfigException(PREFIX + "image", "is required");
        }
        return ConfigFields.image(node);
    }

    private static List<String> command(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new AdapterConfigException(PREFIX + "command", "must be an array of strings (argv)");
        }
        if (node.size() > ConfigFields.MAX_LIST_ITEMS) {
            throw new AdapterConfigException(PREFIX + "command", "must have at most " + ConfigFields.MAX_LIST_ITEMS
                    + " arguments");
        }
        List<String> argv = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode arg = node.get(i);
            if (!arg.isTextual()) {
                throw new AdapterConfigException(PREFIX + "command", "must be an array of strings (argv)");
            }
            argv.add(ConfigFields.boundedText(arg, PREFIX + "command[" + i + "]"));
        }
        return List.copyOf(argv);
    }

    private static Map<String, String> env(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new AdapterConfigException(PREFIX + "env", "must be an object of string values");
        }
        if (node.size() > ConfigFields.MAX_MAP_ENTRIES) {
            throw new AdapterConfigException(PREFIX + "env", "must have at most " + ConfigFields.MAX_MAP_ENTRIES
                    + " variables");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = PREFIX + "env." + ConfigFields.key(e.getKey());
            if (!ENV_NAME.matcher(e.getKey()).matches()) {
                throw new AdapterConfigException(field, "is not a valid environment variable name");
            }
            if (e.getKey().startsWith("TRIMUS_")) {
                throw new AdapterConfigException(field, "TRIMUS_* variables are set by Trimus itself");
            }
            if (EgressCa.reserved(e.getKey())) {
                throw new AdapterConfigException(field, "is set by Trimus: on the egress network it points at the"
                        + " Trimus egress CA files under " + EgressCa.DIRECTORY);
            }
            if (!e.getValue().isTextual()) {
                throw new AdapterConfigException(field, "must be a string");
            }
            env.put(e.getKey(), ConfigFields.boundedText(e.getValue(), field));
        }
        return Map.copyOf(env);
    }

    private static String network(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return NETWORK_NONE;
        }
        if (!node.isTextual() || !NETWORK.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "network", "must be the name of a Docker network");
        }
        if (AllowedNetworks.never(node.asText())) {
            throw new AdapterConfigException(PREFIX + "network", node.asText()
                    + " is never available to agents: it would bypass the container's network isolation (the host's"
                    + " stack, Docker's shared default bridge or another container's)");
        }
        return node.asText();
    }
}
