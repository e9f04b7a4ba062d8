package io.trimus.events.adapter;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * The most a container agent (docker, claude_sandbox, codex_sandbox) may ask for: TRIMUS_DOCKER_MAX_TIMEOUT_SEC,
 * TRIMUS_DOCKER_MAX_PIDS, TRIMUS_DOCKER_MAX_MEMORY and TRIMUS_DOCKER_MAX_CPUS, the operator's choice, never the
 * tenant's. Read by run-service (creating an agent: 400) and the adapter service (dispatching a run: REJECTED, e.g.
 * after the operator lowered a ceiling), which word a refusal the same way: the field, the value asked for, the
 * ceiling and the variable that sets it.
 *
 * @param maxTimeoutSec  longest adapter_config.timeout_sec, in seconds
 * @param maxPids        highest adapter_config.pids_limit
 * @param maxMemory      largest adapter_config.memory, as the operator wrote it (e.g. {@code 4g})
 * @param maxCpus        most adapter_config.cpus
 */
public record ResourceCeilings(int maxTimeoutSec, long maxPids, String maxMemory, double maxCpus) {

    /** Default of TRIMUS_DOCKER_MAX_TIMEOUT_SEC: one hour holds a run slot, then the slot goes to the next run. */
    public static final int DEFAULT_MAX_TIMEOUT_SEC = 3600;
    /** Default of TRIMUS_DOCKER_MAX_PIDS. */
    public static final long DEFAULT_MAX_PIDS = 1024;
    /** Default of TRIMUS_DOCKER_MAX_MEMORY. */
    public static final String DEFAULT_MAX_MEMORY = "4g";
    /** Default of TRIMUS_DOCKER_MAX_CPUS. */
    public static final double DEFAULT_MAX_CPUS = 2.0;

    /** The ceilings when the operator sets none. */
    public static final ResourceCeilings DEFAULTS = new ResourceCeilings(DEFAULT_MAX_TIMEOUT_SEC, DEFAULT_MAX_PIDS,
            DEFAULT_MAX_MEMORY, DEFAULT_MAX_CPUS);

    /** Checks the operator's values; a wrong one stops the service at boot, naming its variable. */
    public ResourceCeilings {
        if (maxTimeoutSec < DockerAdapterConfig.MIN_TIMEOUT_SEC || maxTimeoutSec > DockerAdapterConfig.MAX_TIMEOUT_SEC) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_MAX_TIMEOUT_SEC must be between "
                    + DockerAdapterConfig.MIN_TIMEOUT_SEC + " and " + DockerAdapterConfig.MAX_TIMEOUT_SEC + ", got "
                    + maxTimeoutSec);
        }
        if (maxPids <= 0) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_MAX_PIDS must be greater than 0, got " + maxPids);
        }
        try {
            MemorySize.parseBytes(maxMemory);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_MAX_MEMORY " + e.getMessage() + ", got '" + maxMemory
                    + "'");
        }
        if (!(maxCpus >= 0.01) || maxCpus > 1024) {
            throw new IllegalArgumentException("TRIMUS_DOCKER_MAX_CPUS must be a number of CPUs between 0.01 and 1024,"
                    + " got " + maxCpus);
        }
        maxMemory = maxMemory.trim().toLowerCase(Locale.ROOT);
    }

    /** The memory ceiling in bytes. */
    public long maxMemoryBytes() {
        return MemorySize.parseBytes(maxMemory);
    }

    /**
     * Refuses a container agent that asks for more than a ceiling allows; other adapters (lambda, remote, the host
     * processes) have no container to bound and pass.
     *
     * @throws AdapterConfigException naming the first field above its ceiling
     */
    public void check(AdapterConfig config) {
        if (config instanceof DockerAdapterConfig docker) {
            check(docker.timeoutSec(), docker.pidsLimit(), docker.memory(), docker.cpus());
        } else if (config instanceof CliAdapterConfig cli && cli.sandboxed()) {
            check(cli.timeoutSec(), cli.pidsLimit(), cli.memory(), cli.cpus());
        }
    }

    private void check(Integer timeoutSec, Long pidsLimit, String memory, Double cpus) {
        if (timeoutSec != null && timeoutSec > maxTimeoutSec) {
            throw above("timeout_sec", timeoutSec + " s", maxTimeoutSec + " s", "TRIMUS_DOCKER_MAX_TIMEOUT_SEC");
        }
        if (pidsLimit != null && pidsLimit > maxPids) {
            throw above("pids_limit", String.valueOf(pidsLimit), String.valueOf(maxPids), "TRIMUS_DOCKER_MAX_PIDS");
        }
        if (memory != null && MemorySize.parseBytes(memory) > maxMemoryBytes()) {
            throw above("memory", memory, maxMemory, "TRIMUS_DOCKER_MAX_MEMORY");
        }
        if (cpus != null && cpus > maxCpus) {
            throw above("cpus", number(cpus), number(maxCpus), "TRIMUS_DOCKER_MAX_CPUS");
        }
    }

    /** The one sentence for a value above its ceiling, after the field's name. */
    private static AdapterConfigException above(String field, String asked, String ceiling, String variable) {
        return new AdapterConfigException(ConfigFields.PREFIX + field, "asks for " + asked + ", above this Trimus's"
                + " ceiling of " + ceiling + " (the operator sets " + variable + ")");
    }

    /** {@code 2} for 2.0, {@code 0.5} for 0.5: a number as a person writes it. */
    static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
