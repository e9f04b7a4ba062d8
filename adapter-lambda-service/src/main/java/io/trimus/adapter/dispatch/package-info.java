/**
 * Dispatch: decides what happens to each run request (duplicate, REJECTED, or DISPATCHED to the adapter of its
 * adapter_type), routes cancels, and ends at boot the runs a previous process left behind. Entry point:
 * {@link io.trimus.adapter.dispatch.RunDispatcher#dispatch}. Knows adapters only through the {@code run.Adapter}
 * contract: never imports an executor package, intake, status, worker, lease, egress or engine.
 */
package io.trimus.adapter.dispatch;
