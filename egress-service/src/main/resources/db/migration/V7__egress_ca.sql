-- The egress CA: every CA this deployment has had, the active one (retired_at null) and those it replaced, which stay
-- so that sandboxes started before a rotation keep being served by the CA they trust. The private key is stored only
-- sealed (AES-256-GCM under a key derived from TRIMUS_ENCRYPTION_KEY, bound to the fingerprint); never in clear.
create table egress_ca (
    fingerprint     text        primary key check (fingerprint ~ '^[0-9a-f]{64}$'),
    certificate_pem text        not null,
    key_ciphertext  bytea       not null,
    created_at      timestamptz not null,
    retired_at      timestamptz
);
-- at most one active CA: two replicas creating the first one at once, or two rotations, cannot both win
create unique index egress_ca_one_active on egress_ca ((true)) where retired_at is null;
