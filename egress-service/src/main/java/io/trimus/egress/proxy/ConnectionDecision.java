package io.trimus.egress.proxy;

import io.trimus.egress.proxy.admission.ProxyPolicy;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyRequestHead;
import io.trimus.egress.proxy.admission.ProxyRequests;
import io.trimus.egress.proxy.admission.ProxyTarget;
import io.trimus.egress.proxy.destination.DestinationDialer.NotDialled;
import io.trimus.egress.proxy.destination.DestinationDialer;
import io.trimus.egress.proxy.intercept.InterceptedTarget;
import io.trimus.egress.proxy.intercept.MaskedRoute;
import io.vertx.core.Future;
import io.vertx.core.net.NetSocket;

import java.net.InetAddress;

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
        ProxyPolicy.Admission admission = parts.policy().admit(facts.sourceIp, target, tunnel);
        facts.sandbox = admission.sandbox();
        facts.host = admission.host();
        if (!admission.admitted()) {
            return admission.refusal();
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
        if (!admission.enforced()) {
            // report mode: the host is not on the list (the company's, or the agent's own), the connection goes on,
            // the admin sees what would have failed
            facts.enforced = false;
            facts.recordAnomaly(parts, admission.reported(), false);
        }
        return null;
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
        InterceptedTarget.Partial intercept = new InterceptedTarget.Partial(facts.sandbox, facts.sourceIp, facts.host,
                facts.port, facts.masks, parts.policy());
        return DestinationDialer.permitted(parts.resolver(), facts.host).compose(permitted -> {
            InterceptedTarget target = intercept.at(permitted.get(0));
            return parts.masking().connect(target, parts.dialer())
                    .map(socket -> new Opened(socket, target.address(), target))
                    .recover(failed -> Future.failedFuture(new NotDialled(ProxyRefusal.MASKING_UNAVAILABLE,
                            target.address())));
        });
    }
}
