/**
 * How every egress-service replica follows what another one stores: PostgreSQL announces each change (a trigger's
 * NOTIFY, in the changing transaction) and a {@link io.trimus.egress.feed.ChangeFeed} per concern LISTENs on a
 * connection of its own, reloads when that connection comes back, and asks its follower every period whether its
 * in-memory copy is still current. Used by the sandbox registrations and by the egress policy (allowlists, modes).
 */
package io.trimus.egress.feed;
