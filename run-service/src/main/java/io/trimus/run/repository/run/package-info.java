/**
 * Runs and the status events already applied to them. Entry point:
 * {@link io.trimus.run.repository.run.RunRepository}. Never imports service, rest or messaging.
 */
package io.trimus.run.repository.run;
