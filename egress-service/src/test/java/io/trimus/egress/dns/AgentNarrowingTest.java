package io.trimus.egress.dns;

import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import io.trimus.events.EgressAnomaly;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The resolver's half of per-agent allowlists (issue 31): an agent with a list of its own resolves only what both its
 * list and its company's allow, the other agents of the company keep the company's list, and a denial the agent's list
 * made is told apart from the company's.
 */
class AgentNarrowingTest {
    private static final UUID COMPANY = UUID.randomUUID();
    private static final UUID NARROWED = UUID.randomUUID();
    private static final UUID PLAIN = UUID.randomUUID();

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final AgentAllowlistCache agentAllowlists = new AgentAllowlistCache();
    private final Map<UUID, EgressMode> modes = new HashMap<>();
    private final QueryPolicy policy = new QueryPolicy(sandboxes, allowlists, agentAllowlists,
            company -> modes.getOrDefault(company, EgressMode.ENFORCE), () -> true);
    private Sandbox narrowed;
    private Sandbox plain;

    @BeforeEach
    void setUp() {
        narrowed = new Sandbox("10.0.0.5", COMPANY, NARROWED, UUID.randomUUID(), "c0ffee");
        plain = new Sandbox("10.0.0.6", COMPANY, PLAIN, UUID.randomUUID(), "beef");
        sandboxes.register(narrowed);
        sandboxes.register(plain);
        allowlists.replace(COMPANY, List.of("a.example.com", "b.example.com"));
        agentAllowlists.replace(COMPANY, NARROWED, List.of("b.example.com", "c.example.com"), 1);
    }

    @Test
    void anAgentWithItsOwnListResolvesOnlyWhatBothListsAllow() {
        assertThat(policy.verdict(narrowed, "b.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
        assertThat(policy.verdict(narrowed, "a.example.com", Type.A)).isEqualTo(Verdict.AGENT_NOT_ALLOWLISTED);
        assertThat(policy.verdict(narrowed, "c.example.com", Type.A))
                .as("an agent entry the company does not allow opens nothing").isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(policy.decide("10.0.0.5", DnsTestClient.query("A.Example.COM.", Type.A)).verdict())
                .isEqualTo(Verdict.AGENT_NOT_ALLOWLISTED);
    }

    @Test
    void anotherAgentOfTheCompanyKeepsTheCompanysList() {
        assertThat(policy.verdict(plain, "a.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
        assertThat(policy.verdict(plain, "b.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
        assertThat(policy.verdict(plain, "c.example.com", Type.A)).isEqualTo(Verdict.NOT_ALLOWLISTED);
    }

    @Test
    void theAgentsDenialIsNxdomainWithAReasonOfItsOwn() {
        Verdict verdict = policy.verdict(narrowed, "a.example.com", Type.A);

        assertThat(verdict.rcode()).isEqualTo(Rcode.NXDOMAIN);
        assertThat(verdict.anomalyReason()).isEqualTo(EgressAnomaly.AGENT_NOT_ALLOWLISTED);
        assertThat(verdict.enforced()).isTrue();
        assertThat(Verdict.NOT_ALLOWLISTED.anomalyReason()).isEqualTo(EgressAnomaly.NOT_ALLOWLISTED);
    }

    @Test
    void aCompanyWideChangeReachesTheAgent() {
        allowlists.replace(COMPANY, List.of("a.example.com"));

        assertThat(policy.verdict(narrowed, "b.example.com", Type.A))
                .as("removed from the company's list: the agent's entry opens nothing").isEqualTo(Verdict.NOT_ALLOWLISTED);

        allowlists.replace(COMPANY, List.of("*.example.com"));

        assertThat(policy.verdict(narrowed, "b.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
        assertThat(policy.verdict(narrowed, "c.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
        assertThat(policy.verdict(narrowed, "a.example.com", Type.A)).isEqualTo(Verdict.AGENT_NOT_ALLOWLISTED);
    }

    @Test
    void anEmptyOwnListDeniesTheAgentEveryNameAndRemovingItRestoresTheCompanys() {
        agentAllowlists.replace(COMPANY, NARROWED, List.of(), 2);
        assertThat(policy.verdict(narrowed, "b.example.com", Type.A)).isEqualTo(Verdict.AGENT_NOT_ALLOWLISTED);

        agentAllowlists.replace(COMPANY, NARROWED, null, 3);
        assertThat(policy.verdict(narrowed, "a.example.com", Type.A)).isEqualTo(Verdict.FORWARD);

        assertThat(agentAllowlists.replace(COMPANY, NARROWED, List.of("b.example.com"), 2))
                .as("an older revision arriving late changes nothing").isFalse();
        assertThat(policy.verdict(narrowed, "a.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void theSameAgentIdUnderAnotherCompanyIsNotNarrowedByThisCompanysEntry() {
        UUID other = UUID.randomUUID();
        Sandbox elsewhere = new Sandbox("10.0.0.7", other, NARROWED, UUID.randomUUID(), "f00d");
        sandboxes.register(elsewhere);
        allowlists.replace(other, List.of("a.example.com"));

        assertThat(policy.verdict(elsewhere, "a.example.com", Type.A)).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void inReportModeTheAgentsDenialIsAnsweredAndReportedNotEnforced() {
        modes.put(COMPANY, EgressMode.REPORT);

        Verdict verdict = policy.verdict(narrowed, "a.example.com", Type.A);

        assertThat(verdict).isEqualTo(Verdict.AGENT_REPORTED);
        assertThat(verdict.answered()).isTrue();
        assertThat(verdict.enforced()).isFalse();
        assertThat(verdict.anomalyReason()).isEqualTo(EgressAnomaly.AGENT_NOT_ALLOWLISTED);
        assertThat(policy.verdict(narrowed, "x.example.org", Type.A)).isEqualTo(Verdict.REPORTED);
    }
}
