-- Flyway callback, run by the migration role (TRIMUS_DB_MIGRATION_USER, the tables' owner) before each migrate.
-- The service itself logs in as ${app_role} (TRIMUS_DB_USER), a role that owns nothing and cannot bypass row-level
-- security. A deployment may create that role itself (k8s does, through CloudNativePG); otherwise it is created here
-- on the first start, which needs CREATEROLE (the superuser of ./trimus up and docker-compose has it).
-- (The password is dollar-quoted so any character works; the x in front of the placeholder keeps Flyway from reading
-- "$${" as an escaped placeholder, and substr drops it again.)
-- Flyway's own lock does not cover this callback: replicas starting at once take turns on the same transaction lock
-- as afterMigrate.sql, or two would create the role or replace the function at the same moment and one would fail.
select pg_advisory_xact_lock(7460029311642386);
do $trimus$
begin
    if not exists (select from pg_roles where rolname = '${app_role}') then
        execute format('create role %I login password %L nosuperuser nocreatedb nocreaterole noreplication nobypassrls',
                       '${app_role}', substr($secret$x${app_password}$secret$, 2));
    end if;
end
$trimus$;

-- Row-level security for one table of the schema: a transaction sees and writes only the rows whose company column
-- holds a company it names in trimus.company_ids (comma-separated ids), or every row when trimus.all_companies is
-- 'on'. io.trimus.commons.rows.TenantTransactions sets both, transaction-local. Migrations call it for every table
-- that carries a company; only the migration role may.
create or replace function "${flyway:defaultSchema}".guard_company_rows(guarded regclass, company_column name)
    returns void language plpgsql as $guard$
begin
    execute format('alter table %s enable row level security', guarded);
    execute format('drop policy if exists company_rows on %s', guarded);
    execute format($policy$
        create policy company_rows on %s
        using (current_setting('trimus.all_companies', true) = 'on'
               or %I = any (string_to_array(nullif(current_setting('trimus.company_ids', true), ''), ',')::uuid[]))
        with check (current_setting('trimus.all_companies', true) = 'on'
               or %I = any (string_to_array(nullif(current_setting('trimus.company_ids', true), ''), ',')::uuid[]))
        $policy$, guarded, company_column, company_column);
end
$guard$;
revoke all on function "${flyway:defaultSchema}".guard_company_rows(regclass, name) from public;
