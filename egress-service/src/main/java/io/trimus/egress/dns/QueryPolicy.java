package io.trimus.egress.dns;

import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.allowlist.DomainNames;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.PolicyCurrency;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The one place that decides what happens to a sandbox's DNS query: deny by default, answer only an A, AAAA or
 * CNAME question for a name the sandbox's company allow-listed, and its agent's own list too when it has one (or any
 * name while the company's egress policy is in report mode, reported), and no name by a policy this replica cannot
 * confirm current. Pure: reads the in-memory
 * registries, never the network, so every rule has a plain unit test.
 */
public final class QueryPolicy {
    /** Firefox asks for this name before it turns DNS-over-HTTPS on by itself; NXDOMAIN keeps it on this resolver. */
    public static final String DOH_CANARY = "use-application-dns.net";

    private static final Name RESOLVER_CHECK = Name.fromConstantString(io.trimus.events.ResolverCheck.NAME);
    private static final String RESOLVER_CHECK_NAME = DomainNames.plainHostName(io.trimus.events.ResolverCheck.NAME);

    private final SandboxRegistry sandboxes;
    private final AllowlistCache allowlists;
    private final AgentAllowlistCache agentAllowlists;
    private final EgressModes modes;
    private final PolicyCurrency current;

    /**
     * @param current whether the replica's copy of {@code allowlists} and {@code modes} is confirmed current; while it
     *                is not, no name of an attributed sandbox is decided by it ({@link Verdict#POLICY_STALE})
     */
    public QueryPolicy(SandboxRegistry sandboxes, AllowlistCache allowlists, EgressModes modes,
                       PolicyCurrency current) {
        this(sandboxes, allowlists, new AgentAllowlistCache(), modes, current);
    }

    /**
     * @param agentAllowlists agents' own lists, each narrowing its company's for the sandboxes of that agent
     * @param current         whether the replica's copy of the lists and {@code modes} is confirmed current
     */
    public QueryPolicy(SandboxRegistry sandboxes, AllowlistCache allowlists, AgentAllowlistCache agentAllowlists,
                       EgressModes modes, PolicyCurrency current) {
        this.sandboxes = sandboxes;
        this.allowlists = allowlists;
        this.agentAllowlists = agentAllowlists;
        this.modes = modes;
        this.current = current;
    }

    /** The sandbox whose packets come from {@code source}, or null. */
    public Sandbox sandboxAt(InetAddress source) {
        return sandboxes.lookup(source);
    }

    /** The decision for a parsed query from {@code sourceIp}. */
    public Decision decide(String sourceIp, Message query) {
        List<Record> questions = query.getSection(Section.QUESTION);
        Record question = questions.isEmpty() ? null : questions.get(0);
        int type = question == null ? -1 : question.getType();
        String qtype = question == null ? "" : Type.string(type);
        Optional<String> normalized = question == null ? Optional.empty() : normalize(question.getName());
        String qname = question == null ? "" : normalized.orElseGet(() -> question.getName().toString(true));

        Sandbox sandbox = sandboxes.lookup(sourceIp).orElse(null);
        if (questions.size() == 1 && question.getName().equals(RESOLVER_CHECK)) {
            return new Decision(Verdict.RESOLVER_CHECK, sandbox, qname, qtype, type);
        }
        if (sandbox == null) {
            return new Decision(Verdict.UNATTRIBUTED_SOURCE, null, qname, qtype, type);
        }
        if (questions.size() != 1 || query.getHeader().getOpcode() != Opcode.QUERY
                || question.getDClass() != DClass.IN) {
            return new Decision(Verdict.FORMERR, sandbox, qname, qtype, type);
        }
        if (normalized.isEmpty()) {
            Verdict verdict = resolvable(type) ? Verdict.NOT_ALLOWLISTED : Verdict.QTYPE_DENIED;
            return new Decision(verdict, sandbox, qname, qtype, type);
        }
        return new Decision(attributed(sandbox, qname, type), sandbox, qname, qtype, type);
    }

    /**
     * The verdict for the one question (class IN, opcode QUERY) of a query whose name is a plain host name, given in
     * its normalised form; the same as {@link #decide} gives that query. Builds nothing: the resolver's in-place
     * path calls it with the name it read from the packet.
     *
     * @param sandbox the sandbox at the query's source, or null
     */
    public Verdict verdict(Sandbox sandbox, CharSequence normalizedName, int type) {
        if (RESOLVER_CHECK_NAME.contentEquals(normalizedName)) {
            return Verdict.RESOLVER_CHECK;
        }
        return sandbox == null ? Verdict.UNATTRIBUTED_SOURCE : attributed(sandbox, normalizedName, type);
    }

    /** The verdict for a well-formed question of an attributed sandbox whose name normalises to {@code name}. */
    private Verdict attributed(Sandbox sandbox, CharSequence name, int type) {
        if (DOH_CANARY.contentEquals(name)) {
            return Verdict.DOH_CANARY;
        }
        if (!resolvable(type)) {
            return Verdict.QTYPE_DENIED;
        }
        if (!current.isCurrent()) {
            return Verdict.POLICY_STALE;
        }
        if (!allowlists.allows(sandbox.companyId(), name)) {
            return modes.mode(sandbox.companyId()) == EgressMode.REPORT ? Verdict.REPORTED : Verdict.NOT_ALLOWLISTED;
        }
        if (!agentAllowlists.allows(sandbox.companyId(), sandbox.agentId(), name)) {
            return modes.mode(sandbox.companyId()) == EgressMode.REPORT ? Verdict.AGENT_REPORTED
                    : Verdict.AGENT_NOT_ALLOWLISTED;
        }
        return Verdict.FORWARD;
    }

    private static boolean resolvable(int type) {
        return type == Type.A || type == Type.AAAA || type == Type.CNAME;
    }

    /**
     * The shared normalisation, and only when it names exactly the queried wire name: the name checked against the
     * allowlist must be the name that goes upstream, whatever escapes dnsjava's presentation form carries.
     */
    private static Optional<String> normalize(Name name) {
        String text = name.toString(true);
        String plain = DomainNames.plainHostName(text);
        if (plain != null) {
            // Letters, digits, '_' and '-' are never escaped: the text is the wire name, nothing to compare.
            return Optional.of(plain);
        }
        return DomainNames.normalize(text)
                .filter(normal -> sameName(normal, name));
    }

    private static boolean sameName(String normalized, Name name) {
        try {
            return Name.fromString(normalized, Name.root).equals(name);
        } catch (org.xbill.DNS.TextParseException e) {
            return false;
        }
    }
}
