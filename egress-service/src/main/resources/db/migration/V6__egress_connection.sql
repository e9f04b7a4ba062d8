-- What a run talked to: one row per attributed proxy connection, written when it ended (in batches, by the
-- connection recorder). Never a byte of what was carried. Text from the wire is bounded and truncated by the writer
-- (a host name has at most 253 characters), so no record is refused for its length. Rows older than
-- TRIMUS_EGRESS_CONNECTIONS_RETENTION (30 days) are deleted by a scheduled job.
create table egress_connection (
    id          bigint       generated always as identity primary key,
    company_id  uuid         not null,
    run_id      uuid         not null,
    agent_id    uuid,
    sandbox_ip  varchar(45)  not null,
    way         varchar(16)  not null,
    host        varchar(253) not null,
    port        integer      not null,
    address     varchar(45),
    decision    varchar(16)  not null,
    reason      varchar(64)  not null,
    enforced    boolean      not null,
    bytes_out   bigint       not null,
    bytes_in    bigint       not null,
    started_at  timestamptz  not null,
    duration_ms bigint       not null
);
-- "what did this run talk to", newest first
create index egress_connection_run_idx on egress_connection (company_id, run_id, started_at desc, id desc);
-- a company's connections per hour (the dashboard chart)
create index egress_connection_company_started_idx on egress_connection (company_id, started_at) include (decision);
-- every company's connections per hour (the overview chart) and the retention job's delete
create index egress_connection_started_idx on egress_connection (started_at) include (decision);
