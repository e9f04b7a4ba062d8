package io.trimus.commons.problem;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.stream.Collectors;

/**
 * Turns every failure of a JSON API into problem+json; clients never see class names, stack traces or SQL. A
 * service opts in by indexing this jar ({@code quarkus.index-dependency.trimus-commons.*}); the dashboard, which
 * answers with pages, does not.
 */
public class ProblemMapper {
    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);
    private static final String INVALID = "Invalid request";

    @ServerExceptionMapper
    public RestResponse<Problem> domain(ProblemException e) {
        return response(e.problem());
    }

    // Quarkus ships mappers for these Jackson subtypes; naming them here makes ours win.
    @ServerExceptionMapper
    public RestResponse<Problem> unknownField(UnrecognizedPropertyException e) {
        String field = path(e);
        return problem(400, INVALID, field + " is not a known field", field);
    }

    @ServerExceptionMapper
    public RestResponse<Problem> mismatchedInput(MismatchedInputException e) {
        return unreadableJson(e);
    }

    @ServerExceptionMapper
    public RestResponse<Problem> unreadableJson(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            return unknownField(unknown);
        }
        if (isSyntaxError(e)) {
            return problem(400, INVALID, "the request body is not valid JSON", null);
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = path(mapping);
            return problem(400, INVALID, field + " has the wrong type", field);
        }
        return problem(400, INVALID, "the request body does not match the expected JSON shape", null);
    }

    @ServerExceptionMapper
    public RestResponse<Problem> web(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) { // Quarkus wraps JSON syntax errors in a 400
            return unreadableJson(json);
        }
        int status = e.getResponse().getStatus();
        Response.Status known = Response.Status.fromStatusCode(status);
        String reason = known == null ? "Error" : known.getReasonPhrase();
        String detail = switch (status) {
            case 404 -> "no such resource";
            case 405 -> "this method is not allowed on this resource";
            case 415 -> "send the request body as application/json";
            case 406 -> "this resource answers with application/json";
            default -> reason.toLowerCase();
        };
        return problem(status, reason, detail, null);
    }

    @ServerExceptionMapper
    public RestResponse<Problem> unexpected(Throwable e) {
        LOG.error("Unexpected failure while serving a request", e);
        return problem(500, "Internal error", "the server failed to handle the request; the failure has been logged",
                null);
    }

    // Jackson wraps a syntax error met inside a field (e.g. the body ends early) in a mapping error with a path
    private static boolean isSyntaxError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonParseException) {
                return true;
            }
        }
        return false;
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static RestResponse<Problem> problem(int status, String title, String detail, String field) {
        return response(Problem.of(status, title, detail, field, null));
    }

    /** The answer carrying {@code problem}: its status, {@value Problem#MEDIA_TYPE}, the body. */
    public static RestResponse<Problem> response(Problem problem) {
        return RestResponse.ResponseBuilder.<Problem>create(problem.status())
                .entity(problem).type(Problem.MEDIA_TYPE).build();
    }
}
