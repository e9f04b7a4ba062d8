package io.trimus.egress.access;

import io.trimus.commons.access.Credentials;
import io.trimus.commons.problem.Problem;
import io.trimus.events.auth.BearerCredentials;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.Optional;

/**
 * {@code /q/metrics} (Prometheus) for operators and Trimus's own services only: metrics name companies' traffic. The
 * health endpoints stay open for probes. Applies docs/access.md outside the REST resources.
 */
@ApplicationScoped
public class MetricsAccess {
    private final Credentials credentials;

    MetricsAccess(Credentials credentials) {
        this.credentials = credentials;
    }

    void guard(@Observes Router router) {
        router.route("/q/metrics*").order(-1000).handler(this::check);
    }

    private void check(RoutingContext context) {
        Optional<String> credential = BearerCredentials.of(context.request().getHeader(BearerCredentials.HEADER));
        if (credential.isEmpty()) {
            refuse(context, 401, "Unauthorized", "send Authorization: Bearer <operator token>");
            return;
        }
        if (credentials.isService(credential.get())) {
            context.next();
            return;
        }
        credentials.caller(credential.get()).subscribe().with(caller -> {
            if (caller == null) {
                refuse(context, 401, "Unauthorized", "the credential is unknown, expired or revoked");
            } else if (!caller.operator()) {
                refuse(context, 403, "Forbidden", "only the platform's operators may read metrics");
            } else {
                context.next();
            }
        }, failure -> refuse(context, 503, "Service unavailable", "run-service could not confirm who is calling"));
    }

    private static void refuse(RoutingContext context, int status, String title, String detail) {
        Problem problem = Problem.of(status, title, detail, null, null);
        var response = context.response().setStatusCode(status).putHeader("Content-Type", Problem.MEDIA_TYPE);
        if (status == 401) {
            response.putHeader("WWW-Authenticate", "Bearer realm=\"trimus\"");
        }
        response.end(JsonObject.mapFrom(problem).encode());
    }
}
