package io.trimus.egress.proxy.admission;

import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.allowlist.AllowlistService;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy's half of per-agent allowlists (issue 31): admission of a sandbox of an agent with a list of its own needs
 * both lists to list the host and open the port; a refusal the agent's list made has a reason of its own.
 */
class AgentNarrowingProxyTest {
    private static final UUID COMPANY = UUID.randomUUID();
    private static final UUID NARROWED = UUID.randomUUID();
    private static final UUID PLAIN = UUID.randomUUID();
    private static final String NARROWED_IP = "10.0.0.5";
    private static final String PLAIN_IP = "10.0.0.6";

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final AgentAllowlistCache agentAllowlists = new AgentAllowlistCache();
    private final Map<UUID, EgressMode> modes = new HashMap<>();
    private final ProxyPolicy policy = new ProxyPolicy(sandboxes, allowlists, agentAllowlists,
            company -> modes.getOrDefault(company, EgressMode.ENFORCE), () -> true, Set.of(80, 443), Set.of(443));

    @BeforeEach
    void setUp() {
        sandboxes.register(new Sandbox(NARROWED_IP, COMPANY, NARROWED, UUID.randomUUID(), "c0ffee"));
        sandboxes.register(new Sandbox(PLAIN_IP, COMPANY, PLAIN, UUID.randomUUID(), "beef"));
        allowlists.replace(COMPANY, List.of("a.example.com", "b.example.com", "git.example.com:22"));
        agentAllowlists.replace(COMPANY, NARROWED, List.of("b.example.com", "c.example.com", "git.example.com"), 1);
    }

    private ProxyRefusal refusal(String ip, String host, int port, boolean tunnel) {
        return policy.admit(ip, new ProxyTarget(host, port), tunnel).refusal();
    }

    @Test
    void anAgentWithItsOwnListReachesOnlyWhatBothListsAllow() {
        assertThat(refusal(NARROWED_IP, "b.example.com", 443, true)).isNull();
        assertThat(refusal(NARROWED_IP, "a.example.com", 443, true)).isEqualTo(ProxyRefusal.AGENT_NOT_ALLOWLISTED);
        assertThat(refusal(NARROWED_IP, "c.example.com", 443, true))
                .as("an agent entry the company does not allow opens nothing").isEqualTo(ProxyRefusal.NOT_ALLOWLISTED);
        assertThat(ProxyRefusal.AGENT_NOT_ALLOWLISTED.reason()).isEqualTo(EgressAnomaly.PROXY_AGENT_NOT_ALLOWLISTED);
        assertThat(ProxyRefusal.AGENT_NOT_ALLOWLISTED.anomaly()).isTrue();
    }

    @Test
    void portsAreNarrowedToo() {
        assertThat(refusal(PLAIN_IP, "git.example.com", 22, true)).isNull();
        assertThat(refusal(NARROWED_IP, "git.example.com", 22, true))
                .as("the agent's port-less entry opens the default ports only").isEqualTo(ProxyRefusal.PORT_DENIED);
        assertThat(refusal(NARROWED_IP, "git.example.com", 443, true))
                .as("the company's git.example.com:22 does not open 443").isEqualTo(ProxyRefusal.PORT_DENIED);

        agentAllowlists.replace(COMPANY, NARROWED, List.of("git.example.com:22"), 2);
        assertThat(refusal(NARROWED_IP, "git.example.com", 22, true)).isNull();
    }

    @Test
    void anotherAgentOfTheCompanyKeepsTheCompanysList() {
        assertThat(refusal(PLAIN_IP, "a.example.com", 443, true)).isNull();
        assertThat(refusal(PLAIN_IP, "c.example.com", 443, true)).isEqualTo(ProxyRefusal.NOT_ALLOWLISTED);
    }

    @Test
    void aCompanyWideChangeReachesTheAgentAtItsNextRequest() {
        allowlists.replace(COMPANY, List.of("a.example.com"));

        assertThat(refusal(NARROWED_IP, "b.example.com", 443, true)).isEqualTo(ProxyRefusal.NOT_ALLOWLISTED);

        agentAllowlists.replace(COMPANY, NARROWED, null, 2);
        assertThat(refusal(NARROWED_IP, "a.example.com", 443, true)).as("own list removed").isNull();
    }

    @Test
    void inReportModeTheAgentsRefusalIsLetThroughAndReportedAsTheAgents() {
        modes.put(COMPANY, EgressMode.REPORT);

        ProxyPolicy.Admission agents = policy.admit(NARROWED_IP, new ProxyTarget("a.example.com", 443), true);
        ProxyPolicy.Admission companys = policy.admit(NARROWED_IP, new ProxyTarget("x.example.org", 443), true);
        ProxyPolicy.Admission allowed = policy.admit(NARROWED_IP, new ProxyTarget("b.example.com", 443), true);

        assertThat(agents.admitted()).isTrue();
        assertThat(agents.enforced()).isFalse();
        assertThat(agents.reported()).isEqualTo(ProxyRefusal.AGENT_NOT_ALLOWLISTED);
        assertThat(companys.reported()).isEqualTo(ProxyRefusal.NOT_ALLOWLISTED);
        assertThat(allowed.enforced()).isTrue();
        assertThat(allowed.reported()).isNull();
    }

    private static List<String> entries(String... json) {
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        List<Object> nodes = new java.util.ArrayList<>();
        for (String entry : json) {
            try {
                nodes.add(mapper.readTree(entry));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException(entry, e);
            }
        }
        return AllowlistService.normaliseAll(nodes);
    }

    private RequestDenial request(String ip, String host, String method, String path) {
        Sandbox sandbox = sandboxes.lookup(ip).orElseThrow();
        return RequestDenial.checkAll(policy.requestRules(sandbox, host, 443), host, 443, method, path);
    }

    @Test
    void aRequestMustPassTheRequestRulesOfBothListsWhereBothHaveRules() {
        allowlists.replace(COMPANY, entries(
                "{\"host\": \"api.github.com\", \"methods\": [\"GET\", \"POST\"], \"paths\": [\"/repos/acme/\"]}",
                "\"plain.example.com\""));
        agentAllowlists.replace(COMPANY, NARROWED, entries(
                "{\"host\": \"api.github.com\", \"methods\": [\"GET\"]}",
                "{\"host\": \"plain.example.com\", \"paths\": [\"/ok/\"]}"), 2);

        assertThat(request(NARROWED_IP, "api.github.com", "GET", "/repos/acme/app")).isNull();
        assertThat(request(NARROWED_IP, "api.github.com", "POST", "/repos/acme/app").reason())
                .as("the company allows POST, the agent's own rules do not")
                .isEqualTo(RequestDenial.METHOD_NOT_ALLOWED);
        assertThat(request(NARROWED_IP, "api.github.com", "GET", "/repos/evil/app").reason())
                .as("the agent allows any path, the company's rules do not")
                .isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        assertThat(request(PLAIN_IP, "api.github.com", "POST", "/repos/acme/app"))
                .as("another agent has the company's rules alone").isNull();

        assertThat(refusal(NARROWED_IP, "plain.example.com", 443, true)).isNull();
        assertThat(policy.requestRules(sandboxes.lookup(NARROWED_IP).orElseThrow(), "plain.example.com", 443))
                .as("the company opens the host without rules, the agent's entry has rules: those apply")
                .hasSize(1);
        assertThat(request(NARROWED_IP, "plain.example.com", "DELETE", "/ok/x")).isNull();
        assertThat(request(NARROWED_IP, "plain.example.com", "GET", "/other").reason())
                .isEqualTo(RequestDenial.PATH_NOT_ALLOWED);
        assertThat(policy.requestRules(sandboxes.lookup(PLAIN_IP).orElseThrow(), "plain.example.com", 443))
                .isEmpty();

        agentAllowlists.replace(COMPANY, NARROWED, entries("\"api.github.com\""), 3);
        assertThat(request(NARROWED_IP, "api.github.com", "POST", "/repos/acme/app"))
                .as("a plain agent entry leaves the company's rules alone in force").isNull();
        assertThat(request(NARROWED_IP, "api.github.com", "DELETE", "/repos/acme/app").reason())
                .isEqualTo(RequestDenial.METHOD_NOT_ALLOWED);
    }
}
