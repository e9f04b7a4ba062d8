/**
 * Sign-in through an OpenID Connect provider: the ID token verified, its roles claim mapped, the account given
 * exactly the provider's grants and a session. Entry point: {@link io.trimus.run.service.identity.oidc.OidcSignIn}.
 * Never imports rest or messaging.
 */
package io.trimus.run.service.identity.oidc;
