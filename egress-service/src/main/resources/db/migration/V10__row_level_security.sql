-- Defence in depth under the services' authorization: PostgreSQL itself shows a transaction only the rows of the
-- companies it names (guard_company_rows, created by the beforeMigrate callback of io.trimus.commons: the policy
-- reads trimus.company_ids / trimus.all_companies, set per transaction by TenantTransactions). Without either a
-- transaction sees no company's rows and can write none. Anomalies from an address no sandbox holds (no company) are
-- visible to all_companies only. The owner (the migration role) is not subject to these policies; the service logs
-- in as a role that owns nothing and cannot bypass them (DatabaseRoleCheck). A new table that carries a company gets
-- the same line in its own migration.
select guard_company_rows('allowlist', 'company_id');
select guard_company_rows('allowlist_entry', 'company_id');
select guard_company_rows('egress_anomaly_events', 'company_id');
select guard_company_rows('sandbox_registration', 'company_id');
select guard_company_rows('egress_policy', 'company_id');
select guard_company_rows('egress_connection', 'company_id');
