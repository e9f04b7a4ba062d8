-- Issue 18: runs are recovered when the adapter process holding them is lost. held_by is the process that last
-- reported the run (reported_by of its DISPATCHED/RUNNING event, its instance on trimus.adapter.leases);
-- start_recorded_at is when a lease beat first listed the run as started (from then on it is never dispatched
-- again); dispatch_attempts counts how often its request was published.
alter table run add column held_by varchar(128);
alter table run add column held_since timestamptz;
alter table run add column start_recorded_at timestamptz;
alter table run add column dispatch_attempts integer not null default 1;

-- the lease sweep: runs in progress by holder
create index run_in_progress_holder_idx on run (held_by) where status in ('DISPATCHED', 'RUNNING');
