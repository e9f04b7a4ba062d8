package io.trimus.egress.proxy;

import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyRequestHead;
import io.trimus.egress.proxy.admission.ProxyRequests;
import io.trimus.egress.proxy.admission.ProxyTarget;
import io.trimus.egress.proxy.admission.RequestDenial;
import io.trimus.egress.proxy.destination.DestinationDialer.NotDialled;
import io.trimus.egress.proxy.destination.DestinationDialer;
import io.trimus.egress.proxy.intercept.InterceptedTarget;
import io.trimus.egress.proxy.intercept.MaskedRoute;
import io.vertx.core.Future;
import io.vertx.core.net.NetSocket;

import java.net.InetAddress;
import java.util.List;

/**
 * Where a proxy connection may go, decided once it said where it asks to go, in the pipeline's order: the policy's
 * admission ({@link ProxyPolicy}), the masked-secret route ({@link MaskedRoute}), the first request's Host; then the
 * way is opened: to the host's first permitted address that accepts ({@link DestinationDialer}), or for a host of a
 * masked secret to the {@link io.trimus.egress.proxy.intercept.MaskingInterceptor}, which goes on to the first
 * permitted address itself. What it learns goes into the connection's {@link ConnectionFacts}.
 */
final class ConnectionDecision {
    private ConnectionDecision() {
    }

    /** The way opened: the socket, the address it reaches, for an intercepted connection what the interceptor knew. */
    record Opened(NetSocket socket, InetAddress address, InterceptedTarget intercepted) {
    }

    /**
     * The checks that need no network, in order; in report mode a host off the allowlist is let through and recorded.
     *
     * @param tunnel whether the connection is a tunnel (a CONNECT, or a steered TLS connection)
     * @param head   the first request of a plain-HTTP or CONNECT connection, null for a steered TLS one
     * @return null when the destination may be dialled, else why not
     */
    static ProxyRefusal admit(ProxyServer.Parts parts, ConnectionFacts facts, ProxyTarget target, boolean tunnel,
                              ProxyRequestHead head) {
        if (head != null) {
            facts.protocol = head.isConnect() ? "CONNECT" : "HTTP";
        }
        facts.host = target.host();
        facts.port = target.port();
        facts.tunnel = tunnel;
        ProxyPolicy.Admission admission = parts.policy().admit(facts.sourceIp, target, tunnel);
        facts.sandbox = admission.sandbox();
        facts.host = admission.host();
        boolean tunnelling = watched(parts, facts, admission.admitted());
        if (!admission.admitted()) {
            return admission.refusal();
        }
        if (tunnelling) {
            return ProxyRefusal.SUSPECTED_TUNNELLING;
        }
        facts.tlsRequired = admission.tlsRequired();
        MaskedRoute route = MaskedRoute.of(parts.masked(), parts.masking() != null, facts.sourceIp, facts.sandbox,
                facts.host, head, facts.tlsRequired);
        facts.masks = route.masks();
        facts.intercepting = route.intercepting();
        if (route.refusal() != null) {
            return route.refusal();
        }
        if (head != null && !head.isConnect() && !ProxyRequests.hostHeaderNames(head, facts.host, facts.port, 80)) {
            return ProxyRefusal.HOST_MISMATCH;
        }
        facts.ruled = !parts.policy().requestRules(facts.sandbox, facts.host, facts.port).isEmpty();
        if (facts.ruled && tunnel && !facts.intercepting) {
            // request rules are checked on the requests: a tunnel to the host must be TLS the proxy terminates, on
            // any port (its first bytes a ClientHello naming the host)
            if (parts.masking() == null) {
                return ProxyRefusal.MASKING_UNAVAILABLE;
            }
            facts.tlsRequired = true;
            facts.intercepting = true;
        }
        if (!admission.enforced()) {
            // report mode: the host is not on the list (the company's, or the agent's own), the connection goes on,
            // the admin sees what would have failed
            facts.enforced = false;
            facts.recordAnomaly(parts, admission.reported(), false);
        }
        return null;
    }

    /**
     * Scores the host the connection asked for (CONNECT target, SNI or Host: the policy made them one name) for
     * tunnelling; true when its base domain is refused to the sandbox. An unattributed source is not scored, and an
     * address policy or a stale policy stops nothing here.
     */
    private static boolean watched(ProxyServer.Parts parts, ConnectionFacts facts, boolean admitted) {
        if (parts.tunnelling() == null || facts.sandbox == null || facts.host == null) {
            return false;
        }
        return parts.tunnelling().observe(facts.sandbox, facts.host,
                facts.protocol == null ? "TLS" : facts.protocol, !admitted, false);
    }

    /**
     * Whether an open connection may stay open under the policy as it is now (it changed since the connection was
     * admitted): null when it may, else why not. A host no longer on a list, a port no longer open, a sandbox no
     * longer registered, a report-mode connection to a host off the list once the company enforces: the refusal a new
     * connection would get. A tunnel carried unchecked to a host that has request rules now:
     * {@link ProxyRefusal#RULES_CHANGED}. A stale policy closes nothing (it refuses new connections only).
     */
    static ProxyRefusal recheck(ProxyServer.Parts parts, ConnectionFacts facts) {
        ProxyPolicy.Admission admission = parts.policy().admit(facts.sourceIp, new ProxyTarget(facts.host, facts.port),
                facts.tunnel);
        if (!admission.admitted()) {
            return admission.refusal() == ProxyRefusal.POLICY_STALE ? null : admission.refusal();
        }
        if (facts.tunnel && !facts.intercepting
                && !parts.policy().requestRules(admission.sandbox(), facts.host, facts.port).isEmpty()) {
            return ProxyRefusal.RULES_CHANGED;
        }
        return null;
    }

    /**
     * Checks a plain-HTTP request to a host with request rules: null when it may go on (no rules, allowed, or let
     * through by report mode, its anomaly recorded), else the denial to answer with (its anomaly recorded).
     */
    static RequestDenial checkRequest(ProxyServer.Parts parts, ConnectionFacts facts, ProxyRequestHead head) {
        // the rules as they are now: a list changed since the connection opened applies to its next request
        RequestDenial denial = RequestDenial.checkAll(parts.policy().requestRules(facts.sandbox, facts.host, facts.port),
                facts.host, facts.port, head.method(), head.originForm());
        if (denial == null) {
            return null;
        }
        boolean enforced = !parts.policy().reportOnly(facts.sandbox);
        parts.anomalies().recordRequest(facts.sandbox, facts.sourceIp, facts.host, facts.protocol, denial.method(),
                denial.path(), enforced);
        return enforced ? denial : null;
    }

    /**
     * Opens the way to the admitted host.
     *
     * @return the way opened, or a failed future holding {@link NotDialled}
     */
    static Future<Opened> dial(ProxyServer.Parts parts, ConnectionFacts facts) {
        if (!facts.intercepting) {
            return DestinationDialer.open(parts.resolver(), parts.dialer(), facts.host, facts.port)
                    .map(dialled -> new Opened(dialled.socket(), dialled.address(), null));
        }
        Future<RunMasks> masks = facts.masks != null ? Future.succeededFuture(facts.masks)
                // a host with request rules, no masked secrets: the sandbox trusts the active egress CA
                : parts.masking().activeCa().map(ca -> new RunMasks(facts.sandbox.runId(), List.of(), ca));
        return masks.recover(failed -> Future.failedFuture(new NotDialled(ProxyRefusal.MASKING_UNAVAILABLE, null)))
                .compose(known -> intercept(parts, facts, known));
    }

    private static Future<Opened> intercept(ProxyServer.Parts parts, ConnectionFacts facts, RunMasks masks) {
        InterceptedTarget.Partial intercept = new InterceptedTarget.Partial(facts.sandbox, facts.sourceIp, facts.host,
                facts.port, masks, parts.policy());
        return DestinationDialer.permitted(parts.resolver(), facts.host).compose(permitted -> {
            InterceptedTarget target = intercept.at(permitted.get(0));
            return parts.masking().connect(target, parts.dialer())
                    .map(socket -> new Opened(socket, target.address(), target))
                    .recover(failed -> Future.failedFuture(new NotDialled(ProxyRefusal.MASKING_UNAVAILABLE,
                            target.address())));
        });
    }
}
