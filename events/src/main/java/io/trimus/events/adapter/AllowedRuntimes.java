package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * TRIMUS_DOCKER_RUNTIMES and TRIMUS_DOCKER_DEFAULT_RUNTIME: the OCI runtimes (runc, gVisor's runsc, any other the
 * operator registered with the Docker engine) a container agent may run under, the operator's choice, never the
 * tenant's. Read by run-service (creating an agent: 400 naming {@code adapter_config.runtime}) and the adapter service
 * (dispatching a run: REJECTED), which word a refusal the same way.
 */
public final class AllowedRuntimes {

    /** The runtime Docker ships and Trimus uses when the operator says nothing. */
    public static final String RUNC = "runc";
    /** gVisor's runtime, by the name Trimus registers it under. */
    public static final String RUNSC = "runsc";
    /** The field of a container agent's adapter_config naming its runtime. */
    public static final String FIELD = "runtime";
    /** A runtime's name as the Docker engine registers it. */
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");

    private final List<String> names;
    private final String defaultRuntime;

    /**
     * The operator's list and default.
     *
     * @throws IllegalArgumentException when a listed name is not a runtime name, or the default is not listed
     */
    public AllowedRuntimes(Collection<String> names, String defaultRuntime) {
        Set<String> kept = new LinkedHashSet<>();
        for (String name : names) {
            if (name != null && !name.isBlank()) {
                if (!NAME.matcher(name.trim()).matches()) {
                    throw new IllegalArgumentException("TRIMUS_DOCKER_RUNTIMES: '" + name.trim() + "' is not the"
                            + " name of a runtime (lower-case letters, digits, '.', '_', '-')");
                }
                kept.add(name.trim());
            }
        }
        String chosen = defaultRuntime == null || defaultRuntime.isBlank() ? RUNC : defaultRuntime.trim();
        if (!kept.contains(chosen)) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_DEFAULT_RUNTIME " + chosen + " is not one of"
                    + " TRIMUS_DOCKER_RUNTIMES (" + (kept.isEmpty() ? "none" : String.join(", ", kept)) + ")");
        }
        this.names = List.copyOf(kept);
        this.defaultRuntime = chosen;
    }

    /** The runtimes agents may ask for. */
    public List<String> names() {
        return names;
    }

    /** The runtime of an agent that names none. */
    public String defaultRuntime() {
        return defaultRuntime;
    }

    /**
     * The runtime a run goes under: the agent's, else the default.
     *
     * @throws AdapterConfigException naming {@code adapter_config.runtime} when the operator does not allow it
     */
    public String resolve(String requested) {
        if (requested == null) {
            return defaultRuntime;
        }
        if (!names.contains(requested)) {
            throw new AdapterConfigException(ConfigFields.PREFIX + FIELD, refusal(requested));
        }
        return requested;
    }

    /** The one sentence for a runtime an agent may not use, whether or not the engine has it. */
    public String refusal(String runtime) {
        return "runtime " + runtime + " is not available to agents on this Trimus (allowed: " + String.join(", ", names)
                + "; the operator sets TRIMUS_DOCKER_RUNTIMES)";
    }

    /**
     * Reads {@code adapter_config.runtime}: null when absent, else a runtime's name.
     *
     * @throws AdapterConfigException when it is not text of that shape
     */
    static String parse(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        if (!node.isTextual() || !NAME.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(ConfigFields.PREFIX + FIELD, "must be the name of an OCI runtime such as "
                    + RUNC + " or " + RUNSC);
        }
        return node.asText();
    }
}
