-- The operator summary and the denial count read every anomaly since a time: an index on last_seen that also
-- carries the grouped columns lets PostgreSQL answer both from the index, never from all rows.
create index egress_anomaly_last_seen_idx on egress_anomaly_events (last_seen) include (company_id, qname, count);
