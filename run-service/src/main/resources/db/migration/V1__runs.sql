-- Companies, their agents, runs, and the transactional outbox that publishes run requests.
create table company (
    id         uuid primary key,
    name       varchar(200) not null,
    created_at timestamptz  not null
);

create table agent (
    id             uuid primary key,
    company_id     uuid         not null references company (id),
    name           varchar(200) not null,
    adapter_type   varchar(32)  not null,
    adapter_config text         not null,
    created_at     timestamptz  not null
);
create index agent_company_idx on agent (company_id, created_at desc);

create table run (
    id            uuid primary key,
    company_id    uuid        not null references company (id),
    agent_id      uuid        not null references agent (id),
    adapter_type  varchar(32) not null,
    status        varchar(16) not null,
    issue_id      varchar(200),
    issue_title   text,
    issue_body    text,
    input         text,
    exit_code     integer,
    output        text,
    error         text,
    queued_at     timestamptz not null,
    dispatched_at timestamptz,
    started_at    timestamptz,
    finished_at   timestamptz
);
-- "latest runs of a company", optionally by status
create index run_company_queued_idx on run (company_id, queued_at desc, id);
create index run_company_status_idx on run (company_id, status, queued_at desc, id);

-- Rows are written in the same transaction as the change they announce; the relay publishes them in seq order.
create table outbox_event (
    seq          bigserial primary key,
    id           uuid         not null unique,
    topic        varchar(200) not null,
    message_key  varchar(200) not null,
    type         varchar(200) not null,
    payload      text         not null,
    created_at   timestamptz  not null,
    published_at timestamptz
);
create index outbox_unpublished_idx on outbox_event (seq) where published_at is null;

-- Ids of consumed events: a redelivered event is recognised and skipped.
create table processed_event (
    id           uuid primary key,
    processed_at timestamptz not null
);
