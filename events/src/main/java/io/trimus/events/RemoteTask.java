package io.trimus.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.time.Instant;
import java.util.UUID;

/**
 * {@code io.trimus.remote.task.v1} on {@link Topics#REMOTE_TASKS}: the adapter service hands a {@code remote} run to
 * the workers that carry {@code worker_tag}. Keyed by the tag, so one tag's tasks share a partition and one member of
 * that tag's consumer group receives each. {@code request} is the run request as run-service sent it, except that its
 * adapter_type and adapter_config are the inner ones the worker runs; its sealed secrets travel unchanged (a worker
 * opens them with the dispatch key, TRIMUS_DISPATCH_KEY). A worker executes only a task whose {@code mac} and whose
 * request's {@code issuer_mac} verify ({@link io.trimus.events.secrets.TaskMacs}).
 *
 * @param id           event id (also the CloudEvent id)
 * @param runId        the run, equal to {@code request.run_id}
 * @param workerTag    the tag a worker must carry to claim it
 * @param claimBy      after this instant no worker may start it: the dispatcher has failed the run by then
 * @param dispatchedAt when the dispatcher published it
 * @param request      what the worker executes, as if it had come on trimus.run.requested
 * @param mac          the dispatcher's MAC over this envelope and the request's issuer MAC
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true) // changes are additive: a newer producer must not break this consumer
public record RemoteTask(UUID id, UUID runId, String workerTag, Instant claimBy, Instant dispatchedAt,
                         RunRequested request, String mac) {

    /** The same task with its MAC. */
    public RemoteTask withMac(String mac) {
        return new RemoteTask(id, runId, workerTag, claimBy, dispatchedAt, request, mac);
    }
}
