-- Per-company allowlists and the persisted anomaly events of the egress resolver.

-- One row per company that ever stored an allowlist. The revision grows with every replacement: the upsert
-- serialises concurrent replacements of one company, and the in-memory cache applies only newer revisions,
-- so a late cache update can never bring back an older list.
create table allowlist (
    company_id uuid        primary key,
    revision   bigint      not null,
    updated_at timestamptz not null
);

-- Normalised entries: exact names or *.suffix wildcards (lower case, no trailing dot, punycode).
create table allowlist_entry (
    company_id uuid         not null references allowlist (company_id) on delete cascade,
    entry      varchar(260) not null,
    created_at timestamptz  not null,
    primary key (company_id, entry)
);

-- Denied lookups from trimus.egress.anomalies, one row per event id (the consumer inserts with
-- "on conflict (id) do nothing", so a redelivered event changes nothing). The sandbox columns are null for an
-- unattributed source. Free text from the wire is text, not varchar(n): no event is refused for its length.
create table egress_anomaly_events (
    id           uuid        primary key,
    company_id   uuid,
    agent_id     uuid,
    run_id       uuid,
    container_id text,
    source_ip    text        not null,
    qname        text        not null,
    qtype        text        not null,
    reason       text        not null,
    count        bigint      not null,
    first_seen   timestamptz not null,
    last_seen    timestamptz not null,
    received_at  timestamptz not null
);
-- "latest denials of a company", paged by last_seen
create index egress_anomaly_company_last_seen_idx on egress_anomaly_events (company_id, last_seen desc, id);
