/**
 * Who a request speaks for, the same in every service: the {@link io.trimus.events.auth.Caller} of run-service's
 * {@code GET /api/me}, company roles, the bearer header and the services' own credential. Entry point:
 * {@link io.trimus.events.auth.BearerCredentials#of}. May use {@code secrets} (the key the service credential is
 * derived from); never {@code adapter} or a service.
 */
package io.trimus.events.auth;
