/**
 * The dashboard's hourly egress chart: allowed connections and denials per UTC hour, bucketed by PostgreSQL. Entry
 * point: {@link io.trimus.egress.chart.HourlyEgressService}. Imports no other egress package.
 */
package io.trimus.egress.chart;
