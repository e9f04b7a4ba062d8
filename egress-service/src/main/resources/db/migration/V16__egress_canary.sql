-- Canaries (docs/egress.md#canaries): per company, a probe sandbox that tries what the company's policy must refuse
-- and one host it must let through. One row per canary; checks is the JSON array the adapter service reported.
create table egress_canary (
    id           uuid        primary key,
    company_id   uuid        not null,
    trigger      text        not null check (trigger in ('scheduled', 'manual')),
    status       text        not null check (status in ('running', 'passed', 'breached', 'failed')),
    requested_at timestamptz not null,
    finished_at  timestamptz,
    checks       text,
    error        text,
    instance     text
);
-- at most one running canary per company, whichever replica asked for it
create unique index egress_canary_one_running on egress_canary (company_id) where status = 'running';
create index egress_canary_latest on egress_canary (company_id, requested_at desc);
select guard_company_rows('egress_canary', 'company_id');
