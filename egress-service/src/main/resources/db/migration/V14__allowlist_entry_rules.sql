-- Issue 31: an allowlist entry may be an object with request rules ({"host": …, "ports": […], "methods": […],
-- "paths": […]}), stored as its canonical JSON text (which starts with "{", as no string entry does). Such a text can
-- be far longer than a host:port (32 paths of up to 512 characters), longer than a b-tree index entry may be, so the
-- uniqueness of an entry within its company moves from the primary key on the text to a unique index on its md5.
-- Entries stored before are host or host:port texts: they stay valid as they are.
alter table allowlist_entry drop constraint allowlist_entry_pkey;
alter table allowlist_entry alter column entry type varchar(20000);
create unique index allowlist_entry_company_entry on allowlist_entry (company_id, md5(entry));
-- An agent's own list (V13) takes the same entry forms as its company's. Its entry column is text already (no length
-- to widen); its uniqueness moves from the primary key to a unique index on md5 as the company's does, since a long
-- object entry exceeds a b-tree index entry too.
alter table agent_allowlist_entry drop constraint agent_allowlist_entry_pkey;
create unique index agent_allowlist_entry_agent_entry on agent_allowlist_entry (company_id, agent_id, md5(entry));

-- An anomaly proxy_request_denied names the refused request's method and (normalised) path; null for every other
-- reason and for the rows stored before.
alter table egress_anomaly_events add column method varchar(64), add column path varchar(512);
