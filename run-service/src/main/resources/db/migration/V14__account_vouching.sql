-- Issue 28: who vouches for the person behind an account, so a setup link is never handed to someone else for an
-- account that is not theirs. Trimus sends no email: an account a company admin's invitation made belongs to whoever
-- that admin handed the setup link to ('company'); one an operator made or gave a link to, to the operator's word
-- ('operator'); one the identity provider signed in, to the provider ('provider', never a setup link again).
-- invited_by: the company whose invitation made the account, the only one shown whether its password is set.
alter table app_user add column vouched_by varchar(16) not null default 'company'
    check (vouched_by in ('company', 'operator', 'provider'));
alter table app_user alter column vouched_by drop default;
alter table app_user add column invited_by uuid references company (id) on delete set null;

update app_user set vouched_by = 'operator' where operator;
update app_user set vouched_by = 'provider' where id in (
    select (record -> 'actor' ->> 'id')::uuid from audit_record
    where action = 'session.opened' and record -> 'details' ->> 'through' = 'identity provider');
-- an invitation made the account where the first member.put that made a setup link for it was recorded (one pass)
update app_user u set invited_by = made.company_id
from (select distinct on (a.record -> 'target' ->> 'id') a.record -> 'target' ->> 'id' as user_id, a.company_id
      from audit_record a join company c on c.id = a.company_id
      where a.action = 'member.put' and a.record -> 'details' ->> 'setup_link_made' = 'true'
      order by a.record -> 'target' ->> 'id', a.occurred_at) made
where made.user_id = u.id::text and u.vouched_by = 'company';

-- Before this, any company admin could have a setup link made for any account without a password (by adding it as a
-- member): the open links of operators, of provider accounts and of accounts in more than one company may be in the
-- wrong hands. They end here; an operator issues a new one (POST /api/accounts/{email}/setup-link), and the bootstrap
-- operator gets one at the next start.
update credential set revoked_at = now()
where kind = 'setup' and revoked_at is null and user_id in (
    select id from app_user where vouched_by <> 'company'
    union
    select user_id from membership group by user_id having count(*) > 1);
