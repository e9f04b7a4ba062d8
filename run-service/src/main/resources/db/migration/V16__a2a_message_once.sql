-- Issue 35: one run per A2A messageId of an agent, decided by a unique index instead of a lookup before the insert
-- (two copies of a message arriving at the same instant both found nothing and started two runs). A messageId now
-- names its run for good, not for a ten-minute window. Runs stored before with a messageId another run of the same
-- agent had first (such a race, or a repeat after the old window) keep their rows: their messageId gets '#<run id>'
-- appended, so the index can be built and nothing is lost.
update run r set a2a_message_id = r.a2a_message_id || '#' || r.id
where r.a2a_message_id is not null
  and exists (select 1 from run o
              where o.company_id = r.company_id and o.agent_id = r.agent_id and o.a2a_message_id = r.a2a_message_id
                and (o.queued_at, o.id) < (r.queued_at, r.id));

drop index run_a2a_message_idx;
create unique index run_a2a_message_key on run (company_id, agent_id, a2a_message_id)
    where a2a_message_id is not null;
