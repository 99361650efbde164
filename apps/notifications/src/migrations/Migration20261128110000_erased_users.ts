import { Migration } from '@mikro-orm/migrations';

/**
 * Logins an erasure went through (`erased_users`, written by the devices' privacy provider in the erasure's
 * transaction): a device registration serialized behind that erasure finds the mark and is refused, so no
 * token lands after the erasure deleted the person's tokens. Only the id, which the other services keep too. Expand-only.
 */
export class Migration20261128110000_erased_users extends Migration {

  override name = 'Migration20261128110000_erased_users';

  override up(): void | Promise<void> {
    this.addSql(`create table if not exists "erased_users" ("user_id" int not null, "erased_at" timestamptz not null, constraint "erased_users_pkey" primary key ("user_id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "erased_users";`);
  }

}
