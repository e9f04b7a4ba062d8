package io.trimus.egress.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.allowlist.AllowlistService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** HTTP face of a company's egress allowlist: the names its sandboxes may resolve, and the ports they may reach. */
@Path("/api/companies/{company_id}/egress/allowlist")
@Produces(MediaType.APPLICATION_JSON)
public class AllowlistResource {
    private final AllowlistService allowlists;

    AllowlistResource(AllowlistService allowlists) {
        this.allowlists = allowlists;
    }

    /**
     * Body of PUT: the whole new list. Exact names ({@code api.github.com}) and wildcards over a domain of at least
     * two labels ({@code *.pypi.org}), either optionally followed by {@code :port} ({@code git.example.com:22}: that
     * port only; without one, the proxy's default ports); case, a trailing dot and Unicode (IDN) are normalised.
     * Entries stay JSON values here so that a number is refused rather than read as a name.
     */
    public record AllowlistBody(List<JsonNode> entries) {
    }

    /** A company's allowlist: normalised entries, sorted. */
    public record AllowlistView(UUID companyId, List<String> entries) {
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<AllowlistView> get(@PathParam("company_id") String companyId) {
        UUID company = Ids.parse("company_id", companyId);
        return allowlists.get(company).map(entries -> new AllowlistView(company, entries));
    }

    /** Replaces the list; nothing is stored unless every entry is valid. An empty list denies every name. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.ADMIN)
    public Uni<AllowlistView> replace(@PathParam("company_id") String companyId, AllowlistBody body) {
        UUID company = Ids.parse("company_id", companyId);
        if (body == null) {
            throw ProblemException.invalid("body", "is required: {\"entries\": [\"example.com\", \"*.example.org\"]}");
        }
        return allowlists.replace(company, texts(body.entries()))
                .map(entries -> new AllowlistView(company, entries));
    }

    /** The entries of a body as the allowlist services take them; a problem naming an entry of another kind. */
    static List<String> texts(List<JsonNode> entries) {
        if (entries == null) {
            return null;
        }
        List<String> texts = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            if (entry == null || entry.isNull()) {
                texts.add(null);
            } else if (entry.isTextual()) {
                texts.add(entry.textValue());
            } else {
                throw ProblemException.invalid("entries[" + i + "]", "must be a string, not " + kind(entry));
            }
        }
        return texts;
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            default -> "a " + node.getNodeType().name().toLowerCase();
        };
    }
}
