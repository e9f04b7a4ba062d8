package io.trimus.admin.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.trimus.admin.config.TrimusConfig;
import io.trimus.commons.problem.Problem;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The one place where backend calls are made and their failures become sentences: builds the REST clients from
 * {@link TrimusConfig} and runs every call through {@link #call}.
 */
@ApplicationScoped
public class Backends {
    private static final Logger LOG = Logger.getLogger(Backends.class);
    private static final Problem NO_PROBLEM = new Problem(null, null, 0, null, null, null);

    private final ObjectMapper json;
    private final RequestCredential credential;

    Backends(ObjectMapper json, RequestCredential credential) {
        this.json = json;
        this.credential = credential;
    }

    @Produces
    @ApplicationScoped
    RunServiceApi runService(TrimusConfig config) {
        return client(config.runServiceUrl(), config, RunServiceApi.class);
    }

    @Produces
    @ApplicationScoped
    EgressServiceApi egressService(TrimusConfig config) {
        return client(config.egressServiceUrl(), config, EgressServiceApi.class);
    }

    @Produces
    @ApplicationScoped
    IdentityApi identity(TrimusConfig config) {
        return client(config.runServiceUrl(), config, IdentityApi.class);
    }

    @Produces
    @ApplicationScoped
    AuditApi audit(TrimusConfig config) {
        return client(config.runServiceUrl(), config, AuditApi.class);
    }

    private static <T> T client(URI baseUri, TrimusConfig config, Class<T> api) {
        long timeout = config.backendTimeout().toMillis();
        return QuarkusRestClientBuilder.newBuilder().baseUri(baseUri)
                .connectTimeout(timeout, TimeUnit.MILLISECONDS)
                .readTimeout(timeout, TimeUnit.MILLISECONDS)
                .build(api);
    }

    /**
     * Runs one call to {@code backend} as the signed-in caller: {@code call} gets the caller's {@code Authorization}
     * value to send. Any failure comes out as a {@link BackendException} with a human sentence.
     */
    public <T> T call(Backend backend, Function<String, T> call) {
        return callAs(credential.authorization(), backend, call);
    }

    /**
     * {@link #call} with an explicit {@code Authorization} value (null: none), for work outside the request that
     * captured it (a live feed) and for signing in.
     */
    public <T> T callAs(String authorization, Backend backend, Function<String, T> call) {
        try {
            return call.apply(authorization);
        } catch (WebApplicationException e) {
            throw answered(backend, e.getResponse(), e);
        } catch (ProcessingException e) {
            LOG.debugf(e, "%s did not answer", backend.displayName());
            throw new BackendException(backend, BackendException.Kind.UNREACHABLE,
                    backend.displayName() + " is not reachable right now; try again in a moment.", null, e);
        } catch (BackendException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warnf(e, "Unexpected failure calling %s", backend.displayName());
            throw new BackendException(backend, BackendException.Kind.FAILED,
                    "The answer from " + backend.displayName() + " could not be read; the failure has been logged.",
                    null, e);
        }
    }

    /** The same as {@link #call} for a result that is optional on a page: the sentence instead of an exception. */
    public <T> Fetched<T> fetch(Backend backend, Function<String, T> call) {
        try {
            return Fetched.of(call(backend, call));
        } catch (BackendException e) {
            return Fetched.failed(e.getMessage());
        }
    }

    private BackendException answered(Backend backend, Response response, Throwable cause) {
        int status = response == null ? 0 : response.getStatus();
        Problem problem = problem(response);
        String detail = problem.detail();
        String name = backend.displayName();
        if (status == 401) {
            return new BackendException(backend, BackendException.Kind.UNAUTHENTICATED,
                    "Your sign-in has ended; sign in again.", null, cause);
        }
        if (status == 403) {
            return new BackendException(backend, BackendException.Kind.FORBIDDEN, detail == null
                    ? "You cannot do this." : "You cannot do this: " + detail + ".", null, cause);
        }
        if (status == 429) {
            return new BackendException(backend, BackendException.Kind.REFUSED, detail == null
                    ? "Too many requests; try again in a moment." : capitalised(detail) + ".", null, cause);
        }
        if (status == 404) {
            return new BackendException(backend, BackendException.Kind.NOT_FOUND,
                    detail == null ? name + " does not know this item." : capitalised(detail) + ".", null, cause);
        }
        if (status == 400 || status == 409 || status == 422) {
            return new BackendException(backend, BackendException.Kind.REFUSED,
                    detail == null ? name + " refused the request." : detail, problem.field(),
                    cause);
        }
        if (status == 503) {
            return new BackendException(backend, BackendException.Kind.UNREACHABLE,
                    name + " is not ready right now; try again in a moment.", null, cause);
        }
        LOG.warnf("%s answered HTTP %d: %s", name, status, problem);
        return new BackendException(backend, BackendException.Kind.FAILED,
                name + " could not answer (HTTP " + status + "); try again in a moment.", null, cause);
    }

    /** The backend's problem+json body; an empty problem when it sent none or something else. */
    private Problem problem(Response response) {
        try {
            if (response != null && response.hasEntity()) {
                Problem problem = json.readValue(response.readEntity(String.class), Problem.class);
                if (problem != null) {
                    return problem;
                }
            }
        } catch (RuntimeException | java.io.IOException e) {
            LOG.debug("A backend error without a readable problem body", e);
        }
        return NO_PROBLEM;
    }

    private static String capitalised(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
