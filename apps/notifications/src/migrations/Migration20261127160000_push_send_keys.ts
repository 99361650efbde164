import { Migration } from '@mikro-orm/migrations';

/**
 * Push sends keep their idempotency keys in `idempotency_keys` (scope `push:send`), the table of the
 * service's HTTP keys, pruned with them: the live keys of `push_sends` are copied there. Expand only:
 * `push_sends` stays for the version before this one while both run, and is dropped by a later release.
 */
export class Migration20261127160000_push_send_keys extends Migration {

  override name = 'Migration20261127160000_push_send_keys';

  override up(): void | Promise<void> {
    this.addSql(`insert into "idempotency_keys" ("scope", "key", "fingerprint", "status", "content_type", "body", "created_at", "expires_at")
      select 'push:send', "idempotency_key", "request_hash", case when "response" is null then 202 else 200 end,
        case when "response" is null then null else 'application/json' end, coalesce("response"::text, "send_id"::text), "created_at", "created_at" + interval '7 days'
      from "push_sends" where "created_at" > now() - interval '7 days'
      on conflict do nothing;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`delete from "idempotency_keys" where "scope" = 'push:send';`);
  }

}
