package io.trimus.adapter.docker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.trimus.adapter.cli.ClaudeSandboxAdapter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.dispatch.RunDispatcher;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.secrets.RunSecrets;
import io.trimus.adapter.support.Runs;
import io.trimus.adapter.support.Wiring;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What only the operator decides, enforced again when a run request arrives (it may bypass agent creation, or the
 * agent was stored before the operator changed the rules): the network must be on TRIMUS_DOCKER_ALLOWED_NETWORKS,
 * root needs TRIMUS_DOCKER_ALLOW_ROOT, and timeout, pids, memory and cpus stay within the TRIMUS_DOCKER_MAX_* ceilings. These runs are REJECTED by the real dispatcher and adapters before anything
 * touches an engine: the executor is absent here, so a run that got through would fail this test.
 */
class OperatorChoicesAtDispatchTest {

    private static final String ALLOWED = "adapter_config.network network %s is not available to agents on this"
            + " Trimus (allowed: none, trimus-egress-allowlist; the operator sets TRIMUS_DOCKER_ALLOWED_NETWORKS)";

    private final List<RunStatusChanged> reported = new ArrayList<>();

    private static TrimusConfig config(Map<String, String> values) {
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().addDefaultInterceptors().withMapping(TrimusConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter());
        values.forEach(builder::withDefaultValue);
        return builder.build().getConfigMapping(TrimusConfig.class);
    }

    private RunDispatcher dispatcher(TrimusConfig config) {
        DockerEngineSwitch engine = Wiring.engine(true);
        RunSecrets secrets = Wiring.noSecrets();
        return new RunDispatcher(Wiring.registry(new DockerAdapter(config, null, null, engine, Wiring.noSecrets()),
                new ClaudeSandboxAdapter(config, null, secrets, engine)), reported::add);
    }

    private static RunRequested run(String adapterType, Map<String, ?> config) {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
                adapterType, new ObjectMapper().valueToTree(config), null, "fix the build", Instant.now());
    }

    private RunStatusChanged dispatch(RunDispatcher dispatcher, RunRequested run) {
        dispatcher.dispatch(run);
        return reported.get(reported.size() - 1);
    }

    @Test
    void aNetworkOffTheOperatorsListIsRejectedInOneSentenceWhetherOrNotItExists() {
        RunDispatcher dispatcher = dispatcher(config(Map.of()));

        for (String network : List.of("bridge", "host", "default", "container:4f1c2a9d", "trimus_default",
                "trimus-no-such-network")) {
            RunStatusChanged end = dispatch(dispatcher, run("docker", Map.of("image", "busybox", "network", network)));

            assertThat(end.status()).as(network).isEqualTo(RunState.REJECTED);
            assertThat(end.error()).as(network).isEqualTo(ALLOWED.formatted(network));
        }
    }

    @Test
    void hostBridgeAndAnotherContainersStackAreRefusedEvenWhenListed() {
        RunDispatcher dispatcher = dispatcher(config(Map.of("trimus.docker.allowed-networks",
                "none,bridge,host,default,container:4f1c2a9d,trimus-egress-allowlist")));

        for (String network : List.of("bridge", "host", "default", "container:4f1c2a9d")) {
            RunStatusChanged end = dispatch(dispatcher, run("docker", Map.of("image", "busybox", "network", network)));

            assertThat(end.status()).as(network).isEqualTo(RunState.REJECTED);
            assertThat(end.error()).as(network).isEqualTo(ALLOWED.formatted(network));
        }
    }

    @Test
    void theDefaultListFollowsTheEgressNetworksName() {
        TrimusConfig config = config(Map.of("trimus.egress.network.name", "acme-egress"));

        assertThat(config.docker().allowedNetworks()).containsExactly("none", "acme-egress");
        RunStatusChanged end = dispatch(dispatcher(config),
                run("docker", Map.of("image", "busybox", "network", "trimus-egress-allowlist")));
        assertThat(end.status()).isEqualTo(RunState.REJECTED);
        assertThat(end.error()).contains("(allowed: none, acme-egress;");
    }

    @Test
    void rootIsRejectedUnlessTheOperatorAllowsIt() {
        RunDispatcher dispatcher = dispatcher(config(Map.of()));

        for (String root : List.of("0", "0:0", "0:1000", "000")) {
            RunStatusChanged docker = dispatch(dispatcher, run("docker", Map.of("image", "busybox", "user", root)));
            RunStatusChanged sandbox = dispatch(dispatcher, run("claude_sandbox", Map.of("user", root)));

            for (RunStatusChanged end : List.of(docker, sandbox)) {
                assertThat(end.status()).as(root).isEqualTo(RunState.REJECTED);
                assertThat(end.error()).as(root).startsWith("adapter_config.user asks for root (uid 0), which this"
                        + " Trimus does not allow (TRIMUS_DOCKER_ALLOW_ROOT=false)");
            }
        }
        RunStatusChanged named = dispatch(dispatcher, run("docker", Map.of("image", "busybox", "user", "root")));
        assertThat(named.error()).isEqualTo("adapter_config.user must be a numeric uid or uid:gid such as 1000:1000");
    }

    @Test
    void askingAboveACeilingIsRejectedNamingTheFieldAndTheCeiling() {
        RunDispatcher dispatcher = dispatcher(config(Map.of()));
        Map<String, Object> above = new LinkedHashMap<>();
        above.put("timeout_sec", 3601);
        above.put("pids_limit", 1025);
        above.put("memory", "5g");
        above.put("cpus", 2.5);
        Map<String, String> refusals = Map.of(
                "timeout_sec", "adapter_config.timeout_sec asks for 3601 s, above this Trimus's ceiling of 3600 s"
                        + " (the operator sets TRIMUS_DOCKER_MAX_TIMEOUT_SEC)",
                "pids_limit", "adapter_config.pids_limit asks for 1025, above this Trimus's ceiling of 1024"
                        + " (the operator sets TRIMUS_DOCKER_MAX_PIDS)",
                "memory", "adapter_config.memory asks for 5g, above this Trimus's ceiling of 4g"
                        + " (the operator sets TRIMUS_DOCKER_MAX_MEMORY)",
                "cpus", "adapter_config.cpus asks for 2.5, above this Trimus's ceiling of 2"
                        + " (the operator sets TRIMUS_DOCKER_MAX_CPUS)");

        above.forEach((field, value) -> {
            RunStatusChanged docker = dispatch(dispatcher, run("docker", Map.of("image", "busybox", field, value)));
            RunStatusChanged sandbox = dispatch(dispatcher, run("claude_sandbox", Map.of(field, value)));

            for (RunStatusChanged end : List.of(docker, sandbox)) {
                assertThat(end.status()).as(field).isEqualTo(RunState.REJECTED);
                assertThat(end.error()).as(field).isEqualTo(refusals.get(field));
            }
        });
    }

    @Test
    void anAgentCreatedUnderAHigherCeilingIsRejectedOnceTheOperatorLowersIt() {
        Map<String, Object> agent = Map.of("image", "busybox", "memory", "2g", "cpus", 1.5, "pids_limit", 500,
                "timeout_sec", 1800);
        DockerEngineSwitch engine = Wiring.engine(true);
        assertThatCode(() -> new DockerAdapter(config(Map.of()), null, null, engine, Wiring.noSecrets()).validate(run("docker", agent)))
                .as("within the default ceilings").doesNotThrowAnyException();

        RunDispatcher lowered = dispatcher(config(Map.of("trimus.docker.max-memory", "1g",
                "trimus.docker.default-memory", "512m")));
        RunStatusChanged end = dispatch(lowered, run("docker", agent));

        assertThat(end.status()).isEqualTo(RunState.REJECTED);
        assertThat(end.error()).isEqualTo("adapter_config.memory asks for 2g, above this Trimus's ceiling of 1g"
                + " (the operator sets TRIMUS_DOCKER_MAX_MEMORY)");
        RunStatusChanged timeout = dispatch(dispatcher(config(Map.of("trimus.docker.max-timeout-sec", "900",
                "trimus.docker.default-timeout-sec", "900", "trimus.sandbox.default-timeout-sec", "900"))),
                run("claude_sandbox", Map.of("timeout_sec", 1800)));
        assertThat(timeout.error()).isEqualTo("adapter_config.timeout_sec asks for 1800 s, above this Trimus's"
                + " ceiling of 900 s (the operator sets TRIMUS_DOCKER_MAX_TIMEOUT_SEC)");
    }

    @Test
    void aDefaultAboveALoweredCeilingStopsTheAdapterAtBoot() {
        DockerEngineSwitch engine = Wiring.engine(true);
        assertThatThrownBy(() -> new DockerAdapter(config(Map.of("trimus.docker.max-memory", "512m")), null, null,
                engine, Wiring.noSecrets())).hasMessage("TRIMUS_DOCKER_DEFAULT_MEMORY (1g) is above TRIMUS_DOCKER_MAX_MEMORY (512m);"
                + " lower the default too");
        assertThatThrownBy(() -> new ClaudeSandboxAdapter(config(Map.of("trimus.docker.max-timeout-sec", "1200",
                "trimus.docker.default-timeout-sec", "1200")), null, Wiring.noSecrets(), engine))
                .hasMessage("TRIMUS_SANDBOX_DEFAULT_TIMEOUT_SEC (1800) is above TRIMUS_DOCKER_MAX_TIMEOUT_SEC (1200);"
                        + " lower the default too");
    }

    @Test
    void rootPassesOnlyWhereAllowedAndANonRootUserAlways() {
        DockerEngineSwitch engine = Wiring.engine(true);
        DockerAdapter strict = new DockerAdapter(config(Map.of()), null, null, engine, Wiring.noSecrets());
        DockerAdapter allowing = new DockerAdapter(config(Map.of("trimus.docker.allow-root", "true")), null, null,
                engine, Wiring.noSecrets());

        assertThatCode(() -> strict.validate(run("docker", Map.of("image", "busybox", "user", "1000:1000"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> allowing.validate(run("docker", Map.of("image", "busybox", "user", "0"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> strict.validate(run("docker", Map.of("image", "busybox", "network",
                "trimus-egress-allowlist")))).doesNotThrowAnyException();
    }
}
