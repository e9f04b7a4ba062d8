package io.trimus.events.adapter;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The {@code adapter_config} of a claude_sandbox, codex_sandbox, claude_local or codex_local agent, validated
 * strictly on write (run-service) and again before anything starts (adapter service). Absent values are null and take
 * the adapter service's defaults.
 *
 * @param cli                        which CLI the agent runs
 * @param sandboxed                  true for the *_sandbox adapters (a container), false for *_local (a host process)
 * @param model                      {@code --model}, or null for the CLI's default
 * @param dangerouslySkipPermissions the agent asks for the CLI's permission bypass; TRIMUS_FORBID_DANGEROUS_CLAUDE_PERMISSIONS
 *                                   may still drop it
 * @param extraArgs                  further flags, each from the CLI's allowlist
 * @param apiKeySecret               the company secret holding the provider key; by default named like the variable
 *                                   ({@code ANTHROPIC_API_KEY} / {@code OPENAI_API_KEY})
 * @param timeoutSec                 wall-clock limit in seconds (≥ 10), or null for the adapter default
 * @param image                      sandbox only: the CLI image, or null for the adapter's default image
 * @param memory                     sandbox only: memory limit as written (e.g. {@code 1g}), or null for
 *                                   TRIMUS_DOCKER_DEFAULT_MEMORY
 * @param cpus                       sandbox only: CPU limit, or null for TRIMUS_DOCKER_DEFAULT_CPUS
 * @param pidsLimit                  sandbox only: process limit, or null for TRIMUS_SANDBOX_PIDS_LIMIT (a sandbox's
 *                                   timeout, pids, memory and cpus stay within {@link ResourceCeilings})
 * @param command                    local only: the binary (basename looked up on PATH, or an absolute path); null
 *                                   for the CLI's name
 * @param user                       sandbox only: {@code uid[:gid]} to run as, or null for the image's non-root USER,
 *                                   else {@link ContainerUser#DEFAULT}; root only where TRIMUS_DOCKER_ALLOW_ROOT allows it
 * @param tmpNoexec                  sandbox only: true mounts {@code /tmp} {@code noexec} (default: exec)
 * @param secretEnv                  sandbox only: variable → company secret ({@link SecretEnv}), set in the sandbox
 * @param runtime                    sandbox only: the OCI runtime ({@code runc}, {@code runsc}), or null for
 *                                   TRIMUS_DOCKER_DEFAULT_RUNTIME ({@link AllowedRuntimes})
 */
public record CliAdapterConfig(AgentCli cli, boolean sandboxed, String model, boolean dangerouslySkipPermissions,
                               List<String> extraArgs, String apiKeySecret, Integer timeoutSec, String image,
                               String memory, Double cpus, Long pidsLimit, String command, String user,
                               boolean tmpNoexec, Map<String, String> secretEnv, String runtime)
        implements AdapterConfig {

    /** Names of company secrets (and so of the variables they may become). */
    public static final Pattern SECRET_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    private static final Set<String> COMMON = Set.of("model", "dangerously_skip_permissions", "extra_args",
            "api_key_secret", "timeout_sec");
    private static final Set<String> SANDBOX_ONLY = Set.of("image", "memory", "cpus", "pids_limit", "user",
            "tmp_noexec", SecretEnv.FIELD, AllowedRuntimes.FIELD);
    private static final Set<String> LOCAL_ONLY = Set.of("command");
    private static final Pattern MODEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/\\[\\]-]{0,99}");
    private static final Pattern COMMAND = Pattern.compile("(/[A-Za-z0-9._+-]+)+|[A-Za-z0-9._+-]{1,255}");
    private static final int MAX_EXTRA_ARGS = 32;
    private static final String PREFIX = ConfigFields.PREFIX;

    /** The secret name holding the provider key: the configured one, else the variable's own name. */
    public String apiKeySecretName() {
        return apiKeySecret != null ? apiKeySecret : cli.apiKeyEnv();
    }

    /**
     * The provider key, sealed as the variable it becomes: required in a sandbox, which has no other credentials;
     * optional on the host, where the CLI may be logged in. Then a sandbox's {@code secret_env}, each required.
     */
    @Override
    public List<SecretNeed> secretNeeds() {
        List<SecretNeed> needs = new ArrayList<>();
        needs.add(new SecretNeed(apiKeySecretName(), cli.apiKeyEnv(), sandboxed, "its " + cli.apiKeyEnv()));
        needs.addAll(SecretEnv.needs(secretEnv));
        return List.copyOf(needs);
    }

    /** Memory limit in bytes, or null when none is set. */
    public Long memoryBytes() {
        return memory == null ? null : MemorySize.parseBytes(memory);
    }

    /**
     * Reads and validates the adapter_config of a CLI agent.
     *
     * @throws AdapterConfigException naming the first field that breaks the contract
     * @throws IllegalArgumentException when {@code type} is not a CLI adapter
     */
    public static CliAdapterConfig parse(AdapterType type, JsonNode config) {
        return parse(type, config, DockerAdapterConfig.MIN_TIMEOUT_SEC);
    }

    /**
     * Reads and validates the adapter_config of a CLI agent, accepting a timeout_sec down to {@code minTimeoutSec}
     * (the adapter service's TRIMUS_DOCKER_MIN_TIMEOUT_SEC; {@link DockerAdapterConfig#MIN_TIMEOUT_SEC} by default).
     *
     * @throws AdapterConfigException naming the first field that breaks the contract
     * @throws IllegalArgumentException when {@code type} is not a CLI adapter
     */
    public static CliAdapterConfig parse(AdapterType type, JsonNode config, int minTimeoutSec) {
        AgentCli cli = AgentCli.of(type);
        if (cli == null) {
            throw new IllegalArgumentException(type.wireName() + " is not a CLI adapter");
        }
        boolean sandboxed = type == AdapterType.CLAUDE_SANDBOX || type == AdapterType.CODEX_SANDBOX;
        Set<String> allowed = new TreeSet<>(COMMON);
        allowed.addAll(sandboxed ? SANDBOX_ONLY : LOCAL_ONLY);
        if (config != null && config.isObject()) {
            for (String other : sandboxed ? LOCAL_ONLY : SANDBOX_ONLY) {
                if (config.has(other)) {
                    throw new AdapterConfigException(PREFIX + other, sandboxed
                            ? "applies to " + cli.binary() + "_local only: a sandbox always runs the image's "
                              + cli.binary()
                            : "applies to " + cli.binary() + "_sandbox only: a host process has no container limits");
                }
            }
        }
        ConfigFields.requireObjectOf(config, allowed, type.wireName());
        return new CliAdapterConfig(cli, sandboxed, model(config.get("model")),
                ConfigFields.bool(config.get("dangerously_skip_permissions"), "dangerously_skip_permissions"),
                extraArgs(cli, config.get("extra_args")), apiKeySecret(config.get("api_key_secret")),
                ConfigFields.timeoutSec(config.get("timeout_sec"), minTimeoutSec), ConfigFields.image(config.get("image")),
                ConfigFields.memory(config.get("memory")), ConfigFields.cpus(config.get("cpus")),
                ConfigFields.pidsLimit(config.get("pids_limit")), command(config.get("command")),
                ContainerUser.parse(config.get("user")), ConfigFields.bool(config.get("tmp_noexec"), "tmp_noexec"),
                SecretEnv.parse(config.get(SecretEnv.FIELD), sandboxOwn(cli), "by Trimus in every "
                        + cli.binary() + " sandbox (" + cli.apiKeyEnv() + " comes from api_key_secret)"),
                AllowedRuntimes.parse(config.get(AllowedRuntimes.FIELD)));
    }

    /** What a sandbox of {@code cli} sets itself: its provider key and {@link SecretEnv#SANDBOX_OWN}. */
    private static Set<String> sandboxOwn(AgentCli cli) {
        Set<String> own = new TreeSet<>(SecretEnv.SANDBOX_OWN);
        own.add(cli.apiKeyEnv());
        return own;
    }

    private static String model(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        if (!node.isTextual() || !MODEL.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "model", "must be a model name such as claude-sonnet-4-5");
        }
        return node.asText();
    }

    private static String apiKeySecret(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        if (!node.isTextual() || !SECRET_NAME.matcher(node.asText()).matches()) {
            throw new AdapterConfigException(PREFIX + "api_key_secret",
                    "must be the name of a company secret (letters, digits and _, not starting with a digit)");
        }
        return node.asText();
    }

    private static String command(JsonNode node) {
        if (ConfigFields.absent(node)) {
            return null;
        }
        String text = node.isTextual() ? node.asText() : "";
        if (!COMMAND.matcher(text).matches() || text.contains("/../") || text.contains("/./")
                || text.equals(".") || text.equals("..")) {
            throw new AdapterConfigException(PREFIX + "command",
                    "must be a binary name such as claude or an absolute path such as /usr/local/bin/claude");
        }
        return text;
    }

    private static List<String> extraArgs(AgentCli cli, JsonNode node) {
        if (ConfigFields.absent(node)) {
            return List.of();
        }
        String field = PREFIX + "extra_args";
        if (!node.isArray() || node.size() > MAX_EXTRA_ARGS) {
            throw new AdapterConfigException(field, "must be an array of at most " + MAX_EXTRA_ARGS + " strings");
        }
        List<String> args = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode arg = node.get(i);
            if (!arg.isTextual()) {
                throw new AdapterConfigException(field, "must be an array of strings");
            }
            String flag = arg.asText();
            if (flag.equals(cli.dangerousFlag())) {
                throw new AdapterConfigException(field, flag + " is set with dangerously_skip_permissions: true,"
                        + " so the operator's guardrail can see it");
            }
            if (cli.extraFlags().contains(flag)) {
                args.add(flag);
                continue;
            }
            String valuePattern = cli.extraOptions().get(flag);
            if (valuePattern == null) {
                throw new AdapterConfigException(field, "'" + flag + "' is not an allowed " + cli.binary()
                        + " flag (allowed: " + String.join(", ", allowedFlags(cli)) + ")");
            }
            JsonNode value = i + 1 < node.size() ? node.get(i + 1) : null;
            if (value == null || !value.isTextual() || !value.asText().matches(valuePattern)) {
                throw new AdapterConfigException(field, flag + " needs a value matching " + valuePattern);
            }
            args.add(flag);
            args.add(value.asText());
            i++;
        }
        return List.copyOf(args);
    }

    private static List<String> allowedFlags(AgentCli cli) {
        Set<String> all = new TreeSet<>(cli.extraFlags());
        all.addAll(cli.extraOptions().keySet());
        return List.copyOf(all);
    }
}
