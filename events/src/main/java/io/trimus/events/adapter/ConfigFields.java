package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collection;
import java.util.Iterator;
import java.util.regex.Pattern;

/** Field readers shared by the adapter_config contracts, so every adapter words the same mistake the same way. */
final class ConfigFields {
    static final String PREFIX = "adapter_config.";
    /**
     * Longest free-text value in an adapter_config (an env value, a command argument), in characters: every agent's
     * config travels in each of its run.requested events, which must fit one Kafka record.
     */
    public static final int MAX_STRING_CHARS = 4096;
    /** Most entries of a map in an adapter_config (the docker env). */
    public static final int MAX_MAP_ENTRIES = 64;
    /** Most items of a list in an adapter_config (the docker command's argv). */
    public static final int MAX_LIST_ITEMS = 256;
    private static final Pattern IMAGE = Pattern.compile(
            "[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?");

    private ConfigFields() {
    }

    /** The config as an object whose every field name is one of {@code allowed}. */
    static void requireObjectOf(JsonNode config, Collection<String> allowed, String adapter) {
        if (config == null || !config.isObject()) {
            throw new AdapterConfigException("adapter_config", "must be a JSON object");
        }
        for (Iterator<String> names = config.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new AdapterConfigException(PREFIX + key(name), "is not a " + adapter + " adapter setting (allowed: "
                        + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
    }

    /** A text value of at most {@link #MAX_STRING_CHARS} characters; {@code field} names it when it is longer. */
    static String boundedText(JsonNode node, String field) {
        if (node.asText().length() > MAX_STRING_CHARS) {
            throw new AdapterConfigException(field, "must be at most " + MAX_STRING_CHARS + " characters");
        }
        return node.asText();
    }

    /**
     * A JSON key as it may appear in a field path or message: keys longer than any valid one (128 characters) are cut,
     * so an absurd key is refused without being echoed back whole.
     */
    static String key(String name) {
        return name.length() <= 128 ? name : name.substring(0, 128) + "…";
    }

    static boolean absent(JsonNode node) {
        return node == null || node.isNull();
    }

    /** An integer that fits a long: asLong() of a bigger one keeps only its low 64 bits, 2^64 + 5 would read as 5. */
    static boolean wholeNumber(JsonNode node) {
        return node.isIntegralNumber() && node.canConvertToLong();
    }

    /** An image reference such as {@code busybox:1.36}, or null when absent. */
    /** A whole number within [min, max] as {@code field}, or {@code absent} when it is not given. */
    static int wholeNumberWithin(JsonNode node, String field, int min, int max, int absent) {
        if (absent(node)) {
            return absent;
        }
        if (!wholeNumber(node) || node.asLong() < min || node.asLong() > max) {
            throw new AdapterConfigException(field, "must be a whole number between " + min + " and " + max);
        }
        return node.asInt();
    }

    static String image(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!node.isTextual() || node.asText().length() > 255 || !IMAGE.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "image", "must be an image reference such as busybox:1.36");
        }
        return node.asText();
    }

    static boolean bool(JsonNode node, String field) {
        if (absent(node)) {
            return false;
        }
        if (!node.isBoolean()) {
            throw new AdapterConfigException(PREFIX + field, "must be true or false");
        }
        return node.asBoolean();
    }

    static Long pidsLimit(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!wholeNumber(node) || node.asLong() <= 0 || node.asLong() > 4_194_304) {
            throw new AdapterConfigException(PREFIX + "pids_limit", "must be a whole number greater than 0");
        }
        return node.asLong();
    }

    static String memory(JsonNode node) {
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

    static Double cpus(JsonNode node) {
        if (absent(node)) {
            return null;
        }
        if (!node.isNumber() || !(node.asDouble() >= 0.01) || node.asDouble() > 1024) {
            throw new AdapterConfigException(PREFIX + "cpus", "must be a number of CPUs such as 0.5 or 2");
        }
        return node.asDouble();
    }

    static Integer timeoutSec(JsonNode node) {
        return timeoutSec(node, DockerAdapterConfig.MIN_TIMEOUT_SEC);
    }

    /** @param minTimeoutSec the smallest timeout accepted ({@link DockerAdapterConfig#MIN_TIMEOUT_SEC} unless lowered) */
    static Integer timeoutSec(JsonNode node, int minTimeoutSec) {
        if (absent(node)) {
            return null;
        }
        if (!wholeNumber(node) || node.asLong() < minTimeoutSec
                || node.asLong() > DockerAdapterConfig.MAX_TIMEOUT_SEC) {
            throw new AdapterConfigException(PREFIX + "timeout_sec", "must be a whole number of seconds between "
                    + minTimeoutSec + " and " + DockerAdapterConfig.MAX_TIMEOUT_SEC);
        }
        return node.asInt();
    }
}
