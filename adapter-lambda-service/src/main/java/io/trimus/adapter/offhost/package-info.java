/**
 * What every call that leaves the host for a tenant shares (lambda endpoints, A2A peers): the SSRF guard over the
 * commons address table ({@link io.trimus.adapter.offhost.EndpointAddressPolicy}, with the caller's allow-private
 * knob), the once-per-call resolver ({@link io.trimus.adapter.offhost.HostResolver}) and the bounded HTTP client
 * ({@link io.trimus.adapter.offhost.OffHostHttpClient}). Never imports lambda, a2a or any other adapter: they import it.
 */
package io.trimus.adapter.offhost;
