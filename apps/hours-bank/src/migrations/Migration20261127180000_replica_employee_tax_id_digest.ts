import { Migration } from '@mikro-orm/migrations';

/**
 * The employees replica keeps the keyed digest of the tax id (`employee.upserted` version 3), never
 * the tax id: the tax ids it held are erased. `npm run republish:academic` fills the digests.
 * Expand-then-contract: the column itself stays, empty, for the pods of the last release (1.2.0
 * reads it) until every pod runs this one; the next release's migration drops it.
 */
export class Migration20261127180000_replica_employee_tax_id_digest extends Migration {

  override name = 'Migration20261127180000_replica_employee_tax_id_digest';

  override up(): void | Promise<void> {
    this.addSql(`update "employees" set "tax_id" = null where "tax_id" is not null;`);
    this.addSql(`alter table "employees" add column if not exists "tax_id_digest" varchar(64) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "employees" drop column if exists "tax_id_digest";`);
  }

}
