package io.trimus.run.service.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.Message;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import io.trimus.events.IssueRef;

import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What run an A2A message asks for, by the wire contract: issue and input from {@code metadata.trimus} when present and
 * well-formed, else the input is the message's text parts joined by newlines; the only skill is {@code run}. Sizes are
 * left to the run's own bounds (the same as the REST API's).
 */
public record RunRequestOfMessage(IssueRef issue, String input, String contextId, String messageId) {
    /** The one skill a Trimus-published agent has. */
    public static final String SKILL = "run";
    static final int ID_MAX_CHARS = 256;

    /** The request the message makes; an {@link A2aRefusal} (invalid params) when it cannot start a run. */
    public static RunRequestOfMessage of(Message message) {
        if (message.getTaskId() != null) {
            throw invalid("a Trimus task takes no further messages: send a message without taskId to start a new run");
        }
        String contextId = message.getContextId();
        if (contextId != null && (contextId.isBlank() || contextId.length() > ID_MAX_CHARS)) {
            throw invalid("contextId must be 1 to " + ID_MAX_CHARS + " characters");
        }
        String messageId = message.getMessageId();
        if (messageId.isBlank() || messageId.length() > ID_MAX_CHARS) {
            throw invalid("messageId must be 1 to " + ID_MAX_CHARS + " characters");
        }
        JsonNode metadata = message.getMetadata() == null ? null : Utils.OBJECT_MAPPER.valueToTree(message.getMetadata());
        JsonNode skill = metadata == null ? null : metadata.get("skill");
        if (skill != null && !skill.isNull() && !(skill.isTextual() && SKILL.equals(skill.asText()))) {
            throw invalid("this agent has one skill, \"" + SKILL + "\"; metadata.skill names another");
        }
        String context = contextId != null ? contextId : UUID.randomUUID().toString();
        JsonNode trimus = metadata == null ? null : metadata.get("trimus");
        if (wellFormed(trimus)) {
            return new RunRequestOfMessage(issue(trimus.get("issue")), text(trimus.get("input")), context, messageId);
        }
        List<String> texts = message.getParts().stream().filter(TextPart.class::isInstance)
                .map(part -> ((TextPart) part).getText()).map(text -> text == null ? "" : text).toList();
        return new RunRequestOfMessage(null, texts.isEmpty() ? null : texts.stream().collect(Collectors.joining("\n")),
                context, messageId);
    }

    /** {@code metadata.trimus} as the contract shapes it: an object, its issue an object of strings, its input text. */
    private static boolean wellFormed(JsonNode trimus) {
        if (trimus == null || !trimus.isObject()) {
            return false;
        }
        JsonNode issue = trimus.get("issue");
        if (issue != null && !issue.isNull()) {
            if (!issue.isObject()) {
                return false;
            }
            for (String field : List.of("id", "title", "body")) {
                JsonNode value = issue.get(field);
                if (value != null && !value.isNull() && !value.isTextual()) {
                    return false;
                }
            }
        }
        JsonNode input = trimus.get("input");
        return input == null || input.isNull() || input.isTextual();
    }

    private static IssueRef issue(JsonNode issue) {
        if (issue == null || issue.isNull()) {
            return null;
        }
        String id = text(issue.get("id"));
        String title = text(issue.get("title"));
        String body = text(issue.get("body"));
        return id == null && title == null && body == null ? null : new IssueRef(id, title, body);
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }

    static A2aRefusal invalid(String detail) {
        return new A2aRefusal(new InvalidParamsError(detail));
    }
}
