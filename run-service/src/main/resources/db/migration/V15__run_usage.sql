-- Issue 30: what an agent CLI's run printed in full (raw_output: the capped, redacted tail of its stream, while output
-- holds the CLI's final answer) and what the CLI said the run used (io.trimus.events.RunUsage). Every column is null
-- when the run has none: a CLI that reports nothing leaves its run without usage, never zeros. The values were bounded
-- by the event's own constructor; the checks hold the same bounds here.
-- Row-level security and the service role's grants need nothing new: the policy of V11 applies to whole rows of run,
-- and the afterMigrate callback grants every table (all its columns) again after each migrate.
alter table run add column raw_output text;
alter table run add column input_tokens bigint check (input_tokens >= 0);
alter table run add column output_tokens bigint check (output_tokens >= 0);
alter table run add column cache_read_tokens bigint check (cache_read_tokens >= 0);
alter table run add column cache_write_tokens bigint check (cache_write_tokens >= 0);
alter table run add column reasoning_tokens bigint check (reasoning_tokens >= 0);
alter table run add column cost_usd numeric(18, 6) check (cost_usd >= 0);
alter table run add column model text check (char_length(model) <= 200);
alter table run add column api_duration_ms bigint check (api_duration_ms >= 0);
alter table run add column turns integer check (turns >= 0);

-- GET /api/runs/usage sums the runs that finished in a period: of one company, or of every company (operators)
create index run_company_finished_idx on run (company_id, finished_at) where finished_at is not null;
create index run_finished_idx on run (finished_at) where finished_at is not null;
