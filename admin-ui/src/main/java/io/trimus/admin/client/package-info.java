/**
 * The backends' REST APIs as the dashboard reads and writes them (run-service, egress-service), always as the
 * signed-in caller, and their failures put into sentences a person can act on. Entry point:
 * {@link io.trimus.admin.client.Backends#call}. Knows the request's credential only through
 * {@link io.trimus.admin.client.RequestCredential}: never imports {@code auth}, {@code view}, {@code messaging} or
 * {@code rest}.
 */
package io.trimus.admin.client;
