/**
 * The access walk every service's access test runs: the endpoints a service declares
 * ({@link io.trimus.testing.access.DeclaredEndpoints}), each called by every kind of caller
 * ({@link io.trimus.testing.access.Caller}), the outcome checked against the service's access table
 * as docs/access.md promises it ({@link io.trimus.testing.access.AccessTable}). Entry point:
 * {@link io.trimus.testing.access.AccessWalk}. Never imports a service's code.
 */
package io.trimus.testing.access;
