/**
 * Egress canaries, the adapter's side: a {@code trimus.egress.canary.requests} record starts a minimal probe sandbox
 * outside the run queue and the run pool (at most two at once), its output is read into checks, and the answer goes
 * out on {@code trimus.egress.canary.results}. Entry point: {@link io.trimus.adapter.canary.CanaryProbes#accept}.
 * Uses the container runtime ({@code container.ProbeRunner}); never imports status, lease recording or an executor.
 */
package io.trimus.adapter.canary;
