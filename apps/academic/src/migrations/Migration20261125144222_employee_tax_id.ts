import { Migration } from '@mikro-orm/migrations';

export class Migration20261125144222_employee_tax_id extends Migration {

  override name = 'Migration20261125144222_employee_tax_id';

  override up(): void | Promise<void> {
    this.addSql(`alter table "employees" add "tax_id" varchar(9) null, add "payroll_code" varchar(32) null;`);
    this.addSql(`alter table "employees" add constraint "employees_tax_id_unique" unique ("tax_id");`);
    this.addSql(`alter table "employees" add constraint "employees_payroll_code_unique" unique ("payroll_code");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "employees" drop constraint "employees_tax_id_unique";`);
    this.addSql(`alter table "employees" drop constraint "employees_payroll_code_unique";`);
    this.addSql(`alter table "employees" drop column "tax_id", drop column "payroll_code";`);
  }

}
