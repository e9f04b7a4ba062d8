-- Report mode: an anomaly may record what enforce mode would have denied but was let through (enforced = false).
-- Every row written before is an enforced denial, hence the default; the column is additive like the event field.
alter table egress_anomaly_events add column enforced boolean not null default true;
