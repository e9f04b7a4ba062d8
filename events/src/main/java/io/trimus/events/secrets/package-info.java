/**
 * The keys and sealing every service agrees on: TRIMUS_ENCRYPTION_KEY and what is derived from it, secrets sealed
 * into {@code run.requested} for one run, masked secrets' surrogates, the remote tasks' MACs and the redaction of
 * output. Entry points: {@link io.trimus.events.secrets.EncryptionKey#parse},
 * {@link io.trimus.events.secrets.DispatchSecrets}. Builds on the event records; never imports {@code adapter},
 * {@code auth} or a service.
 */
package io.trimus.events.secrets;
