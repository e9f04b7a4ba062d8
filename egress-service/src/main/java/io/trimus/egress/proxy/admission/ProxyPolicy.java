package io.trimus.egress.proxy.admission;

import io.trimus.egress.allowlist.AgentAllowlistCache;
import io.trimus.egress.allowlist.AllowlistCache;
import io.trimus.egress.allowlist.DomainNames;
import io.trimus.egress.allowlist.RuledEntry;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressModes;
import io.trimus.egress.policy.PolicyCurrency;
import io.trimus.egress.sandbox.IpAddresses;
import io.trimus.egress.sandbox.Sandbox;
import io.trimus.egress.sandbox.SandboxRegistry;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The checks of a proxy request that need no network, in their order: the source address is a registered sandbox's,
 * the host is a name, this replica's policy is confirmed current, the host is on that sandbox's company's allowlist
 * and, when the sandbox's agent has a list of its own, on that list too (matched as the resolver matches names; an IP
 * literal never is; in report mode a host off either list is let through, marked not enforced), the port is one the proxy serves (for a CONNECT, one whose TLS it checks). Pure, like the
 * resolver's {@code QueryPolicy}.
 */
public final class ProxyPolicy {
    private final SandboxRegistry sandboxes;
    private final AllowlistCache allowlists;
    private final AgentAllowlistCache agentAllowlists;
    private final EgressModes modes;
    private final PolicyCurrency current;
    private final Set<Integer> ports;
    private final Set<Integer> tlsPorts;

    /**
     * @param ports    destination ports served at all
     * @param tlsPorts ports a CONNECT tunnel may go to (443): a tunnel's first bytes must be a ClientHello naming
     *                 its host, which is checkable only for TLS; a tunnel to port 80 would carry requests for any
     *                 Host unchecked, so plain HTTP goes as absolute-form requests, each one checked
     * @param current  whether the replica's copy of {@code allowlists} and {@code modes} is confirmed current; while
     *                 it is not, no host is admitted by it ({@link ProxyRefusal#POLICY_STALE})
     */
    public ProxyPolicy(SandboxRegistry sandboxes, AllowlistCache allowlists, EgressModes modes,
                       PolicyCurrency current, Set<Integer> ports, Set<Integer> tlsPorts) {
        this(sandboxes, allowlists, new AgentAllowlistCache(), modes, current, ports, tlsPorts);
    }

    /**
     * As the constructor above, with agents' own lists: each narrows its company's for the sandboxes of its agent (a
     * host and port are open when both the company's list and, if it has one, the agent's open them).
     */
    public ProxyPolicy(SandboxRegistry sandboxes, AllowlistCache allowlists, AgentAllowlistCache agentAllowlists,
                       EgressModes modes, PolicyCurrency current, Set<Integer> ports, Set<Integer> tlsPorts) {
        this.sandboxes = sandboxes;
        this.allowlists = allowlists;
        this.agentAllowlists = agentAllowlists;
        this.modes = modes;
        this.current = current;
        this.ports = Set.copyOf(ports);
        this.tlsPorts = Set.copyOf(tlsPorts);
    }

    /**
     * The verdict on a request from {@code sourceIp} for {@code target}.
     *
     * @param sandbox     the sandbox at {@code sourceIp}, null when none is registered there
     * @param host        the normalised host name when admitted, else the host as asked for
     * @param refusal     null when admitted
     * @param reported    for a request admitted only because the company's policy is in report mode, the refusal
     *                    enforce mode would have made: {@link ProxyRefusal#NOT_ALLOWLISTED} (the company's list) or
     *                    {@link ProxyRefusal#AGENT_NOT_ALLOWLISTED} (the agent's own list); null otherwise
     * @param tlsRequired for a tunnel: whether its first bytes must be a ClientHello naming the host (a TLS port);
     *                    false for a port an allowlist entry names ({@code host:22}), whose protocol the proxy cannot
     *                    check, so a ClientHello there is checked but other bytes pass
     */
    public record Admission(Sandbox sandbox, String host, ProxyRefusal refusal, ProxyRefusal reported,
                            boolean tlsRequired) {
        static Admission refused(Sandbox sandbox, String host, ProxyRefusal refusal) {
            return new Admission(sandbox, host, refusal, null, true);
        }

        /** Whether the request may go on to resolution. */
        public boolean admitted() {
            return refusal == null;
        }

        /** False when admitted only because the company's policy is in report mode. */
        public boolean enforced() {
            return reported == null;
        }
    }

    /** The sandbox whose connections come from {@code sourceIp}. */
    public Optional<Sandbox> sandboxAt(String sourceIp) {
        return sandboxes.lookup(sourceIp);
    }

    /**
     * Decides a request (a CONNECT when {@code tunnel}), checking in the documented order. A port is open for a host
     * when it is one of the served ports and a port-less entry lists the host, or an entry {@code host:port} names it;
     * a tunnel goes to a TLS port, or to a port an entry names.
     */
    public Admission admit(String sourceIp, ProxyTarget target, boolean tunnel) {
        Sandbox sandbox = sandboxes.lookup(sourceIp).orElse(null);
        if (sandbox == null) {
            return Admission.refused(null, allowListedName(target.host()).orElse(target.host()),
                    ProxyRefusal.UNATTRIBUTED_SOURCE);
        }
        Optional<String> name = allowListedName(target.host());
        if (name.isEmpty()) {
            return Admission.refused(sandbox, target.host(), ProxyRefusal.NOT_ALLOWLISTED);
        }
        if (!current.isCurrent()) {
            return Admission.refused(sandbox, name.get(), ProxyRefusal.POLICY_STALE);
        }
        UUID company = sandbox.companyId();
        UUID agent = sandbox.agentId();
        boolean report = modes.mode(company) == EgressMode.REPORT;
        boolean companyListed = allowlists.allows(company, name.get());
        if (!companyListed && !report) {
            return Admission.refused(sandbox, name.get(), ProxyRefusal.NOT_ALLOWLISTED);
        }
        // an agent's own list narrows the company's: both must list the host, and open the port
        boolean agentListed = agentAllowlists.allows(company, agent, name.get());
        if (companyListed && !agentListed && !report) {
            return Admission.refused(sandbox, name.get(), ProxyRefusal.AGENT_NOT_ALLOWLISTED);
        }
        boolean listed = companyListed && agentListed;
        int port = target.port();
        boolean open = listed ? allowlists.allowsPort(company, name.get(), port, ports)
                && agentAllowlists.allowsPort(company, agent, name.get(), port, ports) : ports.contains(port);
        boolean named = listed && allowlists.namedPorts(company, name.get()).contains(port)
                && agentAllowlists.namesPort(company, agent, name.get(), port);
        if (!open || tunnel && !tlsPorts.contains(port) && !named) {
            return Admission.refused(sandbox, name.get(), ProxyRefusal.PORT_DENIED);
        }
        ProxyRefusal reported = listed ? null
                : companyListed ? ProxyRefusal.AGENT_NOT_ALLOWLISTED : ProxyRefusal.NOT_ALLOWLISTED;
        return new Admission(sandbox, name.get(), null, reported, tlsPorts.contains(port) || !named);
    }

    /**
     * A later request on a connection admitted for {@code admitted} (normalised host and port), after its caller found
     * it asks for that same host and port: its Host header, if any, must name them too (a Host without a port names
     * {@code hostDefaultPort}), and the host is admitted again, since the allowlist or the sandbox may have changed
     * since. The one re-check the plain proxy and the masking interceptor share.
     *
     * @return null when the request may go on, else why not
     */
    public ProxyRefusal readmit(String sourceIp, ProxyTarget admitted, ProxyRequestHead head, int hostDefaultPort,
                                boolean tunnel) {
        if (!ProxyRequests.hostHeaderNames(head, admitted.host(), admitted.port(), hostDefaultPort)) {
            return ProxyRefusal.HOST_MISMATCH;
        }
        return admit(sourceIp, admitted, tunnel).refusal();
    }

    /**
     * The request rules every request to {@code port} of the admitted, normalised {@code host} must pass, as the lists
     * are now: one item per list that has rules there, the company's first, then the agent's own (an agent's list
     * narrows its company's, so a request must pass both), each item the entries of which the request must pass one
     * ({@link RequestDenial#checkAll}). Empty when neither list has rules there: the host is a plain tunnel.
     */
    public List<List<RuledEntry>> requestRules(Sandbox sandbox, String host, int port) {
        if (sandbox == null) {
            return List.of();
        }
        List<RuledEntry> company = allowlists.requestRules(sandbox.companyId(), host, port, ports);
        List<RuledEntry> agent = agentAllowlists.requestRules(sandbox.companyId(), sandbox.agentId(), host, port,
                ports);
        if (agent.isEmpty()) {
            return company.isEmpty() ? List.of() : List.of(company);
        }
        return company.isEmpty() ? List.of(agent) : List.of(company, agent);
    }

    /**
     * A count that moves whenever anything this policy decides by changes in memory (a company's or an agent's list,
     * a mode, a sandbox registration), on this replica, whether the change was made here or announced by another:
     * the proxy checks its open connections again when it moves.
     */
    public long changes() {
        return allowlists.changes() + agentAllowlists.changes() + modes.changes() + sandboxes.changes();
    }

    /** Whether the sandbox's company is in report mode: a refused request is let through and recorded. */
    public boolean reportOnly(Sandbox sandbox) {
        return sandbox != null && modes.mode(sandbox.companyId()) == EgressMode.REPORT;
    }

    /**
     * Whether {@code asked} (a TLS SNI, a later request's Host) names the host a connection was admitted for, after
     * the same normalisation.
     */
    public static boolean sameHost(String admittedHost, String asked) {
        return asked != null && allowListedName(asked).map(admittedHost::equals).orElse(false);
    }

    /** The normalised name, or empty for an IP literal or anything that is not a host name. */
    private static Optional<String> allowListedName(String host) {
        if (IpAddresses.canonical(host).isPresent()) {
            return Optional.empty();
        }
        return DomainNames.normalize(host)
                .filter(name -> IpAddresses.canonical(name).isEmpty());
    }
}
