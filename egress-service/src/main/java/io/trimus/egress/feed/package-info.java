/**
 * How every egress-service replica follows what another one stores: PostgreSQL announces each change (a trigger's
 * NOTIFY, in the changing transaction) and a {@link io.trimus.egress.feed.ChangeFeed} per concern LISTENs on a
 * connection of its own, reloads when that connection comes back, and asks its copy every period whether it is still
 * current. Entry point: {@link io.trimus.egress.feed.ReplicaFeed}, the one base of the sandbox registrations' and the
 * egress policy's feeds. Imports no other egress package.
 */
package io.trimus.egress.feed;
