/**
 * Published agents served over A2A: publishing them, their tasks (runs started and cancelled through
 * {@link io.trimus.run.service.run.RunService} exactly as the REST API does), task streams and the run-to-task
 * mapping. Entry point: {@link io.trimus.run.service.a2a.A2aTasks}. Never imports rest or messaging.
 */
package io.trimus.run.service.a2a;
