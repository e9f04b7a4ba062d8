package io.trimus.egress.connection;

/** What a run's connections add up to: how many, how many allowed and refused, bytes each way. */
public record ConnectionTotals(long connections, long allowed, long refused, long bytesOut, long bytesIn) {
    static ConnectionTotals of(Object[] row) {
        return new ConnectionTotals(number(row[0]), number(row[1]), number(row[2]), number(row[3]), number(row[4]));
    }

    static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
