-- Issue 31: an agent may have an allowlist of its own, which narrows its company's (a sandbox of the agent reaches
-- only what both allow). One header row per agent whose list was ever set: own_list says whether the agent has one
-- now (DELETE of the list keeps the row with own_list false, so its revision keeps growing and a replica never brings
-- back an older state). Entries take the same normalised forms as the company's (allowlist_entry), text so that
-- every form the company's list accepts fits.
create table agent_allowlist (
    company_id uuid        not null,
    agent_id   uuid        not null,
    own_list   boolean     not null,
    revision   bigint      not null,
    updated_at timestamptz not null,
    primary key (company_id, agent_id)
);

create table agent_allowlist_entry (
    company_id uuid        not null,
    agent_id   uuid        not null,
    entry      text        not null,
    created_at timestamptz not null,
    primary key (company_id, agent_id, entry),
    foreign key (company_id, agent_id) references agent_allowlist (company_id, agent_id) on delete cascade
);

-- the same row-level security as the company's entries (V10)
select guard_company_rows('agent_allowlist', 'company_id');
select guard_company_rows('agent_allowlist_entry', 'company_id');

-- a change of an agent's list is a change of the policy, announced and counted like a company's (V12)
create trigger policy_revision_bump after insert or update or delete or truncate on agent_allowlist
    for each statement execute function policy_revision_bump();
alter table agent_allowlist enable always trigger policy_revision_bump;
create trigger policy_notify after insert or update or delete or truncate on agent_allowlist
    for each statement execute function policy_notify();
