/**
 * Recovery of the runs of adapter processes that stopped renewing their lease, judged only on what has been read of
 * {@code trimus.adapter.leases}. Entry point: {@link io.trimus.run.service.recovery.RunRecovery}. Never imports rest
 * or messaging.
 */
package io.trimus.run.service.recovery;
