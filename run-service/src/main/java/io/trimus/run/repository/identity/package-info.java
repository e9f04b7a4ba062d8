/**
 * Who may call: user accounts, their memberships of companies, and credentials (API tokens, sessions, setup links,
 * kept as hashes). Entry point: {@link io.trimus.run.repository.identity.CredentialRepository}. Never imports service,
 * rest or messaging.
 */
package io.trimus.run.repository.identity;
