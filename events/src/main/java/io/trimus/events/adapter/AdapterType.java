package io.trimus.events.adapter;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The adapters of the seed contract, by their wire name, and the isolation each promises. */
public enum AdapterType {
    DOCKER("docker", "container"),
    CLAUDE_SANDBOX("claude_sandbox", "container"),
    CODEX_SANDBOX("codex_sandbox", "container"),
    CLAUDE_LOCAL("claude_local", "host"),
    CODEX_LOCAL("codex_local", "host"),
    LAMBDA("lambda", "off-host"),
    REMOTE("remote", "off-host");

    private final String wireName;
    private final String isolation;

    AdapterType(String wireName, String isolation) {
        this.wireName = wireName;
        this.isolation = isolation;
    }

    /** The name used in JSON and in the database, e.g. {@code claude_sandbox}. */
    public String wireName() {
        return wireName;
    }

    /** Where the agent's code runs: {@code host}, {@code container} or {@code off-host}. */
    public String isolation() {
        return isolation;
    }

    /** The adapter with this wire name, if there is one. */
    public static Optional<AdapterType> fromWire(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(t -> t.wireName.equals(wanted)).findFirst();
    }
}
