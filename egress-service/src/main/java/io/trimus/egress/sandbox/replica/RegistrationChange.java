package io.trimus.egress.sandbox.replica;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trimus.egress.sandbox.Sandbox;

import java.io.IOException;
import java.util.UUID;

/**
 * One change of a stored registration as the database announces it to every replica (the notification of migration
 * V11): the row's new state ({@code put}, without its masks) or its removal ({@code delete}: the address and the run
 * that held it). Each is the whole new state of one address, so applying a suffix of them in order on top of any
 * older state gives the current one. {@code origin} names the replica that made the change, when it said.
 */
public record RegistrationChange(boolean delete, Sandbox sandbox, boolean masked, String origin) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The change a notification's payload describes. */
    public static RegistrationChange parse(String payload) {
        JsonNode node;
        try {
            node = JSON.readTree(payload);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON", e);
        }
        String op = text(node, "op");
        String ip = text(node, "ip");
        UUID runId = uuid(node, "run_id");
        if (ip == null || runId == null || !("put".equals(op) || "delete".equals(op))) {
            throw new IllegalArgumentException("a registration change needs op put|delete, ip and run_id");
        }
        String origin = text(node, "origin");
        if ("delete".equals(op)) {
            return new RegistrationChange(true, new Sandbox(ip, null, null, runId, null), false, origin);
        }
        return new RegistrationChange(false, new Sandbox(ip, uuid(node, "company_id"), uuid(node, "agent_id"), runId,
                text(node, "container_id")), node.path("masked").asBoolean(false), origin);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static UUID uuid(JsonNode node, String field) {
        String text = text(node, field);
        return text == null ? null : UUID.fromString(text);
    }
}
