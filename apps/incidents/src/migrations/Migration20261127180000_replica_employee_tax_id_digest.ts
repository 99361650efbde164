import { Migration } from '@mikro-orm/migrations';

/**
 * The employees replica keeps the keyed digest of the tax id (`employee.upserted` version 3), never
 * the tax id: the column goes with what it held. `npm run republish:academic` fills the digests.
 */
export class Migration20261127180000_replica_employee_tax_id_digest extends Migration {

  override name = 'Migration20261127180000_replica_employee_tax_id_digest';

  override up(): void | Promise<void> {
    this.addSql(`alter table "employees" drop column if exists "tax_id";`);
    this.addSql(`alter table "employees" add column if not exists "tax_id_digest" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "employees" drop column if exists "tax_id_digest";`);
    this.addSql(`alter table "employees" add column if not exists "tax_id" varchar(9) null;`);
  }

}
