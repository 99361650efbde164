import { Migration } from '@mikro-orm/migrations';

export class Migration20261122062532_one_side_check extends Migration {

  override name = 'Migration20261122062532_one_side_check';

  override up(): void | Promise<void> {
    this.addSql(`alter table "hours_banks" add constraint "hours_banks_one_side_check" check (pending_minutes >= 0 and completed_minutes >= 0 and (pending_minutes = 0 or completed_minutes = 0));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "hours_banks" drop constraint "hours_banks_one_side_check";`);
  }

}
