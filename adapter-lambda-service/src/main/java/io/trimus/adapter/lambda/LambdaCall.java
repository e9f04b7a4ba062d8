package io.trimus.adapter.lambda;

import io.trimus.events.RunRequested;
import io.trimus.events.adapter.LambdaAdapterConfig;
import io.trimus.events.secrets.Redactor;

import java.net.InetAddress;
import java.util.Map;

/**
 * Everything decided about one lambda run before the call.
 *
 * @param run      the request
 * @param config   the agent's lambda config
 * @param literal  the endpoint's address when its host is an IP literal (already judged), else null: the host is
 *                 resolved when the run leaves the queue
 * @param headers  every header Trimus adds to the agent's, the auth header's secret value included
 * @param payload  the request body, the same for every attempt
 * @param redactor masks the run's secrets in what it reports
 */
public record LambdaCall(RunRequested run, LambdaAdapterConfig config, InetAddress literal, Map<String, String> headers,
                         byte[] payload, Redactor redactor) {

    public LambdaCall {
        headers = Map.copyOf(headers);
    }

    /** Never prints the headers: one of them may hold a secret. */
    @Override
    public String toString() {
        return "LambdaCall[run=" + run.runId() + ", host=" + config.host() + ", timeoutMs=" + config.timeoutMs() + "]";
    }
}
