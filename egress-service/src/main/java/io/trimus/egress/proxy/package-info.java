/**
 * The egress proxy: the explicit port and the transparent 443 and 80 a sandbox's connections arrive on
 * ({@link io.trimus.egress.proxy.ProxyServer}, one {@link io.trimus.egress.proxy.ProxyConnection} each), the checks
 * before a destination is dialled ({@link io.trimus.egress.proxy.ProxyPolicy}, {@link
 * io.trimus.egress.proxy.DestinationAddressPolicy}), the strict reading of what they carry (request heads and bodies,
 * TLS ClientHellos), and the masking interceptor that terminates TLS for hosts of masked secrets.
 */
package io.trimus.egress.proxy;

import io.trimus.egress.proxy.admission.ProxyPolicy;
