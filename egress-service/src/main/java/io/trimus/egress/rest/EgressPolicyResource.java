package io.trimus.egress.rest;

import io.trimus.commons.access.Access;
import io.trimus.commons.access.Allowed;
import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.problem.Ids;
import io.trimus.commons.problem.ProblemException;
import io.trimus.egress.policy.EgressMode;
import io.trimus.egress.policy.EgressPolicyService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * HTTP face of a company's egress policy: whether names not on its allowlist are denied ({@code enforce}, the
 * default) or let through and reported ({@code report}).
 */
@Path("/api/companies/{company_id}/egress/policy")
@Produces(MediaType.APPLICATION_JSON)
public class EgressPolicyResource {
    private static final String EXAMPLE = "{\"mode\": \"enforce\"} or {\"mode\": \"report\"}";

    private final EgressPolicyService policies;

    EgressPolicyResource(EgressPolicyService policies) {
        this.policies = policies;
    }

    /** Body of PUT: the mode, {@code enforce} or {@code report}. A JSON value here so a non-string is named. */
    public record EgressPolicyBody(JsonNode mode) {
    }

    /** A company's egress policy; {@code updated_at} is null while it never set one (then it is enforced). */
    public record EgressPolicyView(UUID companyId, String mode, Instant updatedAt) {
        static EgressPolicyView of(UUID companyId, EgressPolicyService.Policy policy) {
            return new EgressPolicyView(companyId, word(policy.mode()), policy.updatedAt());
        }
    }

    @GET
    @Allowed(Access.VIEWER)
    public Uni<EgressPolicyView> get(@PathParam("company_id") String companyId) {
        UUID company = Ids.parse("company_id", companyId);
        return policies.get(company).map(policy -> EgressPolicyView.of(company, policy));
    }

    /** Sets the mode; nothing changes unless the body is valid. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Allowed(Access.ADMIN)
    public Uni<EgressPolicyView> set(@PathParam("company_id") String companyId, EgressPolicyBody body) {
        UUID company = Ids.parse("company_id", companyId);
        EgressMode mode = mode(body);
        return policies.set(company, mode).map(policy -> EgressPolicyView.of(company, policy));
    }

    private static EgressMode mode(EgressPolicyBody body) {
        JsonNode mode = body == null ? null : body.mode();
        if (mode == null || mode.isNull()) {
            throw ProblemException.invalid("mode", "is required: " + EXAMPLE);
        }
        if (!mode.isTextual()) {
            throw ProblemException.invalid("mode", "must be a string: " + EXAMPLE);
        }
        for (EgressMode known : EgressMode.values()) {
            if (word(known).equals(mode.textValue())) {
                return known;
            }
        }
        throw ProblemException.invalidValue("mode", mode.textValue(), "is not a mode: enforce or report");
    }

    private static String word(EgressMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }
}
