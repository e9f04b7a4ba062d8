-- Flyway callback, run by the migration role after each migrate: the service's login role may read and write the
-- service's tables (row-level security still decides which rows) and nothing else, not even Flyway's history.
grant usage on schema "${flyway:defaultSchema}" to "${app_role}";
grant select, insert, update, delete on all tables in schema "${flyway:defaultSchema}" to "${app_role}";
grant usage, select on all sequences in schema "${flyway:defaultSchema}" to "${app_role}";
revoke all on "${flyway:defaultSchema}"."${flyway:table}" from "${app_role}";
