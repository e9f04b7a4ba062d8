package io.trimus.egress.connection;

/**
 * Where the proxy hands every attributed connection when it ends. Called on event-loop threads: must never block.
 */
public interface ConnectionRecorder {
    /** Takes the record of a connection that ended. */
    void record(ConnectionRecord connection);
}
