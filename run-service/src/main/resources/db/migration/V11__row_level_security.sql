-- Defence in depth under the services' authorization: PostgreSQL itself shows a transaction only the rows of the
-- companies it names (guard_company_rows, created by the beforeMigrate callback of io.trimus.commons: the policy
-- reads trimus.company_ids / trimus.all_companies, set per transaction by TenantTransactions). Without either a
-- transaction sees no company's rows and can write none. Rows without a company (operator tokens and sessions,
-- platform audit records) are visible to all_companies only. The owner (the migration role) is not subject to these
-- policies; the service logs in as a role that owns nothing and cannot bypass them (DatabaseRoleCheck). A new table
-- that carries a company gets the same line in its own migration.
select guard_company_rows('company', 'id');
select guard_company_rows('agent', 'company_id');
select guard_company_rows('run', 'company_id');
select guard_company_rows('company_secret', 'company_id');
select guard_company_rows('company_secret_grant', 'company_id');
select guard_company_rows('company_worker_tag', 'company_id');
select guard_company_rows('membership', 'company_id');
select guard_company_rows('credential', 'company_id');
select guard_company_rows('audit_record', 'company_id');
