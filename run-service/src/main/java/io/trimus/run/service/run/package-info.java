/**
 * A run's life: accepted with its run.requested event (what it must meet and carry), read, cancelled, advanced on
 * status events, refused, ended stale. Entry point: {@link io.trimus.run.service.run.RunService}; status events
 * enter at {@link io.trimus.run.service.run.RunLifecycle}. Never imports rest or messaging.
 */
package io.trimus.run.service.run;
