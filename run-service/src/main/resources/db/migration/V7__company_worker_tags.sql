-- Which worker tags the operator granted to which company: a remote agent may name only a tag its company holds, and
-- run-service vouches for the grant in the MAC of every remote run it issues.
create table company_worker_tag (
    company_id uuid        not null references company (id) on delete cascade,
    tag        varchar(64) not null,
    granted_at timestamptz not null,
    primary key (company_id, tag)
);

-- Remote agents written before grants existed keep working: their company is granted the tags they already name.
-- The operator revokes what it did not mean to give (DELETE /api/companies/{id}/worker-tags/{tag}).
insert into company_worker_tag (company_id, tag, granted_at)
select distinct company_id, adapter_config ->> 'worker_tag', now()
from agent
where adapter_type = 'remote' and adapter_config ->> 'worker_tag' ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
