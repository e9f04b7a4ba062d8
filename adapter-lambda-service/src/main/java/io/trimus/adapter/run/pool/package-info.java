/**
 * The bounded pools executors run on and the per-company shares of their slots (TRIMUS_COMPANY_MAX_CONCURRENT_*).
 * Entry point: {@link io.trimus.adapter.run.pool.RunPool}. Imports only the run package; never an executor.
 */
package io.trimus.adapter.run.pool;
