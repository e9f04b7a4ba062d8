/**
 * What the dashboard's tests stand in for: run-service and egress-service as small loopback HTTP servers
 * ({@link io.trimus.admin.support.BackendStandIns}) with the answers a test sets.
 */
package io.trimus.admin.support;
