/**
 * Masked secrets in egress-service: each sandbox's surrogates and values, opened in memory only
 * ({@link io.trimus.egress.masks.MaskedSecrets}), and the pure rules the masking interceptor applies: the swap into a
 * request ({@link io.trimus.egress.masks.MaskSwap}) and back out of its answer ({@link io.trimus.egress.masks.EchoSwap}).
 * Entry point: {@link io.trimus.egress.masks.MaskedSecrets}. Never imports the proxy, dns or rest.
 */
package io.trimus.egress.masks;
