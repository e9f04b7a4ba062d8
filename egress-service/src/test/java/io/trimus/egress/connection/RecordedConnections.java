package io.trimus.egress.connection;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link ConnectionRecorder} that keeps what it is handed, for tests of the proxy that need no database. */
public final class RecordedConnections implements ConnectionRecorder {
    private final List<ConnectionRecord> records = new CopyOnWriteArrayList<>();

    @Override
    public void record(ConnectionRecord connection) {
        records.add(connection);
    }

    /** Everything recorded so far, in order. */
    public List<ConnectionRecord> all() {
        return List.copyOf(records);
    }

    /** The records of connections to {@code host}. */
    public List<ConnectionRecord> to(String host) {
        return records.stream().filter(r -> host.equals(r.host())).toList();
    }

    /** Forgets everything recorded so far. */
    public void clear() {
        records.clear();
    }
}
