/**
 * The lambda adapter: one guarded HTTP call per run. {@link io.trimus.adapter.lambda.LambdaCaller} holds the calls,
 * {@code CallAdmission} bounds them (slots and per-company shares), {@code EndpointDialler} resolves the endpoint once
 * and has every address judged by the shared SSRF guard ({@code offhost.EndpointAddressPolicy}, knob
 * TRIMUS_LAMBDA_ALLOW_PRIVATE) and {@code LambdaExchange} makes the request with its retries, byte cap and deadline.
 * Imports {@code offhost} for what it shares with A2A; never imports {@code a2a}.
 */
package io.trimus.adapter.lambda;
