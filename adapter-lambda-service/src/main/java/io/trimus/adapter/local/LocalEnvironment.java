package io.trimus.adapter.local;

import io.trimus.adapter.run.RunContext;
import io.trimus.events.RunRequested;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The environment of a host-process CLI: the service's own, as the seed documents, minus TRIMUS_LOCAL_ENV_STRIP
 * (exact names, or prefixes ending in {@code *}), plus the run's provider key and Trimus context.
 */
public final class LocalEnvironment {
    private final List<String> strip;

    public LocalEnvironment(List<String> strip) {
        this.strip = strip.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** The child's environment. */
    public Map<String, String> build(Map<String, String> inherited, RunRequested run, Map<String, String> secrets) {
        Map<String, String> env = new TreeMap<>();
        inherited.forEach((name, value) -> {
            if (!stripped(name) && !name.startsWith("TRIMUS_")) {
                env.put(name, value);
            }
        });
        env.putAll(secrets);
        env.putAll(RunContext.env(run));
        return env;
    }

    /** Whether the strip list removes this variable. */
    public boolean stripped(String name) {
        for (String entry : strip) {
            if (entry.endsWith("*") ? name.startsWith(entry.substring(0, entry.length() - 1)) : name.equals(entry)) {
                return true;
            }
        }
        return false;
    }
}
