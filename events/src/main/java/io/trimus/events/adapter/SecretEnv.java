package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import io.trimus.events.EgressCa;

import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code secret_env} of a docker or *_sandbox agent: company secrets that become environment variables of its
 * container, {@code {"VAR": "SECRET_NAME"}}. Plain: the container sees the real value, sealed in the run request like
 * the provider key and masked in what the run reports. A variable Trimus sets itself cannot be one of them.
 */
public final class SecretEnv {
    /** Most variables one agent may take from company secrets. */
    public static final int MAX_ENTRIES = 32;
    /** The field's name in an adapter_config. */
    public static final String FIELD = "secret_env";
    /** Set in every sandbox by the adapter, so a secret of that name would be overwritten. */
    public static final List<String> SANDBOX_OWN = List.of("HOME", "IS_SANDBOX", "NODE_USE_ENV_PROXY",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING",
            "DISABLE_AUTOUPDATER", "CODEX_HOME");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final String PREFIX = ConfigFields.PREFIX + FIELD;

    private SecretEnv() {
    }

    /**
     * Reads {@code secret_env}: variable → secret name, in the order written; empty when absent.
     *
     * @param taken variables the agent's config or Trimus already sets for this adapter (compared exactly)
     * @throws AdapterConfigException naming {@code adapter_config.secret_env[.VAR]}
     */
    static Map<String, String> parse(JsonNode node, Collection<String> taken, String takenBy) {
        if (ConfigFields.absent(node)) {
            return Map.of();
        }
        if (!node.isObject() || node.size() > MAX_ENTRIES) {
            throw new AdapterConfigException(PREFIX, "must be an object of at most " + MAX_ENTRIES
                    + " variables, each naming a company secret: {\"GH_TOKEN\": \"GITHUB_TOKEN\"}");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String var = e.getKey();
            String field = PREFIX + "." + ConfigFields.key(var);
            if (!ENV_NAME.matcher(var).matches()) {
                throw new AdapterConfigException(field, "is not a valid environment variable name");
            }
            if (var.startsWith("TRIMUS_") || EgressProxyEnv.reserved(var) || EgressCa.reserved(var)) {
                throw new AdapterConfigException(field, "is set by Trimus itself (TRIMUS_*, the egress proxy"
                        + " settings and the egress CA files)");
            }
            if (taken.contains(var)) {
                throw new AdapterConfigException(field, "is already set " + takenBy);
            }
            JsonNode secret = e.getValue();
            if (!secret.isTextual() || !CliAdapterConfig.SECRET_NAME.matcher(secret.asText()).matches()) {
                throw new AdapterConfigException(field, "must be the name of a company secret (letters, digits and _,"
                        + " not starting with a digit)");
            }
            env.put(var, secret.asText());
        }
        return Collections.unmodifiableMap(env);
    }

    /** One required {@link SecretNeed} per variable, sealed as the variable. */
    static List<SecretNeed> needs(Map<String, String> secretEnv) {
        return secretEnv.entrySet().stream().map(e -> new SecretNeed(e.getValue(), e.getKey(), true,
                "its adapter_config." + FIELD + "." + e.getKey())).toList();
    }
}
