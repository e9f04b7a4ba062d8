/**
 * Lease: this process's lease on the runs it holds, beaten on {@code trimus.adapter.leases}, and the read-back of
 * that one-partition topic which settles who may start a run. Entry point: {@link io.trimus.adapter.lease.RunLeases}
 * (the {@code run.RunStarts} the executors call). Imports only run and config; never an executor, dispatch or status.
 */
package io.trimus.adapter.lease;
