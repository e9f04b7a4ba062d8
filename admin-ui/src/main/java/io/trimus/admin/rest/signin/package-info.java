/**
 * Signing in and out, the public pages: built-in accounts, an identity provider's code flow, the setup link of a new
 * account, sign-out. Entry point: {@link io.trimus.admin.rest.signin.SignInResource}. Imports no other feature.
 */
package io.trimus.admin.rest.signin;
