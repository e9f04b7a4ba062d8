-- Masked secrets (issue 15). A sandbox registration says whether its run holds masked secrets: their surrogates and
-- values live in egress-service's memory only (never in this database), so after a restart the proxy knows which
-- sandboxes must wait for the adapter service to send them again instead of tunnelling their requests unswapped.
alter table sandbox_registration add column masked boolean not null default false;
-- How many requests of a connection had a masked secret swapped in, by secret name ({"GITHUB_TOKEN": 3}); null when
-- none. Names only, never a value or a surrogate.
alter table egress_connection add column masked_swaps jsonb;
