/**
 * Remote runs delegated to A2A peers: the caller ({@link io.trimus.adapter.a2a.A2aCaller}, with its pool and
 * per-company share), one run's exchange with its peer over the A2A SDK's JSON-RPC client, the guarded HTTP client
 * under it (SSRF guard, one destination, byte caps) and the bounds on what a peer sends (task id, artifacts' text).
 */
package io.trimus.adapter.a2a;
