package io.trimus.egress.proxy.intercept;

import io.trimus.egress.masks.MaskedSecrets;
import io.trimus.egress.masks.RunMasks;
import io.trimus.egress.proxy.admission.ProxyRefusal;
import io.trimus.egress.proxy.admission.ProxyRequestHead;
import io.trimus.egress.proxy.admission.ProxyRequests;
import io.trimus.egress.sandbox.Sandbox;

/**
 * The masked-secret rules of a proxy connection before anything is dialled: a sandbox whose masks this instance has
 * not received waits; a host of a masked secret is reached only through TLS the proxy terminates (a plain request or
 * a tunnel it cannot read there is refused); a plain request elsewhere must not carry a surrogate.
 *
 * @param refusal      null when the connection may go on
 * @param masks        the sandbox's masks, null when it holds none
 * @param intercepting whether the connection goes to the {@link MaskingInterceptor} instead of the host
 */
public record MaskedRoute(ProxyRefusal refusal, RunMasks masks, boolean intercepting) {
    private static final MaskedRoute UNMASKED = new MaskedRoute(null, null, false);

    /**
     * @param masked      the sandboxes' masked secrets, null where they are not served (tests of the plain proxy)
     * @param interceptor whether a {@link MaskingInterceptor} is there to terminate TLS
     * @param head        the first request of a plain-HTTP or CONNECT connection, null for a steered TLS one
     * @param tlsRequired whether the connection must open with a ClientHello (a TLS port)
     */
    public static MaskedRoute of(MaskedSecrets masked, boolean interceptor, String sourceIp, Sandbox sandbox,
                                 String host, ProxyRequestHead head, boolean tlsRequired) {
        if (sandbox == null || masked == null) {
            return UNMASKED;
        }
        if (masked.isWaiting(sourceIp, sandbox.runId())) {
            return new MaskedRoute(ProxyRefusal.MASKS_PENDING, null, false);
        }
        RunMasks masks = masked.of(sourceIp, sandbox.runId()).orElse(null);
        if (masks == null) {
            return UNMASKED;
        }
        boolean plain = head != null && !head.isConnect();
        if (masks.intercepts(host)) {
            if (plain || !tlsRequired) {
                return new MaskedRoute(ProxyRefusal.MASKED_NEEDS_TLS, masks, false);
            }
            if (!interceptor) {
                return new MaskedRoute(ProxyRefusal.MASKING_UNAVAILABLE, masks, false);
            }
            return new MaskedRoute(null, masks, true);
        }
        if (plain && ProxyRequests.carriesSurrogate(host, head, masks)) {
            return new MaskedRoute(ProxyRefusal.MASKED_OUT_OF_SCOPE, masks, false);
        }
        return new MaskedRoute(null, masks, false);
    }
}
