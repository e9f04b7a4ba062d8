package io.trimus.egress.api;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.trimus.testing.OwnerDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;

/** The policy-document endpoint as tests call it, and the stored revisions a change would bump. */
final class PolicyDocuments {
    static final String PATH = "/api/companies/{c}/egress/policy-document";

    private PolicyDocuments() {
    }

    /** A document as a JSON body: the mode, the company's entries and each agent's entries. */
    static Map<String, Object> document(String mode, List<?> entries, Map<UUID, ? extends List<?>> agents) {
        Map<String, Object> lists = new LinkedHashMap<>();
        agents.forEach((agent, list) -> lists.put(agent.toString(), Map.of("entries", list)));
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("mode", mode);
        document.put("entries", entries);
        document.put("agents", lists);
        return document;
    }

    /** The company's document as GET answers it, asked for as {@code accept} (none: no header) and sent as {@code type}. */
    static String export(UUID company, String accept, String type) {
        var request = given();
        if (accept != null) {
            request.accept(accept);
        }
        return request.get(PATH, company).then().statusCode(200).contentType(type).extract().asString();
    }

    static ValidatableResponse put(UUID company, Object body) {
        return given().contentType(ContentType.JSON).body(body).put(PATH, company).then();
    }

    static ValidatableResponse put(UUID company, String type, byte[] body, boolean dryRun) {
        return given().contentType(type).body(body).queryParam("dry_run", dryRun).put(PATH, company).then();
    }

    /**
     * What a write of the company's policy would bump: the revisions of its mode, its list and its agents' rows, and
     * the policy revision every replica checks.
     */
    static List<Long> revisions(UUID company) throws Exception {
        List<Long> revisions = new ArrayList<>();
        try (Connection owner = OwnerDatabase.connect();
             PreparedStatement select = owner.prepareStatement("select revision from ("
                     + " select 1 as o, '' as k, revision from egress.egress_policy where company_id = ?"
                     + " union all select 2, '', revision from egress.allowlist where company_id = ?"
                     + " union all select 3, agent_id::text, revision from egress.agent_allowlist where company_id = ?"
                     + " union all select 4, '', revision from egress.policy_revision) r order by o, k")) {
            select.setObject(1, company);
            select.setObject(2, company);
            select.setObject(3, company);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    revisions.add(rows.getLong(1));
                }
            }
        }
        return revisions;
    }
}
