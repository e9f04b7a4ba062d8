/**
 * Company secrets (encrypted values, masks) and their grants to agents. Entry point:
 * {@link io.trimus.run.repository.secret.CompanySecretRepository}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository.secret;
