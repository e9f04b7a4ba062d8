/**
 * egress-service's HTTP face for people and the dashboard ({@code /api/…}): each resource translates HTTP to a
 * service call and back and holds no rules. Entry points: the {@code *Resource} classes. Never imports dns or the
 * proxy; nothing imports it.
 */
package io.trimus.egress.rest;
