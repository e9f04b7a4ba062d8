/**
 * The proxy's third stage, for hosts of masked secrets and hosts with request rules: TLS terminated with a leaf of
 * the egress CA, the requests inside read strictly and admitted again, each checked against the host's request rules
 * ({@code RequestRulesGate}), its surrogates swapped for the real values and every echo swapped back; a WebSocket
 * handshake that passes is spliced to the host after its 101 ({@code WebSocketSplice}). Entry point:
 * {@link io.trimus.egress.proxy.intercept.MaskingInterceptor#connect}. Imports only admission and relay of the proxy;
 * never destination or the connection.
 */
package io.trimus.egress.proxy.intercept;
