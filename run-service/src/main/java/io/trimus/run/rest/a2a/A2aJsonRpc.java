package io.trimus.run.rest.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.a2a.spec.AuthenticatedExtendedCardNotConfiguredError;
import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.CancelTaskResponse;
import io.a2a.spec.DeleteTaskPushNotificationConfigRequest;
import io.a2a.spec.GetTaskPushNotificationConfigRequest;
import io.a2a.spec.ListTaskPushNotificationConfigRequest;
import io.a2a.spec.SetTaskPushNotificationConfigRequest;
import io.a2a.spec.GetAuthenticatedExtendedCardRequest;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.InternalError;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.InvalidParamsJsonMappingException;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONParseError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCErrorResponse;
import io.a2a.spec.JSONRPCRequest;
import io.a2a.spec.JSONRPCResponse;
import io.a2a.spec.IdJsonMappingException;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.MethodNotFoundError;
import io.a2a.spec.MethodNotFoundJsonMappingException;
import io.a2a.spec.NonStreamingJSONRPCRequest;
import io.a2a.spec.PushNotificationNotSupportedError;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.StreamingJSONRPCRequest;
import io.a2a.spec.TaskResubscriptionRequest;
import io.a2a.spec.UnsupportedOperationError;
import io.a2a.util.Utils;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.trimus.commons.access.StreamAccess;
import io.trimus.events.auth.Caller;
import io.trimus.run.config.TrimusConfig;
import io.trimus.run.repository.run.Run;
import io.trimus.run.service.a2a.A2aRefusal;
import io.trimus.run.service.a2a.A2aTasks;
import io.trimus.run.service.a2a.TaskMapping;
import io.trimus.run.service.a2a.TaskStreams;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;

/**
 * The JSON-RPC 2.0 side of a published agent's A2A endpoint: decodes a request with the SDK's own types, calls
 * {@link A2aTasks} and answers with the SDK's response types (HTTP 200 also for JSON-RPC errors). Streaming methods
 * answer with server-sent events, one JSON-RPC response each.
 */
@ApplicationScoped
public class A2aJsonRpc {
    private static final Logger LOG = Logger.getLogger(A2aJsonRpc.class);
    private static final Set<String> STREAMING = Set.of(SendStreamingMessageRequest.METHOD,
            TaskResubscriptionRequest.METHOD);

    private final A2aTasks tasks;
    private final TaskStreams streams;
    private final TrimusConfig.A2a config;

    A2aJsonRpc(A2aTasks tasks, TaskStreams streams, TrimusConfig config) {
        this.tasks = tasks;
        this.streams = streams;
        this.config = config.a2a();
    }

    /**
     * The answer to one JSON-RPC request of {@code who} (which tasks it sees: {@link A2aTasks#get}) to agent
     * {@code agentId} of {@code companyId}; a stream or a blocking send holds one of the company's and one of the
     * caller's places while it lasts.
     */
    Uni<A2aAnswer> answer(UUID companyId, UUID agentId, byte[] body, Caller who, StreamAccess.Holder caller) {
        JsonNode node;
        try {
            node = Utils.OBJECT_MAPPER.readTree(body);
        } catch (IOException e) {
            return error(null, new JSONParseError("the body is not JSON"));
        }
        if (node == null || !node.isObject()) {
            return error(null, new InvalidRequestError("the body must be one JSON-RPC 2.0 request object"));
        }
        JsonNode method = node.get("method");
        boolean streaming = method != null && method.isTextual() && STREAMING.contains(method.asText());
        JSONRPCRequest<?> request;
        try {
            request = streaming ? Utils.OBJECT_MAPPER.treeToValue(node, StreamingJSONRPCRequest.class)
                    : Utils.OBJECT_MAPPER.treeToValue(node, NonStreamingJSONRPCRequest.class);
        } catch (JsonProcessingException e) {
            return error(idOf(e), errorOf(e));
        } catch (RuntimeException e) {   // the SDK's constructors refuse e.g. a request without params
            return error(idOf(node), new InvalidParamsError("the params are missing or invalid"));
        }
        Object id = request.getId();
        Uni<A2aAnswer> answer = Uni.createFrom().deferred(() -> streaming
                ? stream(companyId, agentId, request, who, caller) : call(companyId, agentId, request, who, caller));
        return answer.onFailure(A2aRefusal.class).recoverWithUni(e -> streaming
                        ? Uni.createFrom().item(events(Multi.createFrom().item(
                                new JSONRPCErrorResponse(id, ((A2aRefusal) e).error()))))
                        : error(id, ((A2aRefusal) e).error()))
                .onFailure(e -> !(e instanceof A2aRefusal)).recoverWithUni(e -> {
                    LOG.errorf(e, "A2A call %s to agent %s of company %s failed", request.getMethod(), agentId,
                            companyId);
                    return error(id, new InternalError("the call failed inside Trimus; try again later"));
                });
    }

    private Uni<A2aAnswer> call(UUID companyId, UUID agentId, JSONRPCRequest<?> request, Caller who,
                                StreamAccess.Holder caller) {
        Object id = request.getId();
        if (request instanceof SendMessageRequest send) {
            MessageSendParams params = send.getParams();
            if (params.configuration() != null && params.configuration().pushNotificationConfig() != null) {
                return error(id, new PushNotificationNotSupportedError());
            }
            boolean blocking = params.configuration() != null
                    && Boolean.TRUE.equals(params.configuration().blocking());
            if (blocking) {
                return blockingSend(companyId, agentId, who, params, id, streams.take(companyId, caller));
            }
            return tasks.start(companyId, agentId, who, params.message())
                    .map(run -> json(new SendMessageResponse(id, TaskMapping.task(run))));
        }
        if (request instanceof GetTaskRequest get) {
            return tasks.get(companyId, agentId, who, get.getParams().id())
                    .map(run -> json(new GetTaskResponse(id, TaskMapping.task(run, get.getParams().historyLength()))));
        }
        if (request instanceof CancelTaskRequest cancel) {
            return cancelAndWait(companyId, agentId, who, cancel.getParams().id(), id, streams.take(companyId, caller));
        }
        if (request instanceof GetAuthenticatedExtendedCardRequest) {
            return error(id, new AuthenticatedExtendedCardNotConfiguredError());
        }
        if (request instanceof SetTaskPushNotificationConfigRequest || request instanceof GetTaskPushNotificationConfigRequest
                || request instanceof ListTaskPushNotificationConfigRequest
                || request instanceof DeleteTaskPushNotificationConfigRequest) {
            return error(id, new PushNotificationNotSupportedError());
        }
        return error(id, new UnsupportedOperationError());
    }

    // Holds its places like a stream (taken before the run starts, so a refused call starts nothing); a caller no
    // longer admitted while it waits gets an error instead of the task
    private Uni<A2aAnswer> blockingSend(UUID companyId, UUID agentId, Caller who, MessageSendParams params, Object id,
                                        StreamAccess.Lease lease) {
        return onceEnded(tasks.start(companyId, agentId, who, params.message()), config.blockingWait(), lease)
                .map(run -> json(new SendMessageResponse(id, TaskMapping.task(run))));
    }

    // Answers the cancelled task (the conformance kit expects it): waits for the run to end, at most
    // A2aTasks.CANCEL_WAIT, holding a place like a blocking send, so cancels cannot pile up waits that poll the database
    private Uni<A2aAnswer> cancelAndWait(UUID companyId, UUID agentId, Caller who, String taskId, Object id,
                                         StreamAccess.Lease lease) {
        return onceEnded(tasks.cancel(companyId, agentId, who, taskId), A2aTasks.CANCEL_WAIT, lease)
                .map(run -> json(new CancelTaskResponse(id, TaskMapping.task(run))));
    }

    /**
     * The run {@code first} gives, once it has ended or after {@code wait}, while the lease's caller stays admitted;
     * gives the lease back at the end, and fails with a JSON-RPC error when the caller lost its access meanwhile.
     */
    private Uni<Run> onceEnded(Uni<Run> first, Duration wait, StreamAccess.Lease lease) {
        return first.flatMap(run -> lease.guard(tasks.awaitEnd(run, wait).toMulti()).toUni())
                .onTermination().invoke(lease::giveBack)
                .map(run -> {
                    if (run == null) {
                        throw new A2aRefusal(new InternalError("this call's credential no longer allows it (revoked,"
                                + " expired, or its role in the company lowered) while it waited for the task"));
                    }
                    return run;
                });
    }

    private Uni<A2aAnswer> stream(UUID companyId, UUID agentId, JSONRPCRequest<?> request, Caller who,
                                  StreamAccess.Holder caller) {
        Object id = request.getId();
        StreamAccess.Lease lease = streams.take(companyId, caller);
        Uni<Run> first = request instanceof SendStreamingMessageRequest send
                ? tasks.start(companyId, agentId, who, send.getParams().message())
                : tasks.get(companyId, agentId, who, ((TaskResubscriptionRequest) request).getParams().id());
        return first.onFailure().invoke(lease::giveBack).onCancellation().invoke(lease::giveBack)
                .map(run -> events(streams.follow(run, lease)
                        .map(event -> new SendStreamingMessageResponse(id, event))));
    }

    private A2aAnswer events(Multi<? extends JSONRPCResponse<?>> responses) {
        return A2aAnswer.events(responses.map(Utils::toJsonString), config.streamKeepalive());
    }

    private static A2aAnswer json(JSONRPCResponse<?> response) {
        return A2aAnswer.json(200, "application/json", Utils.toJsonString(response));
    }

    private static Uni<A2aAnswer> error(Object id, JSONRPCError error) {
        return Uni.createFrom().item(json(new JSONRPCErrorResponse(id, error)));
    }

    /** The JSON-RPC error of a request the SDK's types refused, as the SDK's own server maps it. */
    private static JSONRPCError errorOf(JsonProcessingException e) {
        if (e instanceof MethodNotFoundJsonMappingException) {
            return new MethodNotFoundError();
        }
        if (e instanceof InvalidParamsJsonMappingException) {
            return new InvalidParamsError("the params do not fit the method");
        }
        return new InvalidRequestError("not a valid JSON-RPC 2.0 request");
    }

    private static Object idOf(JsonProcessingException e) {
        return e instanceof IdJsonMappingException known ? known.getId() : null;
    }

    private static Object idOf(JsonNode node) {
        JsonNode id = node.get("id");
        return id != null && id.isTextual() ? id.asText() : id != null && id.canConvertToInt() && id.isIntegralNumber()
                ? Integer.valueOf(id.asInt()) : null;
    }
}
