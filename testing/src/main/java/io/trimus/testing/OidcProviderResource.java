package io.trimus.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * The {@link OidcProvider} for a service under test: started once per test run and published as the service's
 * {@code trimus.oidc.*} settings that run-service reads (issuer, client id), and as {@link #ISSUER_KEY} for the tests.
 */
public class OidcProviderResource implements QuarkusTestResourceLifecycleManager {
    /** The provider's issuer, for tests that ask it for tokens. */
    public static final String ISSUER_KEY = "trimus-test.oidc-issuer";
    private OidcProvider provider;

    @Override
    public Map<String, String> start() {
        provider = OidcProvider.start();
        return Map.of("trimus.oidc.issuer", provider.issuer(), "trimus.oidc.client-id", OidcProvider.CLIENT_ID,
                ISSUER_KEY, provider.issuer());
    }

    @Override
    public void stop() {
        if (provider != null) {
            provider.close();
            provider = null;
        }
    }
}
