/**
 * Remote runs delegated to A2A peers: the caller ({@link io.trimus.adapter.a2a.A2aCaller}, with its pool and
 * per-company share), one run's exchange with its peer over the A2A SDK's JSON-RPC client, the SDK's guarded HTTP
 * client under it (one destination, the judged address, byte caps) and the bounds on what a peer sends (task id,
 * artifacts' text). The SSRF guard, resolver and HTTP client it shares with lambda come from {@code offhost} (knob
 * TRIMUS_A2A_ALLOW_PRIVATE); never imports {@code lambda}.
 */
package io.trimus.adapter.a2a;
