/**
 * A run in detail ({@code /companies/{id}/runs/{run}}): timeline, outcome, output, the isolation that applied and
 * what it talked to through the egress proxy, in words. Entry point: {@link io.trimus.admin.rest.run.RunResource}.
 * Imports no other feature.
 */
package io.trimus.admin.rest.run;
