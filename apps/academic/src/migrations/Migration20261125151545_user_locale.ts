import { Migration } from '@mikro-orm/migrations';

export class Migration20261125151545_user_locale extends Migration {

  override name = 'Migration20261125151545_user_locale';

  override up(): void | Promise<void> {
    this.addSql(`alter table "users" add "locale" text null;`);
    this.addSql(`alter table "users" add constraint "users_locale_check" check ("locale" in ('es', 'en'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "users" drop constraint "users_locale_check";`);
    this.addSql(`alter table "users" drop column "locale";`);
  }

}
