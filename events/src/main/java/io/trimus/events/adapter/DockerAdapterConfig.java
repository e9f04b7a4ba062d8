package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

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
 * @param writable   true opts out of the read-only root filesystem
 * @param pidsLimit  process limit, or null for TRIMUS_DOCKER_PIDS_LIMIT
 * @param memory     memory limit as written (e.g. {@code 256m}), or null for none
 * @param cpus       CPU limit (fractional), or null for none
 * @param timeoutSec wall-clock limit in seconds (≥ 10), or null for the adapter default
 */
public record DockerAdapterConfig(String image, List<String> command, Map<String, String> env, String network,
                                  boolean writable, Long pidsLimit, String memory, Double cpus, Integer timeoutSec) {

    public static final String NETWORK_NONE = "none";
    public static final int MIN_TIMEOUT_SEC = 10;
    public static final int MAX_TIMEOUT_SEC = 86_400;
    private static final Set<String> FIELDS = Set.of("image", "command", "env", "network", "writable", "pids_limit",
            "memory", "cpus", "timeout_sec");
    private static final Pattern IMAGE = Pattern.compile(
            "[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final Pattern NETWORK = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}");
    private static final String PREFIX = "adapter_config.";

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
        if (config == null || !config.isObject()) {
            throw new AdapterConfigException("adapter_config", "must be a JSON object");
        }
        for (Iterator<String> names = config.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new AdapterConfigException(PREFIX + name, "is not a docker adapter setting (allowed: "
                        + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
            }
        }
        return new DockerAdapterConfig(image(config.get("image")), command(config.get("command")),
                env(config.get("env")), network(config.get("network")), writable(config.get("writable")),
                pidsLimit(config.get("pids_limit")), memory(config.get("memory")), cpus(config.get("cpus")),
                timeoutSec(config.get("timeout_sec")));
    }

    private static String image(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new AdapterConfigException(PREFIX + "image", "is required");
        }
        if (!node.isTextual() || node.asText().length() > 255 || !IMAGE.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "image", "must be an image reference such as busybox:1.36");
        }
        return node.asText();
    }

    private static List<String> command(JsonNode node) {
        if (absent(node)) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new AdapterConfigException(PREFIX + "command", "must be an array of strings (argv)");
        }
        List<String> argv = new ArrayList<>();
        for (JsonNode arg : node) {
            if (!arg.isTextual()) {
                throw new AdapterConfigException(PREFIX + "command", "must be an array of strings (argv)");
            }
            argv.add(arg.asText());
        }
        return List.copyOf(argv);
    }

    private static Map<String, String> env(JsonNode node) {
        if (absent(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new AdapterConfigException(PREFIX + "env", "must be an object of string values");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = PREFIX + "env." + e.getKey();
            if (!ENV_NAME.matcher(e.getKey()).matches()) {
                throw new AdapterConfigException(field, "is not a valid environment variable name");
            }
            if (e.getKey().startsWith("TRIMUS_")) {
                throw new AdapterConfigException(field, "TRIMUS_* variables are set by Trimus itself");
            }
            if (!e.getValue().isTextual()) {
                throw new AdapterConfigException(field, "must be a string");
            }
            env.put(e.getKey(), e.getValue().asText());
        }
        return Map.copyOf(env);
    }

    private static String network(JsonNode node) {
        if (absent(node)) {
            return NETWORK_NONE;
        }
        if (!node.isTextual() || !NETWORK.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "network", "must be the name of a Docker network");
        }
        if (node.asText().equals("host")) {
            throw new AdapterConfigException(PREFIX + "network",
                    "host networking would bypass the container's network isolation");
        }
        return node.asText();
    }

    private static boolean writable(JsonNode node) {
        if (absent(node)) {
            return false;
        }
        if (!node.isBoolean()) {
            throw new AdapterConfigException(PREFIX + "writable", "must be true or false");
        }
        return node.asBoolean();
    }

    private static Long pidsLimit(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!wholeNumber(node) || node.asLong() <= 0 || node.asLong() > 4_194_304) {
            throw new AdapterConfigException(PREFIX + "pids_limit", "must be a whole number greater than 0");
        }
        return node.asLong();
    }

    private static String memory(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!node.isTextual()) {
            throw new AdapterConfigException(PREFIX + "memory", "must be a size like 512m or 2g");
        }
        try {
            MemorySize.parseBytes(node.asText());
        } catch (IllegalArgumentException e) {
            throw new AdapterConfigException(PREFIX + "memory", e.getMessage());
        }
        return node.asText().trim();
    }

    private static Double cpus(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!node.isNumber() || !(node.asDouble() >= 0.01) || node.asDouble() > 1024) {
            throw new AdapterConfigException(PREFIX + "cpus", "must be a number of CPUs such as 0.5 or 2");
        }
        return node.asDouble();
    }

    private static Integer timeoutSec(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!wholeNumber(node) || node.asLong() < MIN_TIMEOUT_SEC || node.asLong() > MAX_TIMEOUT_SEC) {
            throw new AdapterConfigException(PREFIX + "timeout_sec",
                    "must be a whole number of seconds between " + MIN_TIMEOUT_SEC + " and " + MAX_TIMEOUT_SEC);
        }
        return node.asInt();
    }

    /** An integer that fits a long: asLong() of a bigger one keeps only its low 64 bits, 2^64 + 5 would read as 5. */
    private static boolean wholeNumber(JsonNode node) {
        return node.isIntegralNumber() && node.canConvertToLong();
    }

    private static boolean absent(JsonNode node) {
        return node == null || node.isNull();
    }
}
