/**
 * Who may call an endpoint of a REST service, decided once for run-service and egress-service: each endpoint's
 * {@link io.trimus.commons.access.Allowed} level, the caller of the request
 * ({@link io.trimus.commons.access.CurrentCaller}), where it came from for the audit log, and what an open stream holds
 * ({@link io.trimus.commons.access.StreamAccess}). Entry point: {@link io.trimus.commons.access.AccessFilter}. Never
 * imports {@code commons.rows} (which builds on the caller) or a service; who a credential is comes from each
 * service's {@link io.trimus.commons.access.Credentials}.
 */
package io.trimus.commons.access;
