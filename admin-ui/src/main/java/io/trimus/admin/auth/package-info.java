/**
 * Who a request speaks for: the door of every page (Origin, the credential through run-service's {@code GET /api/me},
 * CSRF), the session cookie, what the caller may see on a page, the caller of an open live feed kept current, and the
 * code flow of an identity provider. Entry point: {@link io.trimus.admin.auth.AccessGate}. Uses the clients and the
 * error page's view; never imports {@code rest} or {@code messaging}.
 */
package io.trimus.admin.auth;
