package io.trimus.egress.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.KeyCertOptions;

import javax.net.ssl.X509ExtendedKeyManager;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The model providers as the real CLIs see them, served over HTTPS from this JVM under their own names
 * ({@value #ANTHROPIC}, {@value #OPENAI}; the test's upstream DNS points them here): Anthropic's Messages API and
 * OpenAI's Responses API, streamed (server-sent events) or not, answering every prompt with one canned text and fixed
 * token counts. Every request is recorded with its credential ({@code x-api-key} or {@code Authorization}), so a test
 * can say which hosts and paths a CLI used and that only real keys arrived. Model calls are held until
 * {@link #release()} (so a test can look at the running container first); anything else is answered at once, 404 for
 * paths a provider does not serve here.
 */
final class ProviderStandIn implements AutoCloseable {
    static final String ANTHROPIC = "api.anthropic.com";
    static final String OPENAI = "api.openai.com";
    /** The answer of every model call. */
    static final String ANSWER_ANTHROPIC = "Hello from the Anthropic stand-in.";
    static final String ANSWER_OPENAI = "Hello from the OpenAI stand-in.";
    static final int INPUT_TOKENS = 1234;
    static final int OUTPUT_TOKENS = 56;
    static final int CACHED_TOKENS = 100;

    /** One request as the provider received it. */
    record Seen(String host, String method, String path, String credential) {
        boolean isModelCall() {
            return path.startsWith("/v1/messages") || path.startsWith("/v1/responses");
        }

        @Override
        public String toString() {
            return host + " " + method + " " + path;
        }
    }

    private final Vertx vertx;
    private final HttpServer server;
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final AtomicBoolean released = new AtomicBoolean();

    ProviderStandIn(String address, X509ExtendedKeyManager certificate) throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer(new HttpServerOptions().setSsl(true)
                        .setKeyCertOptions(KeyCertOptions.wrap(certificate)))
                .requestHandler(request -> request.body().onSuccess(body -> handle(request, body)))
                .listen(443, address).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** Every request received so far. */
    List<Seen> seen() {
        return List.copyOf(seen);
    }

    /** Lets held model calls (and every later one) be answered. */
    void release() {
        released.set(true);
    }

    private void handle(HttpServerRequest request, Buffer body) {
        String host = request.authority() == null ? "" : request.authority().host().toLowerCase(Locale.ROOT);
        String credential = request.getHeader("x-api-key") != null ? "x-api-key " + request.getHeader("x-api-key")
                : String.valueOf(request.getHeader("Authorization"));
        Seen one = new Seen(host, request.method().name(), request.path(), credential);
        seen.add(one);
        if (!one.isModelCall()) {
            request.response().setStatusCode(404).putHeader("content-type", "application/json")
                    .end("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"not here\"}}");
            return;
        }
        whenReleased(() -> answer(request, host, body), 600);
    }

    private void whenReleased(Runnable then, int triesLeft) {
        if (released.get() || triesLeft == 0) {
            then.run();
        } else {
            vertx.setTimer(100, t -> whenReleased(then, triesLeft - 1));
        }
    }

    private void answer(HttpServerRequest request, String host, Buffer body) {
        JsonNode json;
        try {
            json = SandboxRuns.JSON.readTree(body.getBytes());
        } catch (Exception e) {
            request.response().setStatusCode(400).end();
            return;
        }
        boolean stream = json.path("stream").asBoolean(false);
        String model = json.path("model").asText("stand-in-model");
        if (host.equals(OPENAI)) {
            openAi(request, model, stream);
        } else {
            anthropic(request, model, stream);
        }
    }

    private static void anthropic(HttpServerRequest request, String model, boolean stream) {
        ObjectNode usage = SandboxRuns.JSON.createObjectNode().put("input_tokens", INPUT_TOKENS)
                .put("output_tokens", OUTPUT_TOKENS).put("cache_creation_input_tokens", 0)
                .put("cache_read_input_tokens", CACHED_TOKENS);
        if (!stream) {
            ObjectNode message = message(model, usage);
            message.putArray("content").addObject().put("type", "text").put("text", ANSWER_ANTHROPIC);
            message.put("stop_reason", "end_turn");
            request.response().putHeader("content-type", "application/json").end(message.toString());
            return;
        }
        ObjectNode start = SandboxRuns.JSON.createObjectNode().put("type", "message_start");
        ObjectNode message = message(model, usage.deepCopy().put("output_tokens", 1));
        message.putArray("content");
        message.putNull("stop_reason");
        start.set("message", message);
        ObjectNode blockStart = SandboxRuns.JSON.createObjectNode().put("type", "content_block_start").put("index", 0);
        blockStart.putObject("content_block").put("type", "text").put("text", "");
        ObjectNode delta = SandboxRuns.JSON.createObjectNode().put("type", "content_block_delta").put("index", 0);
        delta.putObject("delta").put("type", "text_delta").put("text", ANSWER_ANTHROPIC);
        ObjectNode messageDelta = SandboxRuns.JSON.createObjectNode().put("type", "message_delta");
        messageDelta.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
        messageDelta.putObject("usage").put("output_tokens", OUTPUT_TOKENS);
        String events = sse("message_start", start) + sse("content_block_start", blockStart)
                + sse("content_block_delta", delta)
                + sse("content_block_stop", SandboxRuns.JSON.createObjectNode().put("type", "content_block_stop")
                        .put("index", 0))
                + sse("message_delta", messageDelta)
                + sse("message_stop", SandboxRuns.JSON.createObjectNode().put("type", "message_stop"));
        request.response().putHeader("content-type", "text/event-stream").end(events);
    }

    private static ObjectNode message(String model, ObjectNode usage) {
        ObjectNode message = SandboxRuns.JSON.createObjectNode().put("id", "msg_standin").put("type", "message")
                .put("role", "assistant").put("model", model);
        message.putNull("stop_sequence");
        message.set("usage", usage);
        return message;
    }

    private static void openAi(HttpServerRequest request, String model, boolean stream) {
        ObjectNode item = SandboxRuns.JSON.createObjectNode().put("type", "message").put("id", "msg_standin")
                .put("role", "assistant").put("status", "completed");
        item.putArray("content").addObject().put("type", "output_text").put("text", ANSWER_OPENAI)
                .putArray("annotations");
        ObjectNode response = SandboxRuns.JSON.createObjectNode().put("id", "resp_standin").put("object", "response")
                .put("status", "completed").put("model", model);
        ObjectNode usage = response.putObject("usage").put("input_tokens", INPUT_TOKENS)
                .put("output_tokens", OUTPUT_TOKENS).put("total_tokens", INPUT_TOKENS + OUTPUT_TOKENS);
        usage.putObject("input_tokens_details").put("cached_tokens", CACHED_TOKENS);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        if (!stream) {
            response.putArray("output").add(item);
            request.response().putHeader("content-type", "application/json").end(response.toString());
            return;
        }
        ObjectNode created = SandboxRuns.JSON.createObjectNode().put("type", "response.created");
        created.set("response", response.deepCopy().put("status", "in_progress").putNull("usage"));
        ObjectNode done = SandboxRuns.JSON.createObjectNode().put("type", "response.output_item.done")
                .put("output_index", 0);
        done.set("item", item);
        ObjectNode completed = SandboxRuns.JSON.createObjectNode().put("type", "response.completed");
        completed.set("response", response.deepCopy().set("output", SandboxRuns.JSON.createArrayNode().add(item)));
        request.response().putHeader("content-type", "text/event-stream")
                .end(sse("response.created", created) + sse("response.output_item.done", done)
                        + sse("response.completed", completed));
    }

    private static String sse(String event, JsonNode data) {
        return "event: " + event + "\ndata: " + data + "\n\n";
    }

    @Override
    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
