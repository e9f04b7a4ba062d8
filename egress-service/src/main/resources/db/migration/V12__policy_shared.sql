-- Several egress-service replicas enforce the same egress policy (issue 28): each keeps every company's allowlist and
-- mode in memory (the resolver and the proxy read them for every decision), so every replica must learn every change,
-- whichever replica stored it. As for the sandbox registrations (V11), PostgreSQL announces each change to every
-- replica (channel egress_policy, in the changing transaction); each replica LISTENs on a connection of its own
-- (policy/PolicyFeed) and then reads what changed.
--
-- policy_revision is the safety net: one number that grows with every change of an allowlist or a mode. Each replica
-- reads it every TRIMUS_EGRESS_POLICY_CHECK_INTERVAL; a number it has not caught up with (a notification it never
-- got, on a connection that looked fine) makes it read what changed. Changes bump it under the row's lock, so the
-- number a transaction reads with the rows matches them. Its trigger fires even in session_replication_role replica
-- (enable always): a restore or a bulk fix that runs without ordinary triggers is still noticed by the revision check.
-- A change of a list is a change of its allowlist row (the service bumps that row's revision with every replacement).
create table policy_revision (
    only_row boolean primary key default true check (only_row),
    revision bigint  not null
);
insert into policy_revision (revision) values (0);

create function policy_revision_bump() returns trigger language plpgsql as $$
begin
    update egress.policy_revision set revision = revision + 1;
    return null;
end
$$;

create function policy_notify() returns trigger language plpgsql as $$
begin
    -- which table changed, for the log; a replica reads what changed either way
    perform pg_notify('egress_policy', tg_table_name);
    return null;
end
$$;

create trigger policy_revision_bump after insert or update or delete or truncate on allowlist
    for each statement execute function policy_revision_bump();
alter table allowlist enable always trigger policy_revision_bump;
create trigger policy_notify after insert or update or delete or truncate on allowlist
    for each statement execute function policy_notify();

create trigger policy_revision_bump after insert or update or delete or truncate on egress_policy
    for each statement execute function policy_revision_bump();
alter table egress_policy enable always trigger policy_revision_bump;
create trigger policy_notify after insert or update or delete or truncate on egress_policy
    for each statement execute function policy_notify();
