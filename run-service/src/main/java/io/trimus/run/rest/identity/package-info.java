/**
 * HTTP of identity: sessions and setup, accounts, members, operators, API tokens and {@code GET /api/me} (which the
 * other services ask). Entry point: {@link io.trimus.run.rest.identity.SessionResource}. Never imports messaging or a
 * repository.
 */
package io.trimus.run.rest.identity;
