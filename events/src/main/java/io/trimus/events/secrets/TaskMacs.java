package io.trimus.events.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.trimus.events.IssueRef;
import io.trimus.events.RemoteTask;
import io.trimus.events.RunRequested;

import javax.crypto.Mac;
import javax.crypto.SecretKey;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two MACs that make a remote task verifiable by the worker, both HMAC-SHA256 under keys derived from the
 * {@link DispatchKey}:
 * <ul>
 *   <li>run-service's <b>issuer MAC</b> ({@code run.requested.issuer_mac}), computed when it accepts a run of a remote
 *       agent, over exactly what the worker will run: run, company, agent, the worker tag the company was granted,
 *       the inner adapter type and config, issue, input and the sealed secrets. It says "run-service issued this run
 *       for this company on this tag".</li>
 *   <li>the dispatcher's <b>task MAC</b> ({@code remote.task.mac}) over the task's envelope (task id, run, tag,
 *       {@code claim_by}, {@code dispatched_at}) and the issuer MAC, so a replayed task cannot be given a fresh claim
 *       deadline.</li>
 * </ul>
 * Every field goes in as canonical JSON (keys sorted, numbers normalised), so the MAC survives any JSON round trip.
 */
public final class TaskMacs {
    private static final String ISSUER_PURPOSE = "remote-task-issuer-mac/v1";
    private static final String TASK_PURPOSE = "remote-task-mac/v1";

    private final SecretKey issuerKey;
    private final SecretKey taskKey;

    public TaskMacs(DispatchKey key) {
        this.issuerKey = key.derive(ISSUER_PURPOSE, "HmacSHA256");
        this.taskKey = key.derive(TASK_PURPOSE, "HmacSHA256");
    }

    /**
     * run-service's MAC of a remote run: {@code request} carries the inner adapter type and config, as the worker
     * will receive it, and {@code workerTag} is the tag granted to the company.
     */
    public String issue(RunRequested request, String workerTag) {
        return mac(issuerKey, issuedFields(request, workerTag));
    }

    /** Whether the request carries run-service's MAC over exactly these fields and this tag. */
    public boolean issued(RunRequested request, String workerTag) {
        return request.issuerMac() != null && matches(request.issuerMac(), issue(request, workerTag));
    }

    /** The dispatcher's MAC of a task whose request already carries the issuer MAC. */
    public String stamp(RemoteTask task) {
        return mac(taskKey, taskFields(task));
    }

    /** Whether the task carries the dispatcher's MAC over its envelope and its request's issuer MAC. */
    public boolean stamped(RemoteTask task) {
        return task.mac() != null && matches(task.mac(), stamp(task));
    }

    private static String issuedFields(RunRequested r, String workerTag) {
        IssueRef issue = r.issue();
        return "{\"v\":1,\"run_id\":" + text(r.runId()) + ",\"company_id\":" + text(r.companyId())
                + ",\"agent_id\":" + text(r.agentId()) + ",\"worker_tag\":" + text(workerTag)
                + ",\"adapter_type\":" + text(r.adapterType()) + ",\"adapter_config\":" + canonical(r.adapterConfig())
                + ",\"issue\":" + (issue == null ? "null" : "{\"id\":" + text(issue.id()) + ",\"title\":"
                + text(issue.title()) + ",\"body\":" + text(issue.body()) + "}")
                + ",\"input\":" + text(r.input()) + ",\"secrets\":" + sorted(r.secrets()) + "}";
    }

    private static String taskFields(RemoteTask t) {
        return "{\"v\":1,\"id\":" + text(t.id()) + ",\"run_id\":" + text(t.runId()) + ",\"worker_tag\":"
                + text(t.workerTag()) + ",\"claim_by\":" + millis(t.claimBy()) + ",\"dispatched_at\":"
                + millis(t.dispatchedAt()) + ",\"issuer_mac\":"
                + text(t.request() == null ? null : t.request().issuerMac()) + "}";
    }

    private static String sorted(Map<String, String> map) {
        StringBuilder out = new StringBuilder("{");
        new TreeMap<>(map).forEach((k, v) -> out.append(out.length() > 1 ? "," : "").append(text(k)).append(':')
                .append(text(v)));
        return out.append('}').toString();
    }

    /** JSON with object keys sorted and every number written as its plain decimal value, so 1.50, 1.5 and 1.5e0 agree. */
    static String canonical(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return "null";
        }
        if (node.isObject()) {
            Map<String, JsonNode> fields = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                fields.put(field.getKey(), field.getValue());
            }
            StringBuilder out = new StringBuilder("{");
            fields.forEach((k, v) -> out.append(out.length() > 1 ? "," : "").append(text(k)).append(':')
                    .append(canonical(v)));
            return out.append('}').toString();
        }
        if (node.isArray()) {
            StringBuilder out = new StringBuilder("[");
            for (JsonNode item : node) {
                out.append(out.length() > 1 ? "," : "").append(canonical(item));
            }
            return out.append(']').toString();
        }
        if (node.isNumber()) {
            return node.decimalValue().stripTrailingZeros().toPlainString();
        }
        if (node.isBoolean()) {
            return node.asText();
        }
        return text(node.asText());
    }

    private static String text(Object value) {
        return value == null ? "null" : new TextNode(value.toString()).toString();
    }

    private static String millis(Instant at) {
        return at == null ? "null" : Long.toString(at.toEpochMilli());
    }

    private static String mac(SecretKey key, String fields) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(key);
            return Base64.getEncoder().encodeToString(hmac.doFinal(fields.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    private static boolean matches(String given, String expected) {
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }
}
