/**
 * The overview page ({@code /}): runs by status, recent denials, the most denied names and the egress chart, every
 * company's for operators and the caller's own companies' for everyone else. Entry point:
 * {@link io.trimus.admin.rest.overview.OverviewResource}. Its live ticker is {@code rest.live}'s; imports no other
 * feature.
 */
package io.trimus.admin.rest.overview;
