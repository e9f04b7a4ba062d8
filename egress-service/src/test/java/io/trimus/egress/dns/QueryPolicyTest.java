package io.trimus.egress.dns;

import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class QueryPolicyTest {
    private static final String SANDBOX_IP = "10.0.0.5";
    private static final UUID COMPANY = UUID.randomUUID();
    private static final UUID OTHER_COMPANY = UUID.randomUUID();

    private final SandboxRegistry sandboxes = new SandboxRegistry();
    private final AllowlistCache allowlists = new AllowlistCache();
    private final QueryPolicy policy = new QueryPolicy(sandboxes, allowlists, company -> EgressMode.ENFORCE,
            () -> true);
    private Sandbox sandbox;

    @BeforeEach
    void setUp() {
        sandbox = new Sandbox(SANDBOX_IP, COMPANY, UUID.randomUUID(), UUID.randomUUID(), "c0ffee");
        sandboxes.register(sandbox);
        sandboxes.register(new Sandbox("10.0.0.6", OTHER_COMPANY, UUID.randomUUID(), UUID.randomUUID(), "beef"));
        allowlists.replace(COMPANY, List.of("api.example.com", "*.cdn.example.net", "xn--bcher-kva.example"));
        allowlists.replace(OTHER_COMPANY, List.of("other.example.org"));
    }

    @Test
    void allowListedAddressQuestionIsForwardedWithItsNormalisedName() {
        Decision decision = policy.decide(SANDBOX_IP, DnsTestClient.query("API.Example.COM.", Type.A));

        assertThat(decision.verdict()).isEqualTo(Verdict.FORWARD);
        assertThat(decision.qname()).isEqualTo("api.example.com");
        assertThat(decision.sandbox()).isEqualTo(sandbox);
    }

    @ParameterizedTest
    @ValueSource(ints = {Type.A, Type.AAAA, Type.CNAME})
    void addressAndAliasTypesAreResolvable(int type) {
        assertThat(policy.decide(SANDBOX_IP, DnsTestClient.query("api.example.com", type)).verdict())
                .isEqualTo(Verdict.FORWARD);
    }

    @Test
    void wildcardEntryAllowsSubNamesOnly() {
        assertThat(verdict("a.b.cdn.example.net", Type.A)).isEqualTo(Verdict.FORWARD);
        assertThat(verdict("cdn.example.net", Type.A)).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(verdict("evilcdn.example.net", Type.A)).isEqualTo(Verdict.NOT_ALLOWLISTED);
    }

    @Test
    void punycodeNameMatchesItsIdnEntry() {
        assertThat(verdict("XN--BCHER-KVA.example", Type.AAAA)).isEqualTo(Verdict.FORWARD);
    }

    @Test
    void unlistedNameIsNxdomainWithAnAnomaly() {
        Decision decision = policy.decide(SANDBOX_IP, DnsTestClient.query("exfil.attacker.example", Type.A));

        assertThat(decision.verdict()).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(decision.verdict().rcode()).isEqualTo(org.xbill.DNS.Rcode.NXDOMAIN);
        assertThat(decision.verdict().anomalyReason()).isEqualTo("not_allowlisted");
        assertThat(decision.qname()).isEqualTo("exfil.attacker.example");
        assertThat(decision.qtype()).isEqualTo("A");
    }

    @Test
    void theAdaptersResolverCheckIsAnsweredForAnySourceWithoutAnAnomalyAndNeverForwarded() {
        for (String source : new String[]{SANDBOX_IP, "192.0.2.77"}) {
            for (int type : new int[]{Type.A, Type.TXT}) {
                Decision decision = policy.decide(source, DnsTestClient.query("Resolver-Check.Trimus.Invalid.", type));

                assertThat(decision.verdict()).isEqualTo(Verdict.RESOLVER_CHECK);
                assertThat(decision.verdict().rcode()).isEqualTo(org.xbill.DNS.Rcode.NOERROR);
                assertThat(decision.verdict().anomalyReason()).isNull();
            }
        }
        assertThat(policy.decide("192.0.2.77", DnsTestClient.query("x.resolver-check.trimus.invalid", Type.A))
                .verdict()).as("only the exact name").isEqualTo(Verdict.UNATTRIBUTED_SOURCE);
    }

    @Test
    void anotherCompanysAllowedNameIsNotAllowed() {
        assertThat(verdict("other.example.org", Type.A)).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(policy.decide("10.0.0.6", DnsTestClient.query("other.example.org", Type.A)).verdict())
                .isEqualTo(Verdict.FORWARD);
    }

    @Test
    void labelWithAnEmbeddedDotIsNotMistakenForTwoLabels() throws Exception {
        // One label "api.example" under "com": its presentation form is api\.example.com.
        Name tricky = Name.fromString("api\\.example.com.");
        Message query = new Message(7);
        query.addRecord(Record.newRecord(tricky, Type.A, DClass.IN), Section.QUESTION);

        Decision decision = policy.decide(SANDBOX_IP, query);

        assertThat(decision.verdict()).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(decision.qname()).isEqualTo("api\\.example.com");
    }

    @Test
    void nameThatCannotBeNormalisedIsDeniedWithItsRawForm() throws Exception {
        Message query = new Message(7);
        query.addRecord(Record.newRecord(Name.fromString("bad\\032name.example.com."), Type.A, DClass.IN),
                Section.QUESTION);

        Decision decision = policy.decide(SANDBOX_IP, query);

        assertThat(decision.verdict()).isEqualTo(Verdict.NOT_ALLOWLISTED);
        assertThat(decision.qname()).isEqualTo("bad\\032name.example.com");
    }

    @ParameterizedTest
    @ValueSource(ints = {Type.ANY, Type.TXT, Type.NULL, Type.MX, Type.SRV, Type.PTR, Type.HTTPS, Type.SVCB,
            Type.NS, Type.SOA, Type.AXFR, Type.CAA, 4242})
    void everyOtherQueryTypeIsRefusedEvenForAnAllowedName(int type) {
        Decision decision = policy.decide(SANDBOX_IP, DnsTestClient.query("api.example.com", type));

        assertThat(decision.verdict()).isEqualTo(Verdict.QTYPE_DENIED);
        assertThat(decision.verdict().rcode()).isEqualTo(org.xbill.DNS.Rcode.REFUSED);
        assertThat(decision.verdict().anomalyReason()).isEqualTo("qtype_denied");
        assertThat(decision.qtype()).isEqualTo(Type.string(type));
    }

    @Test
    void unknownSourceIsRefusedWhateverItAsks() {
        Decision decision = policy.decide("10.0.0.99", DnsTestClient.query("api.example.com", Type.A));

        assertThat(decision.verdict()).isEqualTo(Verdict.UNATTRIBUTED_SOURCE);
        assertThat(decision.verdict().rcode()).isEqualTo(org.xbill.DNS.Rcode.REFUSED);
        assertThat(decision.sandbox()).isNull();
        assertThat(policy.decide("10.0.0.99", DnsTestClient.query("x.example", Type.TXT)).verdict())
                .isEqualTo(Verdict.UNATTRIBUTED_SOURCE);
        assertThat(policy.decide("10.0.0.99", new Message(1)).verdict()).isEqualTo(Verdict.UNATTRIBUTED_SOURCE);
    }

    @Test
    void firefoxDohCanaryIsNxdomainWithoutAnomaly() {
        Decision decision = policy.decide(SANDBOX_IP, DnsTestClient.query("Use-Application-DNS.net.", Type.A));

        assertThat(decision.verdict()).isEqualTo(Verdict.DOH_CANARY);
        assertThat(decision.verdict().rcode()).isEqualTo(org.xbill.DNS.Rcode.NXDOMAIN);
        assertThat(decision.verdict().anomalyReason()).isNull();
    }

    @Test
    void queryWithoutQuestionIsFormerr() {
        assertThat(policy.decide(SANDBOX_IP, new Message(3)).verdict()).isEqualTo(Verdict.FORMERR);
    }

    @Test
    void queryWithTwoQuestionsIsFormerr() {
        Message query = DnsTestClient.query("api.example.com", Type.A);
        query.addRecord(Record.newRecord(DnsTestClient.name("other.example.org"), Type.A, DClass.IN),
                Section.QUESTION);

        assertThat(policy.decide(SANDBOX_IP, query).verdict()).isEqualTo(Verdict.FORMERR);
    }

    @ParameterizedTest
    @ValueSource(ints = {Opcode.IQUERY, Opcode.STATUS, Opcode.NOTIFY, Opcode.UPDATE})
    void opcodeOtherThanQueryIsFormerr(int opcode) {
        Message query = DnsTestClient.query("api.example.com", Type.A);
        query.getHeader().setOpcode(opcode);

        assertThat(policy.decide(SANDBOX_IP, query).verdict()).isEqualTo(Verdict.FORMERR);
    }

    @ParameterizedTest
    @ValueSource(ints = {DClass.CH, DClass.HS, DClass.ANY})
    void classOtherThanInternetIsFormerr(int dclass) {
        Message query = new Message(9);
        query.addRecord(Record.newRecord(DnsTestClient.name("api.example.com"), Type.A, dclass), Section.QUESTION);

        assertThat(policy.decide(SANDBOX_IP, query).verdict()).isEqualTo(Verdict.FORMERR);
    }

    @Test
    void rootNameIsDenied() {
        Message query = new Message(9);
        query.addRecord(Record.newRecord(Name.root, Type.A, DClass.IN), Section.QUESTION);

        assertThat(policy.decide(SANDBOX_IP, query).verdict()).isEqualTo(Verdict.NOT_ALLOWLISTED);
    }

    @Test
    void aReplicaThatCannotConfirmItsPolicyDecidesNoNameByItButStillAttributesAndRefuses() {
        QueryPolicy stale = new QueryPolicy(sandboxes, allowlists, company -> EgressMode.REPORT, () -> false);

        for (String name : List.of("api.example.com", "exfil.attacker.example")) {
            Decision decision = stale.decide(SANDBOX_IP, DnsTestClient.query(name, Type.A));
            assertThat(decision.verdict()).as(name).isEqualTo(Verdict.POLICY_STALE);
            assertThat(decision.verdict().rcode()).isEqualTo(org.xbill.DNS.Rcode.SERVFAIL);
            assertThat(decision.verdict().anomalyReason()).isNull();
            assertThat(stale.verdict(sandbox, name, Type.A)).isEqualTo(Verdict.POLICY_STALE);
        }
        assertThat(stale.decide(SANDBOX_IP, DnsTestClient.query("api.example.com", Type.TXT)).verdict())
                .isEqualTo(Verdict.QTYPE_DENIED);
        assertThat(stale.decide("10.0.0.99", DnsTestClient.query("api.example.com", Type.A)).verdict())
                .isEqualTo(Verdict.UNATTRIBUTED_SOURCE);
        assertThat(stale.decide("10.0.0.99", DnsTestClient.query(io.trimus.events.ResolverCheck.NAME, Type.A))
                .verdict()).isEqualTo(Verdict.RESOLVER_CHECK);
    }

    private Verdict verdict(String name, int type) {
        return policy.decide(SANDBOX_IP, DnsTestClient.query(name, type)).verdict();
    }
}
