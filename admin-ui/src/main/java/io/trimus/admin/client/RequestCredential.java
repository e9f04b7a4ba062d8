package io.trimus.admin.client;

/**
 * The credential of the request being served, as the {@code Authorization} value {@link Backends#call} sends on: the
 * dashboard always acts as its caller. Provided by the sign-in check ({@code auth.SignedIn}), so the clients need not
 * know how a caller was recognised.
 */
public interface RequestCredential {
    /** The {@code Authorization} value that presents the caller's own credential to a backend, or null. */
    String authorization();
}
