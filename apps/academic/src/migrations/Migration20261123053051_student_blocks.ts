import { Migration } from '@mikro-orm/migrations';

export class Migration20261123053051_student_blocks extends Migration {

  override name = 'Migration20261123053051_student_blocks';

  override up(): void | Promise<void> {
    this.addSql(`create table "student_blocks" ("id" serial primary key, "student_id" int not null, "block_id" int not null, "status" text not null default 'blocked', "grade" numeric(4,2) null, "employee_id" int null, "closed_at" timestamptz null, "rejected_at" timestamptz null, "approved_at" timestamptz null, "reviewed_by_user_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "student_blocks_block_id_index" on "student_blocks" ("block_id");`);
    this.addSql(`create index "student_blocks_employee_id_index" on "student_blocks" ("employee_id");`);
    this.addSql(`alter table "student_blocks" add constraint "student_blocks_student_id_block_id_unique" unique ("student_id", "block_id");`);

    this.addSql(`create table "student_block_messages" ("id" serial primary key, "student_block_id" int not null, "author_user_id" int null, "author_role" text not null, "kind" text not null default 'message', "body" text not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "student_block_messages_student_block_id_id_index" on "student_block_messages" ("student_block_id", "id");`);

    this.addSql(`alter table "student_blocks" add constraint "student_blocks_status_check" check ("status" in ('open', 'blocked', 'pending', 'closed'));`);

    this.addSql(`alter table "student_block_messages" add constraint "student_block_messages_author_role_check" check ("author_role" in ('admin', 'teacher'));`);
    this.addSql(`alter table "student_block_messages" add constraint "student_block_messages_kind_check" check ("kind" in ('message', 'rejection'));`);

    // By hand: foreign keys, the grade's range, and the partial indexes the review queues read.
    this.addSql(`alter table "student_blocks" add constraint "student_blocks_student_id_foreign" foreign key ("student_id") references "students" ("id") on delete cascade;`);
    // A block still in use cannot be removed from its subject (the subject update answers 409).
    this.addSql(`alter table "student_blocks" add constraint "student_blocks_block_id_foreign" foreign key ("block_id") references "blocks" ("id") on delete restrict;`);
    this.addSql(`alter table "student_blocks" add constraint "student_blocks_employee_id_foreign" foreign key ("employee_id") references "employees" ("id") on delete set null;`);
    this.addSql(`alter table "student_blocks" add constraint "student_blocks_grade_check" check ("grade" between 0 and 10);`);
    this.addSql(`alter table "student_block_messages" add constraint "student_block_messages_student_block_id_foreign" foreign key ("student_block_id") references "student_blocks" ("id") on delete cascade;`);
    this.addSql(`create index "student_blocks_pending_index" on "student_blocks" ("closed_at", "id") where "status" = 'pending';`);
    this.addSql(`create index "student_blocks_rejected_index" on "student_blocks" ("rejected_at", "id") where "status" = 'open' and "rejected_at" is not null;`);
    // Students registered before this migration get their blocks: the first of each subject open, the others blocked.
    this.addSql(`insert into "student_blocks" ("student_id", "block_id", "status", "created_at", "updated_at")
      select s.student_id, b.id, case when b.position = (select min(f.position) from blocks f where f.subject_id = b.subject_id) then 'open' else 'blocked' end, now(), now()
        from (select distinct student_id, subject_id from registrations) s
        join blocks b on b.subject_id = s.subject_id
      on conflict ("student_id", "block_id") do nothing;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "student_block_messages" cascade;`);
    this.addSql(`drop table if exists "student_blocks" cascade;`);
  }

}
