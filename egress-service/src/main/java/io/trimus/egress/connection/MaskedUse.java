package io.trimus.egress.connection;

import static io.trimus.egress.connection.ConnectionTotals.number;

/** How many requests of a run had one masked secret swapped in for one host. */
public record MaskedUse(String secret, String host, long requests) {
    static MaskedUse of(Object[] row) {
        return new MaskedUse((String) row[0], (String) row[1], number(row[2]));
    }
}
