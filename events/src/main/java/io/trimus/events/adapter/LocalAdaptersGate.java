package io.trimus.events.adapter;

/**
 * TRIMUS_LOCAL_ADAPTERS: whether claude_local / codex_local (host processes, no isolation) may be used. Read by
 * run-service (creating such an agent) and the adapter service (dispatching one).
 */
public enum LocalAdaptersGate {
    /** Default: such agents cannot be created, and a run of one is REJECTED. */
    OFF,
    /** Allowed, with a deprecation warning logged for every run. */
    WARN,
    /** Allowed. */
    ON;

    /** Whether the adapter type is a host-process adapter this gate governs. */
    public static boolean governs(AdapterType type) {
        return type == AdapterType.CLAUDE_LOCAL || type == AdapterType.CODEX_LOCAL;
    }

    /** The sentence a client gets when the gate is off. */
    public static String refusal(AdapterType type) {
        return type.wireName() + " runs the CLI as a host process without isolation and is off on this Trimus"
                + " (TRIMUS_LOCAL_ADAPTERS=off); use " + type.wireName().replace("_local", "_sandbox")
                + ", or ask the operator to set TRIMUS_LOCAL_ADAPTERS=warn on a trusted single-tenant host";
    }
}
