/**
 * What every adapter shares about the runs it holds: the {@link io.trimus.adapter.run.Adapter} contract and registry,
 * the table of held runs, the bounded pools they execute on and the per-company shares of those pools
 * ({@link io.trimus.adapter.run.pool.CompanyShares}), start records, secrets and the status reporter.
 */
package io.trimus.adapter.run;
