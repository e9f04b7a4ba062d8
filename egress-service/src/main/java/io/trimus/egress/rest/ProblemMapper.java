package io.trimus.egress.rest;

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

/** Turns every failure into problem+json; clients never see class names, stack traces or SQL. */
public class ProblemMapper {
    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);

    @ServerExceptionMapper
    public RestResponse<Problem> domain(ProblemException e) {
        return problem(e.status(), e.title(), e.getMessage(), e.field(), e.value());
    }

    // Quarkus ships mappers for these Jackson subtypes; naming them here makes ours win.
    @ServerExceptionMapper
    public RestResponse<Problem> unknownField(UnrecognizedPropertyException e) {
        String field = path(e);
        return problem(400, "Invalid request", field + " is not a known field", field, null);
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
            return problem(400, "Invalid request", "the request body is not valid JSON", null, null);
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = path(mapping);
            return problem(400, "Invalid request", field + " has the wrong type", field, null);
        }
        return problem(400, "Invalid request", "the request body does not match the expected JSON shape", null, null);
    }

    @ServerExceptionMapper
    public RestResponse<Problem> web(WebApplicationException e) {
        if (e.getCause() instanceof JsonProcessingException json) { // Quarkus wraps JSON syntax errors in a 400
            return unreadableJson(json);
        }
        int status = e.getResponse().getStatus();
        String reason = Response.Status.fromStatusCode(status) == null
                ? "Error" : Response.Status.fromStatusCode(status).getReasonPhrase();
        String detail = switch (status) {
            case 404 -> "no such resource";
            case 405 -> "this method is not allowed on this resource";
            case 415 -> "send the request body as application/json";
            case 406 -> "this resource answers with application/json";
            default -> reason.toLowerCase();
        };
        return problem(status, reason, detail, null, null);
    }

    @ServerExceptionMapper
    public RestResponse<Problem> unexpected(Throwable e) {
        LOG.error("Unexpected failure while serving a request", e);
        return problem(500, "Internal error", "the server failed to handle the request; the failure has been logged",
                null, null);
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

    private static RestResponse<Problem> problem(int status, String title, String detail, String field, String value) {
        String type = "https://trimus.io/problems/" + switch (status) {
            case 400 -> "invalid-request";
            case 404 -> "not-found";
            case 409 -> "conflict";
            case 500 -> "internal-error";
            default -> "http-" + status;
        };
        return RestResponse.ResponseBuilder.<Problem>create(status)
                .entity(new Problem(type, title, status, detail, field, value))
                .type(Problem.MEDIA_TYPE).build();
    }
}
