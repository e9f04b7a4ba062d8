/**
 * Company secrets: write-only values encrypted at rest, granted to agents, masked or plain, sealed into a run or
 * redacted from its output; the keys of run-service. Entry point: {@link io.trimus.run.service.secret.SecretService}.
 * Never imports rest or messaging.
 */
package io.trimus.run.service.secret;
