/**
 * What every executor shares about the runs it holds: the {@link io.trimus.adapter.run.Adapter} contract, the
 * table of held runs, start records ({@code RunStarts}), the status reporter ({@code RunReporter}), the output tail,
 * the Trimus context and the hook that reads a run's output into its report ({@code OutputReader}); pools in
 * {@code run.pool}, secrets in {@code run.secrets}. Imports only config: never a stage or an executor.
 */
package io.trimus.adapter.run;
