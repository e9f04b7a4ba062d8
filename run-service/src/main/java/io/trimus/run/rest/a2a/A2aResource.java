package io.trimus.run.rest.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.a2a.util.Utils;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.access.CurrentCaller;
import io.trimus.commons.access.StreamAccess;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.Problem;
import io.trimus.commons.problem.ProblemException;
import io.trimus.events.auth.Caller;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.service.a2a.A2aPublishing;
import io.trimus.run.service.a2a.AgentCards;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.RestMulti;

import java.util.UUID;

/**
 * A published agent over A2A (issue 19): its agent card, open to anyone, and its JSON-RPC endpoint, for members of its
 * company and A2A-only tokens that name the agent (a company token as bearer; {@link Allowed} answers 401, 404 for
 * another company's caller, 403 for a viewer or another agent's A2A-only token, before the body is read).
 *
 * <p>Served with RESTEasy Reactive on the A2A SDK's spec types rather than the SDK's server modules: those keep tasks
 * and their event queues in memory (InMemoryTaskStore, in-process queues), which a request reaching another run-service
 * replica would not find, while a Trimus task is a run in PostgreSQL, read again by whichever replica is asked.
 */
@Path("/a2a/companies/{company_id}/agents/{agent_id}")
public class A2aResource {
    private final A2aPublishing publishing;
    private final A2aJsonRpc jsonRpc;
    private final A2aUrls urls;
    private final TrimusConfig.A2a config;
    private final ObjectMapper json;
    private final StreamAccess streams;
    private final CurrentCaller current;

    A2aResource(A2aPublishing publishing, A2aJsonRpc jsonRpc, A2aUrls urls, TrimusConfig config, ObjectMapper json,
                StreamAccess streams, CurrentCaller current) {
        this.streams = streams;
        this.current = current;
        this.publishing = publishing;
        this.jsonRpc = jsonRpc;
        this.urls = urls;
        this.config = config.a2a();
        this.json = json;
    }

    @GET
    @Path(A2aUrls.CARD_PATH)
    @Produces(MediaType.APPLICATION_JSON)
    @Allowed(Access.ANYONE)
    public Uni<Response> card(@PathParam("company_id") String companyId, @PathParam("agent_id") String agentId) {
        UUID company = Ids.parse("company_id", companyId);
        UUID agent = Ids.parse("agent_id", agentId);
        return publishing.published(company, agent).map(found -> Response.ok(Utils.toJsonString(
                AgentCards.of(found, urls.endpoint(company, agent))), MediaType.APPLICATION_JSON).build());
    }

    @POST
    @Allowed(Access.A2A)
    public RestMulti<byte[]> call(@PathParam("company_id") String companyId, @PathParam("agent_id") String agentId,
                                  byte[] body) {
        StreamAccess.Holder caller = streams.caller(); // a stream or blocking send asks again who called, later
        Caller who = current.require();
        Uni<A2aAnswer> answer = Uni.createFrom().deferred(() -> {
            UUID company = Ids.parse("company_id", companyId);
            UUID agent = Ids.parse("agent_id", agentId);
            return publishing.published(company, agent).flatMap(found -> body != null
                    && body.length > config.maxRequestBytes() ? Uni.createFrom().failure(tooLarge(body.length))
                    : jsonRpc.answer(company, agent, body == null ? new byte[0] : body, who, caller));
        }).onFailure(ProblemException.class).recoverWithItem(e -> problem((ProblemException) e));
        return RestMulti.fromUniResponse(answer, A2aAnswer::body, A2aAnswer::headers, A2aAnswer::status);
    }

    private ProblemException tooLarge(int bytes) {
        return new ProblemException(413, "Request too large", "the JSON-RPC request is " + bytes + " bytes, the"
                + " limit is " + config.maxRequestBytes() + " (TRIMUS_A2A_MAX_REQUEST_BYTES)", null);
    }

    private A2aAnswer problem(ProblemException e) {
        try {
            return A2aAnswer.json(e.status(), Problem.MEDIA_TYPE, json.writeValueAsString(e.problem()));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
