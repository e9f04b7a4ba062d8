-- Who may call Trimus: users (built-in accounts), their role in each company, and credentials (API tokens, dashboard
-- sessions, one-time setup links). Credentials are stored as the SHA-256 of a 256-bit random secret (or of the
-- operator's bootstrap token), never in clear; a password only as a bcrypt hash.
create table app_user (
    id            uuid primary key,
    email         varchar(254) not null unique,
    password_hash varchar(60),
    operator      boolean      not null default false,
    created_at    timestamptz  not null
);

create table membership (
    user_id    uuid        not null references app_user (id) on delete cascade,
    company_id uuid        not null references company (id) on delete cascade,
    role       varchar(16) not null check (role in ('admin', 'member', 'viewer')),
    created_at timestamptz not null,
    primary key (user_id, company_id)
);
create index membership_company_idx on membership (company_id);

create table credential (
    id           uuid primary key,
    kind         varchar(16)  not null check (kind in ('token', 'session', 'setup')),
    name         varchar(100) not null,
    secret_hash  bytea        not null unique,
    -- tokens: the company and role they act with (no company: an operator token)
    company_id   uuid references company (id) on delete cascade,
    role         varchar(16) check (role in ('admin', 'member', 'viewer', 'operator')),
    -- sessions and setup links: the user they belong to
    user_id      uuid references app_user (id) on delete cascade,
    created_by   varchar(300) not null,
    created_at   timestamptz  not null,
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    check ((kind = 'token') = (role is not null)),
    check ((kind = 'token') = (user_id is null)),
    check (role is distinct from 'operator' or company_id is null)
);
create index credential_company_idx on credential (company_id, created_at) where kind = 'token';
create index credential_user_idx on credential (user_id) where kind <> 'token';
