import { Migration } from '@mikro-orm/migrations';

/**
 * A superseded payslip's file no longer blocks a correction (a correction reverted to the original
 * file); a batch's page records the visible payslip it already is (shown in the preview, left out at publish).
 */
export class Migration20261127130000_duplicate_files extends Migration {

  override name = 'Migration20261127130000_duplicate_files';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "payslips_employee_id_sha256_unique";`);
    this.addSql(`create unique index "payslips_employee_id_sha256_unique" on "payslips" ("employee_id", "sha256") where "deleted_at" is null and "superseded_by_id" is null;`);
    this.addSql(`alter table "payslip_batch_pages" add column if not exists "duplicate_of_payslip_id" int null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "payslip_batch_pages" drop column if exists "duplicate_of_payslip_id";`);
    this.addSql(`drop index if exists "payslips_employee_id_sha256_unique";`);
    this.addSql(`create unique index "payslips_employee_id_sha256_unique" on "payslips" ("employee_id", "sha256") where "deleted_at" is null;`);
  }

}
