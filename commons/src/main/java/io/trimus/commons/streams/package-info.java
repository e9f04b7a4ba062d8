/**
 * The bounds every long-lived answer keeps (server-sent events, A2A streams, blocking waits): the re-check of its
 * caller every {@link io.trimus.commons.streams.StreamLimits#recheck()} ({@link io.trimus.commons.streams.Recheck})
 * and counted places per credential and per company ({@link io.trimus.commons.streams.Places}). Entry point:
 * {@link io.trimus.commons.streams.StreamLeases#take}, used by {@code commons.access.StreamAccess} and the
 * dashboard's live feeds, which say who the caller is. Pure Mutiny: never imports {@code commons.access}, CDI,
 * Vert.x or a service.
 */
package io.trimus.commons.streams;
