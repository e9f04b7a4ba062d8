-- Company secrets: the value only as AES-256-GCM ciphertext (nonce ‖ ciphertext ‖ tag) under a key derived from
-- TRIMUS_ENCRYPTION_KEY, bound to (company_id, name) by the associated data.
create table company_secret (
    company_id uuid         not null references company (id),
    name       varchar(128) not null,
    ciphertext bytea        not null,
    created_at timestamptz  not null,
    updated_at timestamptz  not null,
    primary key (company_id, name)
);

-- Policy decisions noted on a run (e.g. SEC-015: a dangerous flag dropped), one per line.
alter table run add column notes text;
