import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053556_users extends Migration {

  override name = 'Migration20261122053556_users';

  override up(): void | Promise<void> {
    this.addSql(`create table "users" ("id" serial primary key, "email" varchar(254) not null, "password_hash" varchar(255) not null, "role" text not null, "employee_id" int null, "student_id" int null, "active" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_employee_id_index" on "users" ("employee_id");`);
    this.addSql(`create index "users_student_id_index" on "users" ("student_id");`);

    this.addSql(`alter table "users" add constraint "users_role_check" check ("role" in ('admin', 'user'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "users" cascade;`);
  }

}
