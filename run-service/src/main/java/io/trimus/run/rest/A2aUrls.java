package io.trimus.run.rest;

import io.trimus.run.config.TrimusConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;
import java.util.UUID;

/**
 * Where a published agent is reached: TRIMUS_A2A_PUBLIC_URL, else the scheme, host and port the request came to (the
 * internal address behind a proxy, which is why a proxied deployment sets the variable).
 */
@ApplicationScoped
public class A2aUrls {
    static final String CARD_PATH = "/.well-known/agent-card.json";

    private final TrimusConfig config;

    A2aUrls(TrimusConfig config) {
        this.config = config;
    }

    /** The agent's JSON-RPC endpoint. */
    String endpoint(UriInfo request, UUID companyId, UUID agentId) {
        URI base = config.a2a().publicUrl().orElseGet(request::getBaseUri);
        return base.toString().replaceAll("/+$", "") + "/a2a/companies/" + companyId + "/agents/" + agentId;
    }

    /** The agent's card. */
    String card(UriInfo request, UUID companyId, UUID agentId) {
        return endpoint(request, companyId, agentId) + CARD_PATH;
    }
}
