/**
 * The live feeds over server-sent events: the anomaly ticker and run status signals ({@code /live/…}), and the SSE
 * stream shape every feed shares (heartbeats, a buffer per browser, an end by lifetime or by the caller's re-check).
 * Entry points: {@link io.trimus.admin.rest.live.LiveResource}, {@link io.trimus.admin.rest.live.SseStreams#of}.
 * Imports no other feature.
 */
package io.trimus.admin.rest.live;
