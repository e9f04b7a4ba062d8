-- A row the broker refuses for good (too large, invalid) is set aside with the reason instead of blocking the rows
-- behind it; a row that fails for a passing reason waits next_attempt_at, so other rows go out meanwhile.
alter table outbox_event add column attempts integer not null default 0;
alter table outbox_event add column next_attempt_at timestamptz;
alter table outbox_event add column refused_at timestamptz;
alter table outbox_event add column refusal text;

drop index outbox_unpublished_idx;
create index outbox_pending_idx on outbox_event (seq) where published_at is null and refused_at is null;
-- "is an earlier row of this key still pending?": one run's events go out in order
create index outbox_pending_key_idx on outbox_event (message_key, seq) where published_at is null and refused_at is null;
