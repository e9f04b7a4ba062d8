package io.trimus.adapter.docker;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.trimus.adapter.cli.ClaudeSandboxAdapter;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.run.AdapterRegistry;
import io.trimus.adapter.run.RunSecrets;
import io.trimus.adapter.service.RunDispatcher;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.RunStatusChanged;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * What only the operator decides, enforced again when a run request arrives (it may bypass agent creation, or the
 * agent was stored before the operator changed the rules): the network must be on TRIMUS_DOCKER_ALLOWED_NETWORKS and
 * root needs TRIMUS_DOCKER_ALLOW_ROOT. These runs are REJECTED by the real dispatcher and adapters before anything
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
        DockerEngineSwitch engine = new DockerEngineSwitch(true);
        RunSecrets secrets = new RunSecrets(Optional.empty());
        return new RunDispatcher(new AdapterRegistry(List.of(new DockerAdapter(config, null, null, engine),
                new ClaudeSandboxAdapter(config, null, secrets, engine))), reported::add);
    }

    private static RunRequested run(String adapterType, Map<String, ?> config) {
        return new RunRequested(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(),
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
    void rootPassesOnlyWhereAllowedAndANonRootUserAlways() {
        DockerEngineSwitch engine = new DockerEngineSwitch(true);
        DockerAdapter strict = new DockerAdapter(config(Map.of()), null, null, engine);
        DockerAdapter allowing = new DockerAdapter(config(Map.of("trimus.docker.allow-root", "true")), null, null,
                engine);

        assertThatCode(() -> strict.validate(run("docker", Map.of("image", "busybox", "user", "1000:1000"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> allowing.validate(run("docker", Map.of("image", "busybox", "user", "0"))))
                .doesNotThrowAnyException();
        assertThatCode(() -> strict.validate(run("docker", Map.of("image", "busybox", "network",
                "trimus-egress-allowlist")))).doesNotThrowAnyException();
    }
}
