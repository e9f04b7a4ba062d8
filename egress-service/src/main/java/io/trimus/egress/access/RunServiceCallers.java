package io.trimus.egress.access;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Credentials;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.ca.EgressKeys;
import io.trimus.egress.config.TrimusConfig;
import io.trimus.events.auth.BearerCredentials;
import io.trimus.events.auth.Caller;
import io.trimus.events.auth.ServiceCredential;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.util.Optional;

/**
 * egress-service's answer to "who is this credential": run-service's {@code GET /api/me}, asked with the caller's own
 * header for every request (no cache: a revoked token is refused here from the next request, as in run-service).
 * When run-service cannot answer, the request gets 503 — never let through.
 */
@ApplicationScoped
public class RunServiceCallers implements Credentials {
    static final int MAX_ANSWER_BYTES = 64 * 1024;
    private static final Logger LOG = Logger.getLogger(RunServiceCallers.class);
    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final HttpClient http;
    private final String meUrl;
    private final long timeoutMillis;
    private final Optional<ServiceCredential> service;

    RunServiceCallers(Vertx vertx, TrimusConfig config, EgressKeys keys) {
        this.http = vertx.createHttpClient();
        this.meUrl = config.runService().url().toString().replaceAll("/+$", "") + "/api/me";
        this.timeoutMillis = config.runService().timeout().toMillis();
        this.service = keys.encryptionKey().map(ServiceCredential::of);
    }

    @Override
    public Uni<Caller> caller(String credential) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(meUrl)
                .putHeader(BearerCredentials.HEADER, BearerCredentials.header(credential))
                .putHeader("Accept", "application/json").setTimeout(timeoutMillis);
        return http.request(options)
                .flatMap(request -> request.send())
                .flatMap(response -> response.body().map(body -> read(response.statusCode(), body)))
                .onFailure(failure -> !(failure instanceof ProblemException)).transform(failure -> {
                    LOG.warnf("run-service could not say who a caller is (%s)", failure.toString());
                    return unavailable();
                });
    }

    @Override
    public boolean isService(String credential) {
        return service.map(s -> s.matches(credential)).orElse(false);
    }

    private static Caller read(int status, Buffer body) {
        if (status == 401 || status == 403) {   // 403: a credential that may not even ask (an A2A-only token)
            return null;
        }
        if (status != 200 || body.length() > MAX_ANSWER_BYTES) {
            LOG.warnf("run-service answered GET /api/me with HTTP %d (%d bytes)", status, body.length());
            throw unavailable();
        }
        try {
            return JSON.readValue(body.getBytes(), Caller.class);
        } catch (IOException e) {
            LOG.warnf("run-service's answer to GET /api/me is not a caller (%s)", e.getClass().getSimpleName());
            throw unavailable();
        }
    }

    private static ProblemException unavailable() {
        return new ProblemException(503, "Service unavailable", "run-service could not confirm who is calling; try"
                + " again shortly", null);
    }
}
