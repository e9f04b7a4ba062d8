package io.trimus.egress.connection;

import static io.trimus.egress.connection.ConnectionTotals.number;

/** A run's connections to one host and port: how many, bytes each way, how many were refused. */
public record HostTotals(String host, int port, long connections, long bytesOut, long bytesIn, long refused) {
    static HostTotals of(Object[] row) {
        return new HostTotals((String) row[0], (int) number(row[1]), number(row[2]), number(row[3]), number(row[4]),
                number(row[5]));
    }
}
