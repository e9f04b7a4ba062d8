package io.trimus.egress.proxy;

import io.trimus.egress.masks.RunMasks;
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
record MaskedRoute(ProxyRefusal refusal, RunMasks masks, boolean intercepting) {
    private static final MaskedRoute UNMASKED = new MaskedRoute(null, null, false);

    /**
     * @param head        the first request of a plain-HTTP or CONNECT connection, null for a steered TLS one
     * @param tlsRequired whether the connection must open with a ClientHello (a TLS port)
     */
    static MaskedRoute of(ProxyServer.Parts parts, String sourceIp, Sandbox sandbox, String host,
                          ProxyRequestHead head, boolean tlsRequired) {
        if (sandbox == null || parts.masked() == null) {
            return UNMASKED;
        }
        if (parts.masked().isWaiting(sourceIp, sandbox.runId())) {
            return new MaskedRoute(ProxyRefusal.MASKS_PENDING, null, false);
        }
        RunMasks masks = parts.masked().of(sourceIp, sandbox.runId()).orElse(null);
        if (masks == null) {
            return UNMASKED;
        }
        boolean plain = head != null && !head.isConnect();
        if (masks.intercepts(host)) {
            if (plain || !tlsRequired) {
                return new MaskedRoute(ProxyRefusal.MASKED_NEEDS_TLS, masks, false);
            }
            if (parts.masking() == null) {
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
