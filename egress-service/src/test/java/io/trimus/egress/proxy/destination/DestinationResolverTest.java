package io.trimus.egress.proxy.destination;

import io.trimus.egress.dns.AnswerCache;
import io.trimus.egress.dns.TestUpstreamDns;
import io.trimus.egress.dns.UpstreamResolver;
import io.trimus.egress.proxy.OutsideServers;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy asks the upstream once per TTL, not per connection, and still checks every address class on every use:
 * against a real upstream DNS server on loopback that logs what it is asked.
 */
class DestinationResolverTest {
    private static Vertx vertx;
    private static TestUpstreamDns dns;
    private static UpstreamResolver upstream;

    private final AtomicLong now = new AtomicLong(System.nanoTime());

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        dns = new TestUpstreamDns().a("api.example.test", "93.184.216.34", 300)
                .a("metadata.example.test", "169.254.169.254", 300).start();
        upstream = new UpstreamResolver(vertx, new InetSocketAddress("127.0.0.1", dns.port()), Duration.ofSeconds(2), 64);
    }

    @AfterAll
    static void stop() {
        OutsideServers.await(upstream.close());
        dns.close();
        OutsideServers.await(vertx.close());
    }

    @BeforeEach
    void forget() {
        dns.clearQueries();
    }

    @Test
    void aHostIsAskedForOncePerTtlNotOncePerConnection() throws Exception {
        DestinationResolver resolver = new DestinationResolver(upstream, TestDestinations.publicOnly(),
                new AnswerCache(100, Duration.ofMinutes(5), now::get));

        for (int i = 0; i < 5; i++) {
            assertThat(OutsideServers.await(resolver.resolve("api.example.test")).permitted())
                    .containsExactly(InetAddress.getByName("93.184.216.34"));
        }
        assertThat(dns.queriesSeen()).hasSize(2); // A and AAAA, once

        now.addAndGet(Duration.ofSeconds(301).toNanos());
        OutsideServers.await(resolver.resolve("api.example.test"));
        assertThat(dns.queriesSeen()).hasSize(4);
    }

    @Test
    void aCachedAddressIsCheckedAgainOnEveryUse() {
        DestinationResolver resolver = new DestinationResolver(upstream, TestDestinations.publicOnly(),
                new AnswerCache(100, Duration.ofMinutes(5), now::get));

        for (int i = 0; i < 3; i++) {
            DestinationResolver.Destinations found = OutsideServers.await(resolver.resolve("metadata.example.test"));
            assertThat(found.permitted()).isEmpty();
            assertThat(found.resolved()).hasSize(1);
        }
        assertThat(dns.queriesSeen()).hasSize(2);
    }

    @Test
    void withoutACacheEveryConnectionAsks() {
        DestinationResolver resolver = TestDestinations.uncached(upstream, TestDestinations.publicOnly());

        OutsideServers.await(resolver.resolve("api.example.test"));
        OutsideServers.await(resolver.resolve("api.example.test"));

        assertThat(dns.queriesSeen()).hasSize(4);
    }
}
