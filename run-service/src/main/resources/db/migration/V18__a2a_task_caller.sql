-- Issue 35 (review): an A2A task belongs to the credential that started it. An A2A-only token (a partner's) reads,
-- follows and cancels only its own tasks, and a messageId names a run per caller: before, a second partner holding a
-- token for the same agent who sent the same messageId ("1", "msg-1") was answered the first partner's task, its
-- output included, and could read any run of the agent whose id it had. a2a_caller: the id of the token or account
-- that started the run over A2A; null for runs started otherwise (and for A2A runs stored before this, which keep
-- their messageIds under the null caller).
alter table run add column a2a_caller uuid;

drop index run_a2a_message_key;
create unique index run_a2a_message_key
    on run (company_id, agent_id, coalesce(a2a_caller, '00000000-0000-0000-0000-000000000000'::uuid), a2a_message_id)
    where a2a_message_id is not null;
