/**
 * Vert.x contexts for reactive work started off a request (a timer, an open stream's re-check, an A2A task), which
 * Hibernate Reactive and the row scope need. Entry point: {@link io.trimus.commons.context.FreshContext#run}. Imports
 * no other commons package and no service.
 */
package io.trimus.commons.context;
