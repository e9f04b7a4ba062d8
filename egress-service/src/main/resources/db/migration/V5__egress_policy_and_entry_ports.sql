-- Issue 14: allowlist entries may name a port, and a company's egress policy has a mode.

-- host:port entries: the longest normalised entry is a wildcard over a 253-character name plus ":65535"
-- ("*." + 253 + 6 = 261). Widening a varchar rewrites nothing; entries stored before have no port and stay valid.
alter table allowlist_entry alter column entry type varchar(261);

-- One row per company that ever set its policy; a company without one is enforced. The revision grows with every
-- change, so the in-memory copy applies only newer ones (as for the allowlist).
create table egress_policy (
    company_id uuid        primary key,
    mode       text        not null check (mode in ('enforce', 'report')),
    revision   bigint      not null,
    updated_at timestamptz not null
);
