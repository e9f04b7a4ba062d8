-- Defence in depth under the services' authorization: PostgreSQL itself shows a transaction only the rows of the
-- companies it names. io.trimus.commons.rows.TenantTransactions sets, transaction-local, either
-- trimus.all_companies = 'on' (operators, Trimus's own background work) or trimus.company_ids = '<id>,<id>' (the
-- caller's companies). Without either a transaction sees no company's rows and can write none.
-- Rows without a company (operator tokens and sessions, platform audit records) are visible to all_companies only.
-- The owner (the migration role) is not subject to these policies; the service logs in as a role that owns nothing
-- and cannot bypass them (see beforeMigrate.sql and io.trimus.commons.rows.DatabaseRoleCheck).
do $rls$
declare
    guarded record;
begin
    for guarded in select * from (values
            ('company', 'id'), ('agent', 'company_id'), ('run', 'company_id'), ('company_secret', 'company_id'),
            ('company_secret_grant', 'company_id'), ('company_worker_tag', 'company_id'),
            ('membership', 'company_id'), ('credential', 'company_id'), ('audit_record', 'company_id'))
            as t(tbl, col) loop
        execute format('alter table %I enable row level security', guarded.tbl);
        execute format($policy$
            create policy company_rows on %I
            using (current_setting('trimus.all_companies', true) = 'on'
                   or %I = any (string_to_array(nullif(current_setting('trimus.company_ids', true), ''), ',')::uuid[]))
            with check (current_setting('trimus.all_companies', true) = 'on'
                   or %I = any (string_to_array(nullif(current_setting('trimus.company_ids', true), ''), ',')::uuid[]))
            $policy$, guarded.tbl, guarded.col, guarded.col);
    end loop;
end
$rls$;
