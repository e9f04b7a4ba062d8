package io.trimus.admin.rest;

import io.quarkus.qute.TemplateInstance;
import io.trimus.admin.client.BackendException;
import io.trimus.admin.view.Templates;
import io.trimus.admin.view.Views;
import io.trimus.commons.problem.Problem;
import io.trimus.commons.problem.ProblemMapper;
import io.trimus.commons.streams.TooManyStreams;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Turns every failure into a page with one human sentence; never a class name or a stack trace. */
public class ErrorPages {
    private static final Logger LOG = Logger.getLogger(ErrorPages.class);

    @ServerExceptionMapper
    public RestResponse<TemplateInstance> backend(BackendException e) {
        if (e.kind() == BackendException.Kind.UNAUTHENTICATED) {
            // the session ended during this request (the gate had let it in): sign in again
            return RestResponse.ResponseBuilder.<TemplateInstance>seeOther(java.net.URI.create("/login"))
                    .header(jakarta.ws.rs.core.HttpHeaders.SET_COOKIE, io.trimus.admin.auth.SessionCookie.NAME
                            + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0").build();
        }
        String title = switch (e.kind()) {
            case UNAUTHENTICATED -> "Signed out";
            case FORBIDDEN -> "Not allowed";
            case NOT_FOUND -> "Not found";
            case REFUSED -> "Refused";
            case UNREACHABLE -> e.backend().displayName() + " is not reachable";
            case FAILED -> e.backend().displayName() + " failed";
        };
        return page(e.httpStatus(), title, e.getMessage());
    }

    /** A live feed (server-sent events, read by scripts too) refused over its credential's cap: problem+json. */
    @ServerExceptionMapper
    public RestResponse<Problem> tooManyStreams(TooManyStreams e) {
        return ProblemMapper.response(e.problem());
    }

    @ServerExceptionMapper
    public RestResponse<TemplateInstance> forbidden(PageForbidden e) {
        return page(403, "Not allowed", e.getMessage());
    }

    @ServerExceptionMapper
    public RestResponse<TemplateInstance> notFound(PageNotFound e) {
        return page(404, "Not found", e.getMessage());
    }

    @ServerExceptionMapper
    public RestResponse<TemplateInstance> noSuchPage(NotFoundException e) {
        return page(404, "Not found", "There is no page at this address.");
    }

    @ServerExceptionMapper
    public RestResponse<TemplateInstance> web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String sentence = switch (status) {
            case 405 -> "This page cannot be used that way (HTTP method not allowed).";
            case 415 -> "The form was sent in a format this page does not take.";
            default -> "The request could not be handled (HTTP " + status + ").";
        };
        return page(status, "Request not handled", sentence);
    }

    @ServerExceptionMapper
    public RestResponse<TemplateInstance> unexpected(Throwable e) {
        LOG.error("Unexpected failure while rendering a page", e);
        return page(500, "Something went wrong",
                "The dashboard failed to show this page; the failure has been logged.");
    }

    private static RestResponse<TemplateInstance> page(int status, String title, String sentence) {
        return RestResponse.ResponseBuilder.<TemplateInstance>create(status)
                .entity(Templates.error(new Views.Error(status, title, sentence)))
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }

}
