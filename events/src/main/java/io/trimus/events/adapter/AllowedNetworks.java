package io.trimus.events.adapter;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * TRIMUS_DOCKER_ALLOWED_NETWORKS: the Docker networks a docker agent may join, the operator's choice, never the
 * tenant's. Read by run-service (creating an agent: 400) and the adapter service (dispatching a run: REJECTED), which
 * word a refusal the same way, whether or not the network exists.
 *
 * <p>{@code host}, {@code bridge} (Docker's default network, shared with every container started without one),
 * {@code default} and {@code container:<id>} (another container's network stack) are refused even when listed: no
 * list can make them safe.
 */
public final class AllowedNetworks {

    /** Networks no agent may join, whatever the list says. */
    public static final Set<String> NEVER = Set.of("host", "bridge", "default");

    private final List<String> names;

    /** The operator's list; blank entries are ignored, duplicates kept once. */
    public AllowedNetworks(Collection<String> names) {
        Set<String> kept = new LinkedHashSet<>();
        for (String name : names) {
            if (name != null && !name.isBlank()) {
                kept.add(name.trim());
            }
        }
        this.names = List.copyOf(kept);
    }

    /** The list as the operator wrote it (trimmed), the never-allowed names included. */
    public List<String> names() {
        return names;
    }

    /** The names an agent can really use: the list without the never-allowed ones. */
    public List<String> usable() {
        return names.stream().filter(n -> !never(n)).toList();
    }

    /** Whether no list can make {@code network} usable. */
    public static boolean never(String network) {
        return NEVER.contains(network) || network.startsWith("container:");
    }

    /** Whether an agent may ask for {@code network}: listed by the operator, and not one of the never-allowed ones. */
    public boolean allows(String network) {
        return network != null && !never(network) && names.contains(network);
    }

    /**
     * Refuses a network the agent may not use.
     *
     * @throws AdapterConfigException naming {@code adapter_config.network}, with {@link #refusal(String)}
     */
    public void check(String network) {
        if (!allows(network)) {
            throw new AdapterConfigException(ConfigFields.PREFIX + "network", refusal(network));
        }
    }

    /**
     * Refuses the network a docker adapter_config asks for ({@code none} when it names none), before the rest of it
     * is read: a tenant gets this one sentence for {@code bridge} or {@code container:<id>} as for any unlisted name.
     * A {@code network} that is not text is left to {@link DockerAdapterConfig#parse}.
     */
    public void checkDocker(com.fasterxml.jackson.databind.JsonNode config) {
        if (config == null || !config.isObject()) {
            return;
        }
        var node = config.get("network");
        if (ConfigFields.absent(node)) {
            check(DockerAdapterConfig.NETWORK_NONE);
        } else if (node.isTextual()) {
            check(node.asText());
        }
    }

    /**
     * The one sentence for a network an agent may not use: the same for one that does not exist, so an error never
     * tells a tenant which networks are there.
     */
    public String refusal(String network) {
        List<String> usable = usable();
        return "network " + network + " is not available to agents on this Trimus (allowed: "
                + (usable.isEmpty() ? "none configured" : String.join(", ", usable))
                + "; the operator sets TRIMUS_DOCKER_ALLOWED_NETWORKS)";
    }
}
