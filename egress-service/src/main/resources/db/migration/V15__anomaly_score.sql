-- The tunnelling score of an anomaly (io.trimus.egress.anomaly.v1 score and signals): null for an unattributed source
-- and for every event written before the fields existed. signals holds the signal labels comma-separated
-- (long_names,high_entropy; empty for a score with none up; labels never hold a comma). Both nullable: additive,
-- no rewrite. The range check is added "not valid" so that adding it does not scan the table: every row there is
-- has a null score, which passes it, and every row inserted from now on is checked.
alter table egress_anomaly_events add column score double precision, add column signals text;
alter table egress_anomaly_events add constraint egress_anomaly_score_range check (score between 0 and 1) not valid;
