-- A masked secret enters a sandbox as a surrogate; the egress proxy swaps in the real value only in requests to its
-- hosts (normalised names or *.domain wildcards) and only in its headers (lower-case names): both set exactly when the
-- secret is masked.
alter table company_secret add column masked boolean not null default false;
alter table company_secret add column hosts text[];
alter table company_secret add column headers text[];
alter table company_secret add constraint company_secret_mask_scope_ck
    check (masked = (hosts is not null) and masked = (headers is not null));
