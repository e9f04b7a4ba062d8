package io.trimus.adapter.config;

import io.trimus.events.adapter.MemorySize;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The disk a container may fill on the engine's host besides its tmpfs mounts: its log (rotated by the json-file
 * driver) and, for a docker agent with {@code "writable": true}, its root filesystem's writable layer. Checked once
 * at boot.
 *
 * @param logMaxSize                  TRIMUS_DOCKER_LOG_MAX_SIZE, e.g. {@code 10m}
 * @param logMaxFile                  TRIMUS_DOCKER_LOG_MAX_FILE
 * @param writableLayerSize           TRIMUS_DOCKER_WRITABLE_LAYER_SIZE, e.g. {@code 1g}
 * @param allowUnboundedWritableLayer TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER
 */
public record DiskLimits(String logMaxSize, int logMaxFile, String writableLayerSize,
                         boolean allowUnboundedWritableLayer) {

    /** The driver every container logs with: it rotates on disk and the engine can still read the output back. */
    public static final String LOG_DRIVER = "json-file";

    /** A log size as the json-file driver takes it: a number with an optional k, m or g. */
    private static final Pattern LOG_SIZE = Pattern.compile("[1-9][0-9]{0,6}[kmg]?");

    /** The limits when the operator sets none: 2 log files of 10m, a 1g writable layer, never unbounded. */
    public static final DiskLimits DEFAULTS = new DiskLimits("10m", 2, "1g", false);

    public DiskLimits {
        if (logMaxSize == null || !LOG_SIZE.matcher(logMaxSize.trim().toLowerCase(Locale.ROOT)).matches()
                || parse(logMaxSize) < 1024) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_LOG_MAX_SIZE must be a size like 10m (at least 1k), got '"
                    + logMaxSize + "'");
        }
        if (logMaxFile < 1 || logMaxFile > 100) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_LOG_MAX_FILE must be between 1 and 100, got "
                    + logMaxFile);
        }
        try {
            MemorySize.parseBytes(writableLayerSize);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_WRITABLE_LAYER_SIZE " + e.getMessage() + ", got '"
                    + writableLayerSize + "'");
        }
        logMaxSize = logMaxSize.trim().toLowerCase(Locale.ROOT);
        writableLayerSize = writableLayerSize.trim().toLowerCase(Locale.ROOT);
    }

    /** The limits configured for this service. */
    public static DiskLimits from(DockerConfig config) {
        return new DiskLimits(config.logMaxSize(), config.logMaxFile(), config.writableLayerSize(),
                config.allowUnboundedWritableLayer());
    }

    /** The json-file driver's options: rotate at {@link #logMaxSize}, keep {@link #logMaxFile} files. */
    public Map<String, String> logOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("max-size", logMaxSize);
        options.put("max-file", String.valueOf(logMaxFile));
        return Map.copyOf(options);
    }

    /** Bytes a container's log may take on disk: every file at its largest. */
    public long logCapBytes() {
        return parse(logMaxSize) * logMaxFile;
    }

    private static long parse(String size) {
        String s = size.trim().toLowerCase(Locale.ROOT);
        char unit = s.charAt(s.length() - 1);
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        return Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1)) << shift;
    }
}
