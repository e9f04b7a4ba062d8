package io.trimus.adapter.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.exception.DockerException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * Turns what docker-java throws into one sentence a person can act on: no class names, no stack traces.
 */
public final class EngineErrors {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EngineErrors() {
    }

    /** Whether the failure means the engine could not be reached at all (as opposed to refusing a request). */
    public static boolean isUnreachable(Throwable failure) {
        if (failure instanceof DockerException) {
            return false;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The sentence for a failed engine call.
     *
     * @param host the engine endpoint, named when the engine cannot be reached
     * @param doing what the adapter was doing, e.g. "create the container"
     */
    public static String describe(Throwable failure, String host, String doing) {
        if (isUnreachable(failure)) {
            return "Docker engine unreachable at " + host + ": " + shortReason(failure);
        }
        if (failure instanceof DockerException docker) {
            return "the Docker engine could not " + doing + ": " + engineMessage(docker);
        }
        return "the Docker engine could not " + doing + " (unexpected error; see the adapter service log)";
    }

    /** The engine's own message from an error response, e.g. "network foo not found". */
    public static String engineMessage(DockerException e) {
        String text = e.getMessage() == null ? "" : e.getMessage();
        int brace = text.indexOf('{');
        if (brace >= 0) {
            try {
                JsonNode body = JSON.readTree(text.substring(brace));
                if (body.hasNonNull("message")) {
                    return body.get("message").asText().trim();
                }
            } catch (IOException ignored) {
                // not JSON: fall through to the raw text
            }
        }
        String raw = text.replaceFirst("^Status \\d+:\\s*", "").trim();
        return raw.isEmpty() ? "error " + e.getHttpStatus() : raw;
    }

    private static String shortReason(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof java.nio.file.NoSuchFileException || message.contains("no such file")) {
                return "the socket does not exist";
            }
            if (t instanceof ConnectException || message.contains("connection refused")) {
                return "connection refused";
            }
            if (t instanceof SocketTimeoutException || message.contains("timed out") || message.contains("timeout")) {
                return "no answer in time";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host";
            }
            if (t instanceof NoRouteToHostException) {
                return "no route to host";
            }
            if (message.contains("permission denied")) {
                return "permission denied on the socket";
            }
            if (message.contains("broken pipe") || message.contains("connection reset")) {
                return "the connection was lost";
            }
        }
        return "the connection failed";
    }
}
