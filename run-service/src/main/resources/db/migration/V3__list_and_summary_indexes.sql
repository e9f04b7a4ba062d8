-- The company list pages by (created_at, id); the run summary counts runs by status across companies.
create index company_created_idx on company (created_at, id);
create index run_status_idx on run (status);
