package io.trimus.run.service.identity.oidc;

/** A person as a verified ID token names them: the issuer, its subject, the email and what the provider grants. */
public record ProviderIdentity(String issuer, String subject, String email, Grants grants) {
}
