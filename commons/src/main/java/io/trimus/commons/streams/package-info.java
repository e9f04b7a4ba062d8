/**
 * The bounds every long-lived answer keeps (server-sent events, A2A streams, blocking waits): the re-check of its
 * caller every {@link StreamLimits#recheck()} ({@link Recheck}) and counted places per credential and per company
 * ({@link Places}). Pure Mutiny; who the caller is comes from each service ({@code commons.access.StreamAccess},
 * the dashboard's own LiveCallers).
 */
package io.trimus.commons.streams;
