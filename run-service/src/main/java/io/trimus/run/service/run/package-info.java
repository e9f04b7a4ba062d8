/**
 * A run's life: accepted with its run.requested event (what it must meet and carry), read, cancelled, advanced on
 * status events, refused, ended stale. Entry point: {@link io.trimus.run.service.run.RunService}; status events
 * enter at {@link io.trimus.run.service.run.RunLifecycle}; {@link io.trimus.run.service.run.RunChanges} tells this
 * instance's waiters (A2A streams) that a run may have changed. Never imports rest or messaging.
 */
package io.trimus.run.service.run;
