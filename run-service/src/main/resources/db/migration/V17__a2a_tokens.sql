-- Issue 35: A2A-only tokens. a2a_agents: for a company token that may call the A2A endpoints of these agents and
-- nothing else (no REST endpoint, no other agent, no other service), their ids, comma-separated; null for every other
-- credential. Such a token acts as a member (A2A calls start runs) of its one company. Row-level security: the policy
-- of V11 applies to whole rows of credential; the afterMigrate callback grants the new column.
alter table credential add column a2a_agents text
    check (a2a_agents is null
           or (kind = 'token' and role = 'member' and company_id is not null and char_length(a2a_agents) <= 1000
               and a2a_agents ~ '^[0-9a-f-]{36}(,[0-9a-f-]{36})*$'));
