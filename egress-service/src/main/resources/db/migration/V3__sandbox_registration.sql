-- Which run holds which sandbox address: the arbiter between adapter processes (two adapters on one Docker engine
-- cannot both be given an address) and what the resolver's in-memory registry is reloaded from at start, so running
-- sandboxes keep being attributed across a restart of egress-service. Written before the in-memory registry changes.
--
-- One row per address. A run holds its address until it deregisters it (DELETE with its run id); another run's
-- registration of a held address is refused (409), unless the holder's registration is older than
-- TRIMUS_EGRESS_SANDBOXES_REGISTRATION_MAX_AGE (left by an adapter that died for good). run_id is indexed, not
-- unique: a run request delivered twice may claim a second address until its duplicate container is refused.
create table sandbox_registration (
    ip            text        primary key,
    company_id    uuid        not null,
    agent_id      uuid        not null,
    run_id        uuid        not null,
    -- null from the claim until the adapter has created the container at the address
    container_id  text,
    registered_at timestamptz not null
);
create index sandbox_registration_run_idx on sandbox_registration (run_id);
