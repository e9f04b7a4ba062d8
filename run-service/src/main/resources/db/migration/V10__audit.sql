-- The audit log: every change to what a company or the platform may do, with who, when and from where. A record is
-- written in the transaction of its change (and its event to the outbox); records of other services (egress-service)
-- arrive on trimus.audit and are stored once by id. The record itself is kept as the JSON of io.trimus.audit.record.v1;
-- the columns beside it are what the API filters and pages on.
create table audit_record (
    id          uuid primary key,
    company_id  uuid,
    occurred_at timestamptz not null,
    action      varchar(64) not null,
    record      jsonb       not null
);
-- no foreign key to company: the trail outlives what it speaks of
create index audit_record_company_idx on audit_record (company_id, occurred_at desc, id desc);
create index audit_record_time_idx on audit_record (occurred_at desc, id desc);
