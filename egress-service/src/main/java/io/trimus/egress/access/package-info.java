/**
 * Who may call egress-service: a credential is asked of run-service for every request ({@code GET /api/me}), the
 * adapter service's derived service credential is recognised, and {@code /q/metrics} is for operators only.
 * Entry point: {@link io.trimus.egress.access.RunServiceCallers}. Never imports the resolver, the proxy or rest.
 */
package io.trimus.egress.access;
