-- Flyway callback, run by the migration role (TRIMUS_DB_MIGRATION_USER, the tables' owner) before each migrate.
-- The service itself logs in as ${app_role} (TRIMUS_DB_USER), a role that owns nothing and cannot bypass row-level
-- security. A deployment may create that role itself (k8s does, through CloudNativePG); otherwise it is created here
-- on the first start, which needs CREATEROLE (the superuser of ./trimus up and docker-compose has it).
do $trimus$
begin
    if not exists (select from pg_roles where rolname = '${app_role}') then
        create role "${app_role}" login password $secret$${app_password}$secret$
            nosuperuser nocreatedb nocreaterole noreplication nobypassrls;
    end if;
end
$trimus$;
