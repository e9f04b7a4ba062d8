package io.trimus.egress.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.allowlist.AgentAllowlistService;
import io.trimus.egress.allowlist.RuledEntry;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;
import java.util.UUID;

/**
 * HTTP face of an agent's own egress allowlist (issue 31): the same body and entry forms as the company's
 * ({@link AllowlistResource}), guarded the same way. An agent with a list of its own reaches only what both its list
 * and the company's allow; without one (never set, or removed by DELETE) the company's list applies alone.
 */
@Path("/api/companies/{company_id}/agents/{agent_id}/egress/allowlist")
@Produces(MediaType.APPLICATION_JSON)
public class AgentAllowlistResource {
    private final AgentAllowlistService allowlists;

    AgentAllowlistResource(AgentAllowlistService allowlists) {
        this.allowlists = allowlists;
    }

    /**
     * An agent's allowlist: {@code own_list} false (and no entries) when the company's list applies alone, else its
     * own normalised entries, sorted, which narrow the company's: each a string or an object with request rules, as
     * the company's list shows them ({@link RuledEntry#view}).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record AgentAllowlistView(UUID companyId, UUID agentId, boolean ownList, List<JsonNode> entries) {
        static AgentAllowlistView of(UUID companyId, UUID agentId, boolean ownList, List<String> stored) {
            return new AgentAllowlistView(companyId, agentId, ownList, stored.stream().map(RuledEntry::view).toList());
        }
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<AgentAllowlistView> get(@PathParam("company_id") String companyId,
                                       @PathParam("agent_id") String agentId) {
        UUID company = Ids.parse("company_id", companyId);
        UUID agent = Ids.parse("agent_id", agentId);
        return allowlists.get(company, agent).map(entries -> AgentAllowlistView.of(company, agent,
                entries.isPresent(), entries.orElse(List.of())));
    }

    /**
     * Gives the agent a list of its own, or replaces it; nothing is stored unless every entry is valid. An empty list
     * denies the agent every name.
     */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.ADMIN)
    public Uni<AgentAllowlistView> replace(@PathParam("company_id") String companyId,
                                           @PathParam("agent_id") String agentId,
                                           AllowlistResource.AllowlistBody body) {
        UUID company = Ids.parse("company_id", companyId);
        UUID agent = Ids.parse("agent_id", agentId);
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"entries\": [\"example.com\", \"*.example.org\"]}");
        }
        return allowlists.replace(company, agent, body.entries())
                .map(entries -> AgentAllowlistView.of(company, agent, true, entries));
    }

    /** Removes the agent's own list: the company's applies to it again. 204 whether or not it had one. */
    @DELETE
    @Allowed(Access.ADMIN)
    public Uni<Response> remove(@PathParam("company_id") String companyId, @PathParam("agent_id") String agentId) {
        UUID company = Ids.parse("company_id", companyId);
        UUID agent = Ids.parse("agent_id", agentId);
        return allowlists.remove(company, agent).map(removed -> Response.noContent().build());
    }
}
