package io.trimus.adapter.a2a;

import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.TextPart;
import io.trimus.events.IssueRef;
import io.trimus.events.RunRequested;
import io.trimus.events.adapter.A2aPeerConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The message a run sends its peer, per the wire contract: role user, a fresh messageId, one text part (the issue's
 * title and body and the input, blank-line separated, those present) and {@code metadata.trimus} with the issue and the
 * input as fields, plus {@code metadata.skill} when the agent names one.
 */
final class PeerMessage {
    private PeerMessage() {
    }

    /** The send parameters; {@code blocking} false when the task is to be polled rather than streamed. */
    static MessageSendParams of(RunRequested run, A2aPeerConfig peer, boolean blocking) {
        Message message = new Message.Builder()
                .role(Message.Role.USER)
                .messageId(UUID.randomUUID().toString())
                .parts(List.of(new TextPart(text(run))))
                .metadata(metadata(run, peer))
                .build();
        return new MessageSendParams.Builder()
                .message(message)
                .configuration(new MessageSendConfiguration.Builder().blocking(blocking).build())
                .build();
    }

    static String text(RunRequested run) {
        List<String> parts = new ArrayList<>();
        IssueRef issue = run.issue();
        if (issue != null) {
            addPresent(parts, issue.title());
            addPresent(parts, issue.body());
        }
        addPresent(parts, run.input());
        return String.join("\n\n", parts);
    }

    private static Map<String, Object> metadata(RunRequested run, A2aPeerConfig peer) {
        Map<String, Object> trimus = new LinkedHashMap<>();
        IssueRef issue = run.issue();
        if (issue != null && (issue.id() != null || issue.title() != null || issue.body() != null)) {
            Map<String, Object> fields = new LinkedHashMap<>();
            putPresent(fields, "id", issue.id());
            putPresent(fields, "title", issue.title());
            putPresent(fields, "body", issue.body());
            trimus.put("issue", fields);
        }
        putPresent(trimus, "input", run.input());
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("trimus", trimus);
        putPresent(metadata, "skill", peer.skill());
        return metadata;
    }

    private static void addPresent(List<String> parts, String value) {
        if (value != null && !value.isEmpty()) {
            parts.add(value);
        }
    }

    private static void putPresent(Map<String, Object> map, String key, String value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
