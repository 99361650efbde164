import { Migration } from '@mikro-orm/migrations';

export class Migration20261125160000_preferences extends Migration {

  override name = 'Migration20261125160000_preferences';

  override up(): void | Promise<void> {
    this.addSql(`create table "notification_preferences" ("user_id" int not null, "type" text not null, "channel" text not null, "enabled" boolean not null, "updated_at" timestamptz not null, primary key ("user_id", "type", "channel"));`);

    this.addSql(`alter table "deliveries" drop constraint "deliveries_status_check";`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_status_check" check ("status" in ('pending', 'sending', 'sent', 'recorded', 'failed', 'parked', 'skipped'));`);

    this.addSql(`alter table "notification_preferences" add constraint "notification_preferences_type_check" check ("type" in ('block_approved', 'block_rejected', 'incident', 'payslip_published', 'attendance_reminder', 'attendance_warning', 'approval_digest'));`);
    this.addSql(`alter table "notification_preferences" add constraint "notification_preferences_channel_check" check ("channel" in ('email', 'push'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "notification_preferences" cascade;`);

    this.addSql(`alter table "deliveries" drop constraint "deliveries_status_check";`);
    this.addSql(`alter table "deliveries" add constraint "deliveries_status_check" check ("status" in ('pending', 'sending', 'sent', 'recorded', 'failed', 'parked'));`);
  }

}
