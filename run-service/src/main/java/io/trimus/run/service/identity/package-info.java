/**
 * Identity: built-in accounts and their sessions, first passwords through setup links, who vouches for an account,
 * members and operators, API tokens, and the answer to "who is this credential". Entry points:
 * {@link io.trimus.run.service.identity.CallerDirectory} (every request),
 * {@link io.trimus.run.service.identity.Sessions} (sign-in). Never imports identity.oidc, rest or messaging.
 */
package io.trimus.run.service.identity;
