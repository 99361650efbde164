import { Migration } from '@mikro-orm/migrations';

/** A daily time record kept after its employee's data was erased on request is restricted (`restricted_at`). Expand-only. */
export class Migration20261127191500_time_records_restricted extends Migration {

  override name = 'Migration20261127191500_time_records_restricted';

  override up(): void | Promise<void> {
    this.addSql(`alter table "time_records" add column if not exists "restricted_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "time_records" drop column if exists "restricted_at";`);
  }

}
