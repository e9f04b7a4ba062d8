-- Several egress-service replicas answer for the same sandboxes (issue 18). Each keeps the registrations in memory
-- (the resolver reads them for every query), so every change of a registration is announced to all of them:
-- a trigger sends a notification on channel egress_sandbox_registration in the transaction that changes the row, so
-- it is delivered exactly when the change commits and never for a change that rolled back. Each replica LISTENs on a
-- dedicated connection (sandbox/RegistrationFeed) and reloads every row when that connection comes back, since
-- notifications sent while it was away are lost.
--
-- The payload is the row's new state without the masks (a notification holds at most 8000 bytes), or for a delete the
-- address and the run that held it. An update that changes nothing a replica keeps (a refresh of the same masks, a
-- registered_at aged by a test) sends nothing. origin is the replica that made the change (the transaction-local
-- setting trimus.egress_replica, see ReplicaOrigin): that replica applied it already and skips it.
--
-- The masks of a masked run are kept here as the adapter service sent them: sealed under the dispatch key derived
-- from TRIMUS_ENCRYPTION_KEY and bound to the run and the address (SandboxMasks), never in clear. A replica that did
-- not receive the registration opens them with the same key; one without the key cannot, and refuses that sandbox's
-- connections (masks_pending). They go with the row at deregistration.
alter table sandbox_registration add column sealed_masks text;
-- the SHA-256 fingerprint of the egress CA placed in the sandbox, sent with the masks
alter table sandbox_registration add column masks_ca text;

create function sandbox_registration_notify() returns trigger language plpgsql as $$
begin
    if tg_op = 'DELETE' then
        perform pg_notify('egress_sandbox_registration',
                json_build_object('op', 'delete', 'ip', old.ip, 'run_id', old.run_id,
                        'origin', current_setting('trimus.egress_replica', true))::text);
    elsif tg_op = 'INSERT'
            or (old.company_id, old.agent_id, old.run_id, old.container_id, old.masked, old.sealed_masks, old.masks_ca)
               is distinct from
               (new.company_id, new.agent_id, new.run_id, new.container_id, new.masked, new.sealed_masks, new.masks_ca)
    then
        perform pg_notify('egress_sandbox_registration',
                json_build_object('op', 'put', 'ip', new.ip, 'company_id', new.company_id, 'agent_id', new.agent_id,
                        'run_id', new.run_id, 'container_id', new.container_id, 'masked', new.masked,
                        'origin', current_setting('trimus.egress_replica', true))::text);
    end if;
    return null;
end
$$;

create trigger sandbox_registration_notify
    after insert or update or delete on sandbox_registration
    for each row execute function sandbox_registration_notify();
