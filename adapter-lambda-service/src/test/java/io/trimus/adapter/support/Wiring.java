package io.trimus.adapter.support;

import com.github.dockerjava.api.DockerClient;
import io.trimus.adapter.config.TrimusConfig;
import io.trimus.adapter.container.DockerContainerRunner;
import io.trimus.adapter.container.RunExecutor;
import io.trimus.adapter.dispatch.AdapterRegistry;
import io.trimus.adapter.egress.SandboxAddressPool;
import io.trimus.adapter.egress.SandboxAttachment;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.egress.probe.ProxyProbe;
import io.trimus.adapter.egress.probe.ResolverProbe;
import io.trimus.adapter.egress.registry.EgressServiceClient;
import io.trimus.adapter.engine.DockerEngineSwitch;
import io.trimus.adapter.local.LocalProcessRunner;
import io.trimus.adapter.run.Adapter;
import io.trimus.adapter.run.RunReporter;
import io.trimus.adapter.run.RunStarts;
import io.trimus.adapter.run.secrets.DispatchKeys;
import io.trimus.adapter.run.secrets.RunSecrets;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.util.TypeLiteral;

import java.lang.annotation.Annotation;
import java.net.URI;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The service's parts built outside Quarkus, through their one (injected) constructor, from a {@link TestConfig} that
 * says what a test needs: the wiring the main classes used to carry as extra constructors.
 */
public final class Wiring {

    private Wiring() {
    }

    /** Whether this service has a Docker engine (TRIMUS_DOCKER_ENABLED). */
    public static DockerEngineSwitch engine(boolean enabled) {
        return new DockerEngineSwitch(TestConfig.of("trimus.docker.enabled", String.valueOf(enabled)));
    }

    /** A service without TRIMUS_ENCRYPTION_KEY or TRIMUS_DISPATCH_KEY: runs that carry secrets are rejected. */
    public static RunSecrets noSecrets() {
        return new RunSecrets(noKeys());
    }

    public static DispatchKeys noKeys() {
        return new DispatchKeys(TestConfig.of());
    }

    /** egress-service's registry at {@code url}, presenting no service credential (for its stand-ins). */
    public static EgressServiceClient egressService(URI url, Duration timeout) {
        return new EgressServiceClient(TestConfig.of("trimus.egress.service-url", url.toString(),
                "trimus.egress.registration-timeout", timeout.toString()));
    }

    /** As above, presenting the service credential of {@code encryptionKey}. */
    public static EgressServiceClient egressService(URI url, Duration timeout, String encryptionKey) {
        return new EgressServiceClient(TestConfig.of("trimus.egress.service-url", url.toString(),
                "trimus.egress.registration-timeout", timeout.toString(), "trimus.encryption-key", encryptionKey));
    }

    /** A probe of {@code checkAddr}, or of the sandbox's proxy address on {@code port} when empty. */
    public static ProxyProbe proxyProbe(int port, Optional<String> checkAddr) {
        return new ProxyProbe(checkAddr.map(address -> TestConfig.of("trimus.egress.proxy-port", String.valueOf(port),
                        "trimus.egress.proxy-check-addr", address))
                .orElseGet(() -> TestConfig.of("trimus.egress.proxy-port", String.valueOf(port))));
    }

    /** A probe of {@code hostPort}, or of the sandbox's own DNS server on port 53 when empty. */
    public static ResolverProbe resolverProbe(Optional<String> hostPort) {
        return new ResolverProbe(hostPort.map(address -> TestConfig.of("trimus.egress.resolver-check-addr", address))
                .orElseGet(TestConfig::of));
    }

    /** The egress network of {@code settings}, without a scheduler: it is attempted only when the test asks. */
    public static EnsureEgressNetwork egressNetwork(DockerClient docker, EgressNetworkSettings settings, String host) {
        return new EnsureEgressNetwork(docker, egressNetworkConfig(settings, "trimus.docker.host", host), null);
    }

    /**
     * An attachment to {@code network} (allowed networks: {@code none} and it), waiting up to {@code readyTimeout}
     * for egress-service's parts.
     */
    public static SandboxAttachment attachment(DockerClient docker, EnsureEgressNetwork network,
                                               SandboxAddressPool addresses, EgressServiceClient egressService,
                                               ResolverProbe resolverProbe, ProxyProbe proxyProbe,
                                               Duration readyTimeout) {
        return new SandboxAttachment(docker, network, addresses, egressService, resolverProbe, proxyProbe,
                egressNetworkConfig(network.settings(), "trimus.egress.ready-timeout", readyTimeout.toString()));
    }

    /** A runner whose egress network is never ready: a run on trimus-egress-allowlist fails, nothing is created. */
    public static DockerContainerRunner runner(DockerClient docker, RunReporter reporter, String host,
                                               int outputMaxBytes) {
        return runner(docker, reporter, host, outputMaxBytes, false);
    }

    /** As above, with TRIMUS_DOCKER_ALLOW_UNBOUNDED_WRITABLE_LAYER given. */
    public static DockerContainerRunner runner(DockerClient docker, RunReporter reporter, String host,
                                               int outputMaxBytes, boolean allowUnboundedWritableLayer) {
        SandboxAttachment neverReady = attachment(docker,
                egressNetwork(docker, EgressNetworkSettings.defaults(), host), new SandboxAddressPool(),
                egressService(URI.create("http://127.0.0.1:8083"), Duration.ofSeconds(5)),
                resolverProbe(Optional.empty()), proxyProbe(3128, Optional.empty()), Duration.ZERO);
        return runner(docker, reporter, host, outputMaxBytes, neverReady, allowUnboundedWritableLayer);
    }

    /** A runner without a dispatch key (a run with masked secrets is rejected) on {@code attachment}. */
    public static DockerContainerRunner runner(DockerClient docker, RunReporter reporter, String host,
                                               int outputMaxBytes, SandboxAttachment attachment) {
        return runner(docker, reporter, host, outputMaxBytes, attachment, false);
    }

    private static DockerContainerRunner runner(DockerClient docker, RunReporter reporter, String host,
                                                int outputMaxBytes, SandboxAttachment attachment,
                                                boolean allowUnboundedWritableLayer) {
        TrimusConfig config = TestConfig.of("trimus.docker.host", host,
                "trimus.run.output-max-bytes", String.valueOf(outputMaxBytes),
                "trimus.docker.allow-unbounded-writable-layer", String.valueOf(allowUnboundedWritableLayer));
        return new DockerContainerRunner(docker, reporter, config, attachment, noKeys(), engineRuntimes(host));
    }

    /**
     * The runtimes of the engine at {@code host} when it is an engine address ({@code unix://…}, {@code tcp://…}),
     * else (a test's label such as {@code local}) of the local engine, as {@link io.trimus.testing.DockerClients}
     * finds it.
     */
    public static io.trimus.adapter.engine.EngineRuntimes engineRuntimes(String host) {
        String engine = host.contains("://") ? host : com.github.dockerjava.core.DefaultDockerClientConfig
                .createDefaultConfigBuilder().build().getDockerHost().toString();
        return new io.trimus.adapter.engine.EngineRuntimes(engine);
    }

    /** Docker runs on {@code maxConcurrentRuns} slots, {@code companyShare} of them per company. */
    public static RunExecutor executor(DockerContainerRunner runner, RunReporter reporter, RunStarts starts,
                                       int maxConcurrentRuns, int companyShare) {
        return new RunExecutor(runner, reporter, starts, TestConfig.of(
                "trimus.docker.max-concurrent-runs", String.valueOf(maxConcurrentRuns),
                "trimus.company.max-concurrent-runs", String.valueOf(companyShare)));
    }

    /** Host processes on {@code maxConcurrentRuns} slots. */
    public static LocalProcessRunner localRunner(RunReporter reporter, RunStarts starts, int outputMaxBytes,
                                                 Duration killGrace, int maxConcurrentRuns) {
        return new LocalProcessRunner(reporter, starts, TestConfig.of(
                "trimus.run.output-max-bytes", String.valueOf(outputMaxBytes),
                "trimus.local.kill-grace", killGrace.toString(),
                "trimus.local.max-concurrent-runs", String.valueOf(maxConcurrentRuns)));
    }

    private static TrimusConfig egressNetworkConfig(EgressNetworkSettings settings, String... more) {
        String[] network = {"trimus.egress.network.name", settings.name(),
                "trimus.egress.network.subnet", settings.subnet().toString(),
                "trimus.egress.network.gateway", settings.gateway(),
                "trimus.egress.network.bridge-name", settings.bridgeName()};
        String[] all = new String[network.length + more.length + (settings.dnsDefault().isPresent() ? 2 : 0)];
        System.arraycopy(network, 0, all, 0, network.length);
        System.arraycopy(more, 0, all, network.length, more.length);
        settings.dnsDefault().ifPresent(dns -> {
            all[all.length - 2] = "trimus.egress.dns-default";
            all[all.length - 1] = dns;
        });
        return TestConfig.of(all);
    }

    /** The registry of exactly these adapters, built through its injected constructor as CDI would. */
    public static AdapterRegistry registry(Adapter... adapters) {
        return new AdapterRegistry(new Listed<>(List.of(adapters)));
    }

    /** The {@code @Any Instance<T>} CDI hands a constructor, holding these beans; nothing else is resolved. */
    private record Listed<T>(List<T> beans) implements Instance<T> {
        @Override
        public Iterator<T> iterator() {
            return beans.iterator();
        }

        @Override
        public T get() {
            if (beans.size() != 1) {
                throw new IllegalStateException(beans.size() + " beans, not one");
            }
            return beans.get(0);
        }

        @Override
        public Instance<T> select(Annotation... qualifiers) {
            throw new UnsupportedOperationException("not needed by the classes under test");
        }

        @Override
        public <U extends T> Instance<U> select(Class<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException("not needed by the classes under test");
        }

        @Override
        public <U extends T> Instance<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
            throw new UnsupportedOperationException("not needed by the classes under test");
        }

        @Override
        public boolean isUnsatisfied() {
            return beans.isEmpty();
        }

        @Override
        public boolean isAmbiguous() {
            return beans.size() > 1;
        }

        @Override
        public void destroy(T instance) {
            // the test owns its beans
        }

        @Override
        public Handle<T> getHandle() {
            throw new UnsupportedOperationException("not needed by the classes under test");
        }

        @Override
        public Iterable<? extends Handle<T>> handles() {
            throw new UnsupportedOperationException("not needed by the classes under test");
        }
    }
}
