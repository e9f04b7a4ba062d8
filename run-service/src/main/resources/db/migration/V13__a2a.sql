-- Issue 19: agents served over A2A, and runs delegated to A2A peers. Columns on tables already guarded by V11, so no
-- new guard_company_rows line. a2a_published: the company chose to serve the agent over A2A (card and JSON-RPC
-- endpoint on run-service). peer_task_id: the id an A2A peer gave the task of a remote run (the first one reported,
-- never replaced). a2a_context_id: the A2A contextId of a run started over A2A, so every answer about its task names
-- the same context. a2a_message_id: the messageId of the A2A message that started the run, so a caller repeating it
-- (a retry after a lost answer) gets the same task instead of a second run.
alter table agent add column a2a_published boolean not null default false;
alter table run add column peer_task_id text;
alter table run add column a2a_context_id text;
alter table run add column a2a_message_id text;

create index run_a2a_message_idx on run (company_id, a2a_message_id) where a2a_message_id is not null;
