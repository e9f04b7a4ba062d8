/**
 * The lambda adapter: one guarded HTTP call per run. {@link io.trimus.adapter.lambda.LambdaCaller} holds the calls,
 * {@code CallAdmission} bounds them (slots and per-company shares), the dialler judges the endpoint's addresses (SSRF
 * guard) and {@code LambdaExchange} makes the request with its retries, byte cap and deadline.
 */
package io.trimus.adapter.lambda;
