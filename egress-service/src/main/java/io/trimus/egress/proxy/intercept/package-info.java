/**
 * The proxy's third stage, for hosts of masked secrets: TLS terminated with a leaf of the egress CA, the requests
 * inside read strictly and admitted again, each one's surrogates swapped for the real values and every echo swapped
 * back; for hosts with request rules, each request checked against them ({@code RequestRulesGate}); a WebSocket
 * handshake that passes is spliced to the host after its 101 ({@code WebSocketSplice}). Entry point: {@link io.trimus.egress.proxy.intercept.MaskingInterceptor#connect}. Imports only admission and
 * relay of the proxy; never destination or the connection.
 */
package io.trimus.egress.proxy.intercept;
