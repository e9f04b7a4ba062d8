-- Which agents may use a company secret. all_agents = true (every existing secret, and any put without an agents
-- list) grants it to every agent of the company; otherwise exactly the agents in company_secret_grant may use it.
alter table company_secret add column all_agents boolean not null default true;

-- An agent is granted only secrets of its own company: the foreign key pairs the agent with the secret's company.
alter table agent add constraint agent_id_company_uq unique (id, company_id);

create table company_secret_grant (
    company_id  uuid         not null,
    secret_name varchar(128) not null,
    agent_id    uuid         not null,
    primary key (company_id, secret_name, agent_id),
    foreign key (company_id, secret_name) references company_secret (company_id, name) on delete cascade,
    foreign key (agent_id, company_id) references agent (id, company_id)
);
-- run acceptance asks "which of these secrets is this agent granted?"
create index company_secret_grant_agent_idx on company_secret_grant (company_id, agent_id);
