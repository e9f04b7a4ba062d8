package io.trimus.events;

import java.util.Set;

/**
 * Where the JSON Schema (draft 2020-12) of each event type lives on the classpath, so a service's tests
 * can check what it publishes against the contract that outside consumers read. Draft 2020-12 validators treat
 * {@code format} (uuid, date-time) as a mere annotation unless told to assert it, e.g. networknt's
 * {@code formatAssertionsEnabled(true)}.
 */
public final class EventSchemas {
    /** Classpath resource of the AsyncAPI 3 document that describes the topics and points at the schemas. */
    public static final String ASYNCAPI = "asyncapi.yaml";

    private static final Set<String> TYPES = Set.of(EventTypes.RUN_REQUESTED, EventTypes.RUN_STATUS,
            EventTypes.RUN_CANCEL, EventTypes.REMOTE_TASK, EventTypes.WORKER_HEARTBEAT, EventTypes.ADAPTER_LEASE,
            EventTypes.EGRESS_ANOMALY, EventTypes.EGRESS_CANARY_REQUESTED, EventTypes.EGRESS_CANARY_RESULT,
            EventTypes.AUDIT_RECORD);

    private EventSchemas() {
    }

    /** The event types that have a schema. */
    public static Set<String> types() {
        return TYPES;
    }

    /**
     * The classpath resource of the schema of {@code eventType}, e.g. {@code schemas/io.trimus.run.status.v1.json};
     * open it with {@code EventSchemas.class.getClassLoader().getResourceAsStream(...)}.
     *
     * @throws IllegalArgumentException when the type has no schema
     */
    public static String resourcePath(String eventType) {
        if (eventType == null || !TYPES.contains(eventType)) {
            throw new IllegalArgumentException("no schema for event type " + eventType + " (known: "
                    + String.join(", ", TYPES.stream().sorted().toList()) + ")");
        }
        return "schemas/" + eventType + ".json";
    }
}
