import { Migration } from '@mikro-orm/migrations';

/** A payslip kept after its employee's data was erased on request is restricted (`restricted_at`). Expand-only. */
export class Migration20261127191000_payslips_restricted extends Migration {

  override name = 'Migration20261127191000_payslips_restricted';

  override up(): void | Promise<void> {
    this.addSql(`alter table "payslips" add column if not exists "restricted_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payslips" drop column if exists "restricted_at";`);
  }

}
