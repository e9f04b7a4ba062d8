-- Audit records of egress-service's changes (allowlist replaced, egress policy set, egress CA rotated) waiting to be
-- published on trimus.audit: written in the transaction of the change, deleted once Kafka acknowledged them, so a
-- change made while Kafka is down is published when it is back. seq is the publishing order.
create table audit_outbox (
    seq         bigserial primary key,
    id          uuid         not null unique,
    message_key varchar(64)  not null,
    payload     text         not null,
    created_at  timestamptz  not null
);
