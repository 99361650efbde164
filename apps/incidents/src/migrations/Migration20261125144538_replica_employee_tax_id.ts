import { Migration } from '@mikro-orm/migrations';

export class Migration20261125144538_replica_employee_tax_id extends Migration {

  override name = 'Migration20261125144538_replica_employee_tax_id';

  override up(): void | Promise<void> {
    this.addSql(`alter table "employees" add "tax_id" varchar(9) null, add "payroll_code" varchar(32) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "employees" drop column "tax_id", drop column "payroll_code";`);
  }

}
