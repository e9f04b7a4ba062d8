package io.trimus.egress.api;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.egress.dns.DnsTestClient;
import io.trimus.egress.dns.QueryPolicy;
import io.trimus.egress.dns.Verdict;
import io.trimus.egress.feed.ListenerOptions;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModeCache;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.PolicyCurrency;
import io.trimus.egress.policy.replica.PolicyFeed;
import io.trimus.egress.policy.replica.PolicyLoader;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyTarget;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.testing.OwnerDatabase;
import io.trimus.testing.TcpRelay;
import io.trimus.testing.TrimusInfraResource;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Type;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static io.trimus.egress.api.EgressApi.putAllowlist;
import static io.trimus.egress.api.EgressApi.putPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * Several egress-service replicas enforce one egress policy: a host removed from a company's allowlist, or a switch to
 * enforce, through one replica (this running service, by its API) is enforced by a second replica within 2 s — that
 * replica has its own allowlists, modes and policy connection on the same database, and is asked as its resolver and
 * its proxy ask. A change whose announcement never goes out is still enforced by both within 2 s (the revision check).
 * A replica cut from the database stops deciding by its copy (SERVFAIL, 503 {@code policy_stale}) within
 * TRIMUS_EGRESS_POLICY_STALE_AFTER, and decides by the stored policy again once it reaches the database.
 */
@QuarkusTest
@WithTestResource(value = TrimusInfraResource.class, scope = TestResourceScope.GLOBAL)
class PolicyReplicasTest {
    private static final Logger LOG = Logger.getLogger(PolicyReplicasTest.class);
    private static final Duration PROPAGATION = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(20);
    private static final String SANDBOX_IP = "172.30.0.90";
    private static final Set<Integer> PORTS = Set.of(443, 80);

    @Inject
    Vertx vertx;
    @Inject
    TrimusConfig config;
    @Inject
    AllowlistCache allowlists;
    @Inject
    EgressModes modes;
    @Inject
    PolicyLoader loader;
    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String url;
    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;
    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    private final List<AutoCloseable> opened = new ArrayList<>();

    /** How one replica decides for a sandbox of {@code company}: its resolver's policy and its proxy's. */
    private record Replica(QueryPolicy resolver, ProxyPolicy proxy, PolicyCurrency current) {
        static Replica of(UUID company, AllowlistCache allowlists, EgressModes modes, PolicyCurrency current) {
            SandboxRegistry sandboxes = new SandboxRegistry();
            sandboxes.register(new Sandbox(SANDBOX_IP, company, UUID.randomUUID(), UUID.randomUUID(), "c0ffee"));
            return new Replica(new QueryPolicy(sandboxes, allowlists, modes, current),
                    new ProxyPolicy(sandboxes, allowlists, modes, current, PORTS, Set.of(443)), current);
        }

        /** The resolver's verdict on an A query for {@code name} from the sandbox. */
        Verdict dns(String name) {
            return resolver.decide(SANDBOX_IP, DnsTestClient.query(name, Type.A)).verdict();
        }

        /** The proxy's refusal of a CONNECT to {@code host:443} from the sandbox; null when admitted. */
        ProxyRefusal proxy(String host) {
            return proxy.admit(SANDBOX_IP, new ProxyTarget(host, 443), true).refusal();
        }
    }

    /** This running service, as it decides for a sandbox of {@code company}. */
    private Replica service(UUID company) {
        return Replica.of(company, allowlists, modes, loader);
    }

    /**
     * A second replica with its own allowlists, modes and policy connection on the same database (through
     * {@code link} when given), checking as often and counting as current as long as the service's configuration says.
     */
    private Replica second(UUID company, TcpRelay link) {
        PgConnectOptions database = ListenerOptions.of(url, user, password);
        if (link != null) {
            database.setHost("127.0.0.1").setPort(link.port());
        }
        AllowlistCache lists = new AllowlistCache();
        EgressModeCache modesHere = new EgressModeCache();
        PolicyFeed feed = new PolicyFeed(vertx, database, lists, modesHere, config.egress().policy().checkInterval(),
                config.egress().policy().staleAfter());
        opened.add(feed::stop);
        feed.start(WAIT).await().atMost(WAIT);
        assertThat(feed.isCurrent()).isTrue();
        return Replica.of(company, lists, modesHere, feed);
    }

    /** An await that looks often, so the time it measures is close to the time it took. */
    private static org.awaitility.core.ConditionFactory within(Duration atMost) {
        return await().atMost(atMost).pollInterval(POLL);
    }

    @AfterEach
    void closeReplicas() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
        opened.clear();
    }

    @Test
    void aHostRemovedThroughTheServiceIsDeniedByASecondReplicaWithinTwoSeconds() {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("kept.example.com", "removed.example.com"))).statusCode(200);
        Replica second = second(company, null);
        assertThat(second.dns("removed.example.com")).isEqualTo(Verdict.FORWARD);
        assertThat(second.proxy("removed.example.com")).isNull();

        putAllowlist(company, Map.of("entries", List.of("kept.example.com"))).statusCode(200);
        long changed = System.nanoTime();
        within(PROPAGATION).until(() -> second.dns("removed.example.com") == Verdict.NOT_ALLOWLISTED
                && second.proxy("removed.example.com") == ProxyRefusal.NOT_ALLOWLISTED);
        LOG.infof("a removed host was denied by the second replica %d ms after the PUT answered",
                Duration.ofNanos(System.nanoTime() - changed).toMillis());

        assertThat(second.dns("kept.example.com")).isEqualTo(Verdict.FORWARD);
        assertThat(second.proxy("kept.example.com")).isNull();
        assertThat(second.dns("other.example.com")).isEqualTo(Verdict.NOT_ALLOWLISTED);
    }

    @Test
    void aSwitchToEnforceThroughTheServiceIsEnforcedByASecondReplicaWithinTwoSeconds() {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("listed.example.com"))).statusCode(200);
        putPolicy(company, Map.of("mode", "report")).statusCode(200);
        Replica second = second(company, null);
        assertThat(second.dns("unlisted.example.com")).isEqualTo(Verdict.REPORTED);
        assertThat(second.proxy("unlisted.example.com")).isNull();

        putPolicy(company, Map.of("mode", "enforce")).statusCode(200);
        long changed = System.nanoTime();
        within(PROPAGATION).until(() -> second.dns("unlisted.example.com") == Verdict.NOT_ALLOWLISTED
                && second.proxy("unlisted.example.com") == ProxyRefusal.NOT_ALLOWLISTED);
        LOG.infof("a switch to enforce was enforced by the second replica %d ms after the PUT answered",
                Duration.ofNanos(System.nanoTime() - changed).toMillis());
        assertThat(second.dns("listed.example.com")).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void aChangeWhoseAnnouncementIsLostIsEnforcedByEveryReplicaWithinTwoSeconds() throws Exception {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("kept.example.com", "removed.example.com"))).statusCode(200);
        putPolicy(company, Map.of("mode", "report")).statusCode(200);
        Replica second = second(company, null);
        Replica service = service(company);
        assertThat(second.dns("removed.example.com")).isEqualTo(Verdict.FORWARD);
        assertThat(service.dns("unlisted.example.com")).isEqualTo(Verdict.REPORTED);

        long changed;
        try (Connection owner = OwnerDatabase.connect(); Statement sql = owner.createStatement()) {
            // with ordinary triggers off nothing is announced: only the revision check can find these changes
            sql.execute("set session_replication_role = replica");
            owner.setAutoCommit(false);
            sql.executeUpdate("delete from egress.allowlist_entry where company_id = '" + company
                    + "' and entry = 'removed.example.com'");
            sql.executeUpdate("update egress.allowlist set revision = revision + 1 where company_id = '" + company
                    + "'");
            sql.executeUpdate("update egress.egress_policy set mode = 'enforce', revision = revision + 1"
                    + " where company_id = '" + company + "'");
            owner.commit();
            changed = System.nanoTime();
        }

        for (Replica replica : List.of(second, service)) {
            within(PROPAGATION).until(() -> replica.dns("removed.example.com") == Verdict.NOT_ALLOWLISTED
                    && replica.proxy("removed.example.com") == ProxyRefusal.NOT_ALLOWLISTED
                    && replica.dns("unlisted.example.com") == Verdict.NOT_ALLOWLISTED);
        }
        LOG.infof("an unannounced change was enforced by both replicas %d ms after it committed",
                Duration.ofNanos(System.nanoTime() - changed).toMillis());
        assertThat(service.dns("kept.example.com")).isEqualTo(Verdict.FORWARD);
        assertThat(second.dns("kept.example.com")).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void aReplicaCutFromTheDatabaseRefusesToDecideAndDecidesByTheStoredPolicyOnceItIsBack() throws Exception {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("kept.example.com", "removed.example.com"))).statusCode(200);
        PgConnectOptions direct = ListenerOptions.of(url, user, password);
        TcpRelay link = new TcpRelay("database-link", direct.getPort());
        opened.add(link);
        Replica second = second(company, link);
        assertThat(second.dns("removed.example.com")).isEqualTo(Verdict.FORWARD);

        long cut = System.nanoTime();
        link.cut();
        // the database stays up for this service: the host is removed while the second replica cannot hear of it
        putAllowlist(company, Map.of("entries", List.of("kept.example.com"))).statusCode(200);
        Duration staleAfter = config.egress().policy().staleAfter();
        await().atMost(staleAfter.plusSeconds(2)).until(() -> !second.current().isCurrent());
        LOG.infof("the cut replica stopped deciding %d ms after it was cut",
                Duration.ofNanos(System.nanoTime() - cut).toMillis());
        assertThat(second.dns("removed.example.com")).isEqualTo(Verdict.POLICY_STALE);
        assertThat(second.dns("kept.example.com")).isEqualTo(Verdict.POLICY_STALE);
        assertThat(second.proxy("removed.example.com")).isEqualTo(ProxyRefusal.POLICY_STALE);
        assertThat(service(company).dns("kept.example.com")).as("the service reaches the database")
                .isEqualTo(Verdict.FORWARD);

        link.restore();
        await().atMost(WAIT).until(() -> second.current().isCurrent());
        assertThat(second.dns("removed.example.com")).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(second.proxy("removed.example.com")).isEqualTo(ProxyRefusal.NOT_ALLOWLISTED);
        assertThat(second.dns("kept.example.com")).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void theServiceFollowsChangesAndStaysReadyWhenItsPolicyConnectionIsKilled() throws Exception {
        UUID company = UUID.randomUUID();
        putAllowlist(company, Map.of("entries", List.of("kept.example.com", "removed.example.com"))).statusCode(200);
        Replica service = service(company);
        PolicyFeed feed = loader.feed();
        int killed = feed.listenerProcessId();

        try (Connection owner = OwnerDatabase.connect()) {
            try (PreparedStatement kill = owner.prepareStatement("select pg_terminate_backend(?)")) {
                kill.setInt(1, killed);
                kill.execute();
            }
            try (Statement sql = owner.createStatement()) {
                // as another replica's change, announced while this service may not be listening
                sql.executeUpdate("delete from egress.allowlist_entry where company_id = '" + company
                        + "' and entry = 'removed.example.com'");
                sql.executeUpdate("update egress.allowlist set revision = revision + 1 where company_id = '"
                        + company + "'");
            }
        }

        within(PROPAGATION).until(() -> service.dns("removed.example.com") == Verdict.NOT_ALLOWLISTED);
        await().atMost(WAIT).until(() -> feed.isLive() && feed.listenerProcessId() != killed);
        assertThat(service.dns("kept.example.com")).isEqualTo(Verdict.FORWARD);
        // the status of the whole readiness also depends on Kafka, which another test may be restarting
        RestAssured.given().get("/q/health/ready").then()
                .body("checks.find { it.name == 'egress-policy' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'egress-policy' }.data.current", equalTo(true))
                .body("checks.find { it.name == 'egress-policy' }.data.following_changes", equalTo(true));
        assertThat(modes.mode(company)).isEqualTo(EgressMode.ENFORCE);
    }
}
