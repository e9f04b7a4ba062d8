package io.trimus.adapter.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trimus.events.RunRequested;
import io.trimus.events.RunState;
import io.trimus.events.adapter.LambdaAdapterConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The lambda payload and response contract, both directions in one place (docs/adapters.md, "The lambda adapter").
 *
 * <p>Request: {@code {run_id, company_id, agent_id, issue: {id, title, body} | null, input | null,
 * context: {adapter_type, requested_at, timeout_ms}}}, with {@code Idempotency-Key: <run_id>}. The body is the same for
 * every attempt of a run, so an endpoint that honours the key sees retries as one request.
 *
 * <p>Answer: a 2xx with {@code {"status": "succeeded" | "failed", "output": string?, "exit_code": integer?}}; unknown
 * fields are ignored. Anything else fails the run with a reason saying what was wrong.
 */
public final class LambdaContract {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHAPE = "the contract is {\"status\": \"succeeded\" | \"failed\", \"output\": string,"
            + " \"exit_code\": integer}";

    private LambdaContract() {
    }

    /** The request body of a run. */
    public static byte[] payload(RunRequested run, LambdaAdapterConfig config) {
        ObjectNode body = JSON.createObjectNode();
        body.put("run_id", String.valueOf(run.runId()));
        body.put("company_id", String.valueOf(run.companyId()));
        body.put("agent_id", String.valueOf(run.agentId()));
        if (run.issue() == null) {
            body.putNull("issue");
        } else {
            body.putObject("issue").put("id", run.issue().id()).put("title", run.issue().title())
                    .put("body", run.issue().body());
        }
        body.put("input", run.input());
        ObjectNode context = body.putObject("context");
        context.put("adapter_type", "lambda");
        context.put("requested_at", run.requestedAt() == null ? null : run.requestedAt().toString());
        context.put("timeout_ms", config.timeoutMs());
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What an answer means for the run. Output and reasons are as the endpoint sent them: capping and redaction are
     * the caller's.
     */
    public static Outcome answer(int status, byte[] body) {
        String text = body.length == 0 ? null : new String(body, StandardCharsets.UTF_8);
        if (status < 200 || status > 299) {
            String reason = "endpoint answered HTTP " + status;
            return Outcome.failed(null, text, status >= 300 && status < 400 ? reason + "; redirects are not followed"
                    : reason);
        }
        JsonNode answer;
        try {
            answer = text == null ? null : JSON.readTree(body);
        } catch (IOException e) {
            answer = null;
        }
        if (answer == null || answer.isMissingNode()) {
            return Outcome.failed(null, text, "endpoint answered HTTP " + status + (text == null ? " without a body"
                    : " with a body that is not JSON") + "; " + SHAPE);
        }
        if (!answer.isObject()) {
            return Outcome.failed(null, text, "endpoint answered HTTP " + status + " with JSON that is not an object; "
                    + SHAPE);
        }
        JsonNode state = answer.get("status");
        if (state == null || !state.isTextual() || !(state.asText().equals("succeeded")
                || state.asText().equals("failed"))) {
            return Outcome.failed(null, text, "endpoint answered HTTP " + status + " without status \"succeeded\" or"
                    + " \"failed\"; " + SHAPE);
        }
        JsonNode output = answer.get("output");
        if (output != null && !output.isNull() && !output.isTextual()) {
            return Outcome.failed(null, text, "endpoint answered with an output that is not a string; " + SHAPE);
        }
        JsonNode exit = answer.get("exit_code");
        if (exit != null && !exit.isNull() && !(exit.isIntegralNumber() && exit.canConvertToInt())) {
            return Outcome.failed(null, text, "endpoint answered with an exit_code that is not an integer; " + SHAPE);
        }
        String out = output == null || output.isNull() ? null : output.asText();
        Integer exitCode = exit == null || exit.isNull() ? null : exit.asInt();
        return state.asText().equals("succeeded")
                ? new Outcome(RunState.SUCCEEDED, exitCode, out, null)
                : Outcome.failed(exitCode, out, "the endpoint reported the run failed"
                        + (exitCode == null ? "" : " with exit code " + exitCode));
    }

    /**
     * How a lambda run ended.
     *
     * @param state    SUCCEEDED, FAILED, TIMED_OUT, CANCELLED or REJECTED
     * @param exitCode the endpoint's exit_code, if it sent one
     * @param output   the endpoint's output (or the body of an answer that broke the contract), uncapped, unredacted
     * @param error    why the run did not succeed, in one sentence; null on success
     */
    public record Outcome(RunState state, Integer exitCode, String output, String error) {
        static Outcome failed(Integer exitCode, String output, String error) {
            return new Outcome(RunState.FAILED, exitCode, output, error);
        }

        static Outcome of(RunState state, String error) {
            return new Outcome(state, null, null, error);
        }
    }
}
