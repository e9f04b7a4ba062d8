-- Flyway callback, run by the migration role after each migrate: the service's login role may read and write the
-- service's tables (row-level security still decides which rows) and nothing else, not even Flyway's history.
-- Flyway's own lock covers the migrations, not this callback: replicas starting at the same moment would grant on the
-- same catalogue rows at once and one would fail with "tuple concurrently updated". Flyway runs the script in one
-- transaction, so a transaction-scoped advisory lock (one key for every Trimus service) makes them take turns until
-- each one's grants are committed. (ReplicaStartTest in run-service.)
select pg_advisory_xact_lock(7460029311642386);
grant usage on schema "${flyway:defaultSchema}" to "${app_role}";
grant select, insert, update, delete on all tables in schema "${flyway:defaultSchema}" to "${app_role}";
grant usage, select on all sequences in schema "${flyway:defaultSchema}" to "${app_role}";
revoke all on "${flyway:defaultSchema}"."${flyway:table}" from "${app_role}";
