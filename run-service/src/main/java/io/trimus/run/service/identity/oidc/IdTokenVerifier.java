package io.trimus.run.service.identity.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.ProblemException;
import io.trimus.run.config.OidcConfig;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;
import org.jose4j.http.Get;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwk.HttpsJwks;
import org.jose4j.keys.resolvers.HttpsJwksVerificationKeyResolver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Verifies an ID token of the configured OpenID Connect provider with jose4j, trusting nobody who hands it over: the
 * signature against the keys the issuer publishes (its JWKS, found through discovery and fetched again when a token
 * names an unknown key), {@code iss} equal to TRIMUS_OIDC_ISSUER, {@code aud} containing TRIMUS_OIDC_CLIENT_ID,
 * {@code exp} and {@code iat} present and current, and an asymmetric algorithm ({@code none} and HMAC are refused).
 */
@ApplicationScoped
public class IdTokenVerifier {
    /** Longest ID token accepted, in characters. */
    public static final int MAX_LENGTH = 16 * 1024;
    private static final Logger LOG = Logger.getLogger(IdTokenVerifier.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int CLOCK_SKEW_SECONDS = 60;
    // the dashboard hands the token over right after the code flow; an old one is a replayed one
    private static final int MAX_AGE_SECONDS = 600;

    private final OidcConfig config;
    private final Vertx vertx;
    private final ObjectMapper json;
    private volatile JwtConsumer consumer;

    IdTokenVerifier(OidcConfig config, Vertx vertx, ObjectMapper json) {
        this.config = config;
        this.vertx = vertx;
        this.json = json;
    }

    /** Whether sign-in through a provider is configured (TRIMUS_OIDC_ISSUER set). */
    public boolean enabled() {
        return config.issuer().filter(i -> !i.isBlank()).isPresent();
    }

    /** The token's claims once every check passed; a 401 problem saying which failed otherwise. */
    public Uni<JwtClaims> verify(String idToken) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> verifyBlocking(idToken)));
    }

    private JwtClaims verifyBlocking(String idToken) {
        try {
            return consumer().processToClaims(idToken);
        } catch (InvalidJwtException e) {
            LOG.debugf("refused an ID token: %s", e.getMessage());
            throw new ProblemException(401, "Unauthorized", "the ID token was refused: " + reason(e), "id_token");
        }
    }

    private static String reason(InvalidJwtException e) {
        if (e.hasExpired()) {
            return "it has expired";
        }
        if (e.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || e.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
            return "it was issued to another client (aud)";
        }
        if (e.hasErrorCode(ErrorCodes.ISSUER_INVALID) || e.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
            return "it comes from another issuer (iss)";
        }
        if (e.hasErrorCode(ErrorCodes.SIGNATURE_INVALID) || e.hasErrorCode(ErrorCodes.SIGNATURE_MISSING)
                || e.getCause() instanceof org.jose4j.lang.UnresolvableKeyException) {
            return "its signature does not verify with the issuer's keys";
        }
        if (e.hasErrorCode(ErrorCodes.ISSUED_AT_INVALID_PAST) || e.hasErrorCode(ErrorCodes.ISSUED_AT_INVALID_FUTURE)
                || e.hasErrorCode(ErrorCodes.ISSUED_AT_MISSING) || e.hasErrorCode(ErrorCodes.EXPIRATION_MISSING)) {
            return "its issue time (iat) or expiry (exp) is missing or out of range";
        }
        return "it is not a valid signed ID token of the configured issuer";
    }

    private JwtConsumer consumer() {
        JwtConsumer current = consumer;
        if (current == null) {
            synchronized (this) {
                current = consumer;
                if (current == null) {
                    current = build();
                    consumer = current;
                }
            }
        }
        return current;
    }

    private JwtConsumer build() {
        String issuer = config.issuer().orElseThrow();
        String clientId = config.clientId().filter(c -> !c.isBlank()).orElseThrow(() -> new ProblemException(503,
                "Service unavailable", "TRIMUS_OIDC_CLIENT_ID is not set, so no ID token can be checked", null));
        HttpsJwks jwks = new HttpsJwks(jwksUri(issuer));
        Get get = new Get();
        get.setConnectTimeout((int) TIMEOUT.toMillis());
        get.setReadTimeout((int) TIMEOUT.toMillis());
        jwks.setSimpleHttpGet(get);
        return new JwtConsumerBuilder()
                .setRequireExpirationTime()
                .setRequireIssuedAt()
                .setIssuedAtRestrictions(CLOCK_SKEW_SECONDS, MAX_AGE_SECONDS)
                .setAllowedClockSkewInSeconds(CLOCK_SKEW_SECONDS)
                .setRequireSubject()
                .setExpectedIssuer(issuer)
                .setExpectedAudience(clientId)
                .setVerificationKeyResolver(new HttpsJwksVerificationKeyResolver(jwks))
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                        AlgorithmIdentifiers.RSA_USING_SHA256, AlgorithmIdentifiers.RSA_USING_SHA384,
                        AlgorithmIdentifiers.RSA_USING_SHA512, AlgorithmIdentifiers.RSA_PSS_USING_SHA256,
                        AlgorithmIdentifiers.RSA_PSS_USING_SHA384, AlgorithmIdentifiers.RSA_PSS_USING_SHA512,
                        AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256,
                        AlgorithmIdentifiers.ECDSA_USING_P384_CURVE_AND_SHA384,
                        AlgorithmIdentifiers.ECDSA_USING_P521_CURVE_AND_SHA512)
                .build();
    }

    /** The issuer's {@code jwks_uri} from its discovery document, whose {@code issuer} must be the configured one. */
    private String jwksUri(String issuer) {
        URI discovery = URI.create(issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration");
        try {
            HttpResponse<String> answer = HttpClient.newBuilder().connectTimeout(TIMEOUT).build().send(
                    HttpRequest.newBuilder(discovery).timeout(TIMEOUT).header("Accept", "application/json").GET()
                            .build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw unreachable(issuer, "its discovery document answered " + answer.statusCode());
            }
            JsonNode document = json.readTree(answer.body());
            if (!issuer.equals(document.path("issuer").asText())) {
                throw unreachable(issuer, "its discovery document names another issuer, "
                        + document.path("issuer").asText());
            }
            String jwksUri = document.path("jwks_uri").asText("");
            if (jwksUri.isEmpty()) {
                throw unreachable(issuer, "its discovery document has no jwks_uri");
            }
            return jwksUri;
        } catch (IOException e) {
            throw unreachable(issuer, "it cannot be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(issuer, "the request was interrupted");
        }
    }

    private static ProblemException unreachable(String issuer, String why) {
        LOG.warnf("OpenID Connect provider %s: %s", issuer, why);
        return new ProblemException(503, "Service unavailable", "the identity provider " + issuer
                + " cannot be used right now: " + why, null);
    }
}
