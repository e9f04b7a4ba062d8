package io.trimus.admin.auth;

import io.trimus.admin.client.RequestCredential;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.events.auth.Caller;
import jakarta.enterprise.context.RequestScoped;

/**
 * Who the current request speaks for: the credential it presented (the session cookie or a bearer token) and the
 * {@link Caller} run-service said it is ({@code GET /api/me}, asked once per request by {@link AccessGate}). Empty on
 * the public pages (sign-in, setup).
 */
@RequestScoped
public class SignedIn implements RequestCredential {
    private Presented credential;
    private Caller caller;

    void set(Presented credential, Caller caller) {
        this.credential = credential;
        this.caller = caller;
    }

    /** Whether a caller has been recognised. */
    public boolean present() {
        return caller != null;
    }

    /** The recognised caller; fails on a public page (a bug there, not the visitor's fault). */
    public Caller caller() {
        if (caller == null) {
            throw new IllegalStateException("no signed-in caller on this request");
        }
        return caller;
    }

    /** The {@code Authorization} value that presents the caller's own credential to a backend, or null. */
    @Override
    public String authorization() {
        return credential == null ? null : BearerCredentials.header(credential.secret());
    }

    /** The CSRF token forms of this session carry; empty for bearer callers, who need none. */
    public String csrfToken() {
        return credential == null || !credential.fromCookie() ? "" : CsrfTokens.of(credential.secret());
    }
}
