package io.trimus.adapter.support;

import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.server.ServerCallContext;
import io.a2a.server.agentexecution.AgentExecutor;
import io.a2a.server.auth.UnauthenticatedUser;
import io.a2a.server.events.InMemoryQueueManager;
import io.a2a.server.requesthandlers.DefaultRequestHandler;
import io.a2a.server.tasks.BasePushNotificationSender;
import io.a2a.server.tasks.InMemoryPushNotificationConfigStore;
import io.a2a.server.tasks.InMemoryTaskStore;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.NonStreamingJSONRPCRequest;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.transport.jsonrpc.handler.JSONRPCHandler;
import io.a2a.util.Utils;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/**
 * A2A peers for tests: a real HTTP server on a loopback address where each agent, at {@code /agents/<name>}, is the
 * A2A SDK's own server logic (DefaultRequestHandler with the test's AgentExecutor, JSONRPCHandler, SSE for
 * message/stream) or, for misbehaviour the SDK would never show, a raw handler. Every agent's card names a url on
 * {@code /card-named/} that must never be called. Records every request that arrived.
 */
public final class A2aPeerStandIn implements AutoCloseable {
    /** The card path, below an agent's url and at the host's root. */
    public static final String CARD = "/.well-known/agent-card.json";

    /** A misbehaving JSON-RPC endpoint: answers (or not) the request as it likes. */
    @FunctionalInterface
    public interface Raw {
        void answer(HttpServerRequest request, JsonNode rpc);
    }

    /**
     * A request as it arrived.
     *
     * @param method    HTTP method
     * @param path      the path
     * @param headers   header names in lower case, first value
     * @param rpcMethod the JSON-RPC method of a POST, else null
     */
    public record Request(String method, String path, Map<String, String> headers, String rpcMethod) {
    }

    private record Agent(AgentCard card, JSONRPCHandler sdk, Raw raw, boolean cardAtHostOnly) {
    }

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    private final String host;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Agent> agents = new ConcurrentHashMap<>();
    private final ExecutorService work = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "a2a-peer-stand-in");
        t.setDaemon(true);
        return t;
    });

    static {
        // the SDK checks a card's transports against those registered for its reference servers; here the test wires
        // JSON-RPC by hand, so there is nothing registered to find
        System.setProperty("io.a2a.transport.jsonrpc.skipValidation", "true");
    }

    private A2aPeerStandIn(String host) throws Exception {
        if (!host.startsWith("127.")) {
            throw new IllegalArgumentException("the stand-in listens on loopback only, not " + host);
        }
        this.host = host;
        this.server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(0))
                .requestHandler(request -> request.body().onSuccess(body -> handle(request, body)))
                .listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** A stand-in listening on {@code host} (127.x.y.z), on a free port. */
    public static A2aPeerStandIn start(String host) {
        try {
            return new A2aPeerStandIn(host);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the A2A peer stand-in on " + host, e);
        }
    }

    public int port() {
        return server.actualPort();
    }

    /** The A2A url of the named agent. */
    public String url(String agent) {
        return "http://" + host + ":" + port() + "/agents/" + agent;
    }

    /** Serves the agent with the SDK's server logic around {@code executor}. */
    public void agent(String name, boolean streaming, AgentExecutor executor) {
        AgentCard card = card(name, streaming);
        InMemoryTaskStore tasks = new InMemoryTaskStore();
        InMemoryPushNotificationConfigStore pushConfigs = new InMemoryPushNotificationConfigStore();
        DefaultRequestHandler handler = DefaultRequestHandler.create(executor, tasks, new InMemoryQueueManager(tasks),
                pushConfigs, new BasePushNotificationSender(pushConfigs), work);
        agents.put(name, new Agent(card, new JSONRPCHandler(card, handler, work), null, false));
    }

    /** Serves the agent's card only at the host's well-known path (its own answers 404), with the SDK's logic. */
    public void agentWithHostCard(String name, boolean streaming, AgentExecutor executor) {
        agent(name, streaming, executor);
        Agent agent = agents.get(name);
        agents.put(name, new Agent(agent.card, agent.sdk, null, true));
    }

    /** Serves the agent's card, and answers its JSON-RPC calls with {@code raw}. */
    public void raw(String name, boolean streaming, Raw raw) {
        agents.put(name, new Agent(card(name, streaming), null, raw, false));
    }

    /** Every request that arrived so far. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The requests that arrived at the named agent's url (its card's included). */
    public List<Request> requests(String agent) {
        String prefix = "/agents/" + agent;
        return requests.stream().filter(r -> r.path().equals(prefix) || r.path().startsWith(prefix + "/")).toList();
    }

    /** The JSON-RPC methods the named agent was called with, in order. */
    public List<String> rpcMethods(String agent) {
        return requests(agent).stream().map(Request::rpcMethod).filter(m -> m != null).toList();
    }

    private AgentCard card(String name, boolean streaming) {
        return new AgentCard.Builder()
                .name(name)
                .description("a test peer")
                .url("http://" + host + ":" + port() + "/card-named/" + name)
                .version("1.0")
                .capabilities(new AgentCapabilities(streaming, false, false, List.of()))
                .defaultInputModes(List.of("text"))
                .defaultOutputModes(List.of("text"))
                .skills(List.of(new AgentSkill.Builder().id("run").name("run").description("runs it")
                        .tags(List.of("test")).build()))
                .build();
    }

    private void handle(HttpServerRequest request, Buffer body) {
        Map<String, String> headers = new HashMap<>();
        request.headers().forEach(h -> headers.putIfAbsent(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
        JsonNode rpc = null;
        if (request.method().name().equals("POST")) {
            try {
                rpc = Utils.OBJECT_MAPPER.readTree(body.toString());
            } catch (Exception e) {
                rpc = null;
            }
        }
        requests.add(new Request(request.method().name(), request.path(), Map.copyOf(headers),
                rpc == null ? null : rpc.path("method").asText(null)));
        String path = request.path();
        if (path.equals(CARD)) {
            agents.values().stream().filter(Agent::cardAtHostOnly).findFirst()
                    .ifPresentOrElse(a -> json(request.response(), 200, a.card), () -> notFound(request));
            return;
        }
        if (!path.startsWith("/agents/")) {
            notFound(request);
            return;
        }
        String rest = path.substring("/agents/".length());
        int slash = rest.indexOf('/');
        Agent agent = agents.get(slash < 0 ? rest : rest.substring(0, slash));
        String below = slash < 0 ? "" : rest.substring(slash);
        if (agent == null) {
            notFound(request);
        } else if (below.equals(CARD) && !agent.cardAtHostOnly) {
            json(request.response(), 200, agent.card);
        } else if (below.isEmpty() && rpc != null && agent.raw != null) {
            agent.raw.answer(request, rpc);
        } else if (below.isEmpty() && rpc != null) {
            sdk(agent.sdk, request, rpc, headers);
        } else {
            notFound(request);
        }
    }

    private void sdk(JSONRPCHandler handler, HttpServerRequest request, JsonNode rpc, Map<String, String> headers) {
        ServerCallContext context = new ServerCallContext(UnauthenticatedUser.INSTANCE,
                new HashMap<>(Map.of("headers", headers)), Set.of());
        HttpServerResponse response = request.response();
        work.execute(() -> {
            try {
                if (SendStreamingMessageRequest.METHOD.equals(rpc.path("method").asText())) {
                    stream(handler.onMessageSendStream(Utils.OBJECT_MAPPER.treeToValue(rpc,
                            SendStreamingMessageRequest.class), context), response);
                    return;
                }
                NonStreamingJSONRPCRequest<?> call = Utils.OBJECT_MAPPER.treeToValue(rpc,
                        NonStreamingJSONRPCRequest.class);
                Object answer;
                if (call instanceof SendMessageRequest send) {
                    answer = handler.onMessageSend(send, context);
                } else if (call instanceof GetTaskRequest get) {
                    answer = handler.onGetTask(get, context);
                } else if (call instanceof CancelTaskRequest cancel) {
                    answer = handler.onCancelTask(cancel, context);
                } else {
                    response.setStatusCode(400).end();
                    return;
                }
                json(response, 200, answer);
            } catch (Exception e) {
                response.setStatusCode(500).end(String.valueOf(e));
            }
        });
    }

    private static void stream(Flow.Publisher<SendStreamingMessageResponse> events, HttpServerResponse response) {
        response.setChunked(true).putHeader("Content-Type", "text/event-stream");
        events.subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(SendStreamingMessageResponse item) {
                try {
                    response.write("data: " + Utils.OBJECT_MAPPER.writeValueAsString(item) + "\n\n");
                } catch (Exception e) {
                    response.reset();
                }
            }

            @Override
            public void onError(Throwable throwable) {
                response.reset();
            }

            @Override
            public void onComplete() {
                if (!response.ended() && !response.closed()) {
                    response.end();
                }
            }
        });
    }

    private static void json(HttpServerResponse response, int status, Object value) {
        try {
            response.setStatusCode(status).putHeader("Content-Type", "application/json")
                    .end(Utils.OBJECT_MAPPER.writeValueAsString(value));
        } catch (Exception e) {
            response.setStatusCode(500).end();
        }
    }

    private static void notFound(HttpServerRequest request) {
        request.response().setStatusCode(404).end();
    }

    @Override
    public void close() {
        work.shutdownNow();
        vertx.close().toCompletionStage().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).join();
    }
}
