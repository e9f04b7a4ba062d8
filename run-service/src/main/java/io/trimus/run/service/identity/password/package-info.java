/**
 * Passwords of built-in accounts: bcrypt, its fair share of worker threads per source, and the throttle of failed
 * sign-ins per email. Entry point: {@link io.trimus.run.service.identity.password.PasswordChecks}. Never imports the
 * rest of identity, rest or messaging.
 */
package io.trimus.run.service.identity.password;
