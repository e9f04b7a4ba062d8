package io.trimus.adapter.egress;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.DockerClient;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.trimus.adapter.egress.network.EgressNetworkSettings;
import io.trimus.adapter.egress.network.EnsureEgressNetwork;
import io.trimus.adapter.support.Runs;
import io.trimus.commons.net.Cidr;
import io.trimus.adapter.support.EgressStandIn;
import io.trimus.adapter.support.EgressTestResource;
import io.trimus.adapter.support.ProxyStandIn;
import io.trimus.adapter.support.Registrations;
import io.trimus.adapter.support.ResolverStandIn;
import io.trimus.adapter.support.Wiring;
import io.trimus.commons.net.Cidr;
import io.trimus.events.RunRequested;
import io.trimus.testing.DockerClients;
import io.trimus.testing.TrimusInfraResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two adapter processes on one Docker engine each propose sandbox addresses from the same subnet; egress-service (here
 * its stand-in, which holds addresses as egress-service does) decides. Each "process" is its own
 * {@link SandboxAttachment} with its own {@link SandboxAddressPool}, as two JVMs would have. The real egress-service
 * and two real adapter processes are attacked in egress-service's {@code SandboxAttributionEndToEndTest}.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class SharedEngineAddressesTest {

    private static final String NETWORK = "trimus-test-egress-shared";
    private static final String SUBNET = "10.199.85.0/24";

    private final DockerClient docker = DockerClients.local();
    private final ResolverStandIn resolver = ResolverStandIn.start();
    private final ProxyStandIn proxy = ProxyStandIn.start();
    private final EgressStandIn egressService = EgressStandIn.start(docker);
    private final Registrations registrations = Registrations.of(egressService.url());
    private final EnsureEgressNetwork network = Wiring.egressNetwork(docker,
            new EgressNetworkSettings(NETWORK, Cidr.ipv4Subnet(SUBNET), "10.199.85.1", "trimus-shared0",
                    Optional.empty()), "local");

    @BeforeEach
    void networkReady() {
        assertThat(network.attempt().ready()).as(network.status().problem()).isTrue();
    }

    @AfterEach
    void cleanUp() throws Exception {
        egressService.close();
        resolver.close();
        proxy.close();
        EgressTestResource.removeNetwork(docker, NETWORK);
        docker.close();
    }

    @Test
    void twoProcessesClaimingTwentyAddressesAtOnceNeverShareOne() throws Exception {
        SandboxAttachment first = process();
        SandboxAttachment second = process();
        List<RunRequested> runs = new ArrayList<>();
        List<Callable<SandboxNetwork>> claims = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            RunRequested run = run();
            SandboxAttachment process = i % 2 == 0 ? first : second;
            runs.add(run);
            claims.add(() -> process.attach(run, NETWORK));
        }

        List<SandboxNetwork> sandboxes = all(claims);

        Map<String, UUID> holders = new HashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            UUID previous = holders.put(sandboxes.get(i).ipv4Address(), runs.get(i).runId());
            assertThat(previous).as(sandboxes.get(i).ipv4Address() + " handed to two runs").isNull();
        }
        // a run's claims before the address it got were refused: it kept no other address
        for (int i = 0; i < runs.size(); i++) {
            List<Registrations.Request> puts = registrations.putsOf(runs.get(i).runId());
            assertThat(puts.get(puts.size() - 1).ip()).isEqualTo(sandboxes.get(i).ipv4Address());
        }

        for (int i = 0; i < runs.size(); i++) {
            (i % 2 == 0 ? first : second).detach(runs.get(i), sandboxes.get(i));
        }
        assertThat(registrations.all()).filteredOn(r -> r.method().equals("DELETE"))
                .hasSize(20).allSatisfy(delete -> assertThat(delete.runId()).isEqualTo(holders.get(delete.ip())
                        .toString()));
    }

    @Test
    void anAddressAnotherProcessHoldsIsSkipped() throws Exception {
        registrations.holdElsewhere("10.199.85.2");
        registrations.holdElsewhere("10.199.85.3");
        RunRequested run = run();

        SandboxNetwork sandbox = process().attach(run, NETWORK);

        assertThat(sandbox.ipv4Address()).isEqualTo("10.199.85.4");
        assertThat(registrations.putsOf(run.runId())).extracting(Registrations.Request::ip)
                .containsExactly("10.199.85.2", "10.199.85.3", "10.199.85.4");
    }

    /** One adapter process's worth of attachment state. */
    private SandboxAttachment process() {
        return Wiring.attachment(docker, network, new SandboxAddressPool(),
                Wiring.egressService(URI.create(egressService.url()), Duration.ofSeconds(5)),
                Wiring.resolverProbe(Optional.of(resolver.address())), Wiring.proxyProbe(3128, Optional.of(proxy.address())),
                Duration.ZERO);
    }

    private static RunRequested run() {
        return Runs.request(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), "docker",
                new ObjectMapper().createObjectNode(), null, null, Instant.now());
    }

    private static <T> List<T> all(List<Callable<T>> tasks) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<T>> futures = threads.invokeAll(tasks, 60, TimeUnit.SECONDS);
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
