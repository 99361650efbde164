import { Migration } from '@mikro-orm/migrations';

// Declared by hand (raw SQL only, no entity): a user's quiet hours for push, and the pushes held
// during them (sent once at `release_at` by the held-push sender, which claims them FOR UPDATE SKIP LOCKED).
export class Migration20261125200000_quiet_hours extends Migration {

  override name = 'Migration20261125200000_quiet_hours';

  override up(): void | Promise<void> {
    this.addSql(`create table "quiet_hours" ("user_id" int not null primary key, "start_time" time not null, "end_time" time not null, "time_zone" text not null, "updated_at" timestamptz not null);`);
    this.addSql(`create table "held_pushes" ("id" bigserial primary key, "user_id" int not null, "event_type" text not null, "message" jsonb not null, "release_at" timestamptz not null, "created_at" timestamptz not null, "sent_at" timestamptz null);`);
    this.addSql(`create index "held_pushes_due_index" on "held_pushes" ("release_at", "id") where "sent_at" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "held_pushes";`);
    this.addSql(`drop table if exists "quiet_hours";`);
  }

}
