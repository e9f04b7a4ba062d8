package io.trimus.commons.rows;

/** Whose rows a {@link TenantTransaction} may read and write under PostgreSQL's row-level security. */
public enum Rows {
    /**
     * The rows of the request's caller: the one company the request names, or every company of the caller when it
     * names none; every company for an operator or Trimus's own service credential; nothing without a caller.
     */
    CALLER,
    /** Every company's rows: for Trimus's own background work (Kafka consumers, relays, purges, sign-in lookups). */
    ALL_COMPANIES
}
