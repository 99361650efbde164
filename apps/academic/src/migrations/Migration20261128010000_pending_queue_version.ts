import { Migration } from '@mikro-orm/migrations';

/**
 * The pending review queue's page (issue 32):
 *
 * - Its index covers the page: `(block_id, closed_at, id)` of the pending blocks now INCLUDEs
 *   `student_id`, `grade` and `employee_id`, so a subject's page reads its rows from the index (an
 *   index-only scan while the pages are all-visible) and joins only the names it shows, not the
 *   student block again by its key.
 * - Its version, `listing_versions` row `pending_blocks`, bumped by the database itself at the commit
 *   of every transaction that changed what the queue shows, whoever wrote it (the ORM, raw SQL, the
 *   seed, another instance): a block entering, leaving or changed while `pending`; a student's, an
 *   employee's, a block's or a subject's name (and a block's subject); a truncate. The page cache
 *   (`blocks/list-pending-blocks.ts`) keys its answers by it, as the students listing does by its row.
 *
 * As the listing's, the row triggers are deferred to the commit and bump once per transaction: the
 * version row is the last lock a writer takes, after every data row. On a student row both rows are
 * bumped, the listing's first (triggers of one event fire by name); no use case writes a pending block
 * before a student, registration or course in one transaction, so the two rows are taken in one order.
 */
export class Migration20261128010000_pending_queue_version extends Migration {
  override name = 'Migration20261128010000_pending_queue_version';

  override up(): void | Promise<void> {
    this.addSql(`drop index if exists "student_blocks_pending_by_block_index";`);
    this.addSql(`create index "student_blocks_pending_by_block_index" on "student_blocks" ("block_id", "closed_at", "id") include ("student_id", "grade", "employee_id") where "status" = 'pending';`);

    this.addSql(`insert into "listing_versions" ("name") values ('pending_blocks') on conflict ("name") do nothing;`);
    this.addSql(`create function bump_pending_blocks_version() returns trigger language plpgsql as $$
begin
  if current_setting('academy.pending_blocks_bumped', true) is distinct from txid_current()::text then
    perform set_config('academy.pending_blocks_bumped', txid_current()::text, true);
    update listing_versions set version = version + 1 where name = 'pending_blocks';
  end if;
  return null;
end $$;`);
    const rowTriggers: [table: string, events: string, when: string][] = [
      ['student_blocks', 'insert', `new.status = 'pending'`],
      ['student_blocks', 'update', `old.status = 'pending' or new.status = 'pending'`],
      ['student_blocks', 'delete', `old.status = 'pending'`],
      ['students', 'update of "name", "lastname"', `(old.name, old.lastname) is distinct from (new.name, new.lastname)`],
      ['employees', 'update of "name", "lastname"', `(old.name, old.lastname) is distinct from (new.name, new.lastname)`],
      ['blocks', 'update of "name", "subject_id"', `(old.name, old.subject_id) is distinct from (new.name, new.subject_id)`],
      ['subjects', 'update of "name"', `old.name is distinct from new.name`],
    ];
    for (const [table, events, when] of rowTriggers) {
      this.addSql(`create constraint trigger "${table}_pending_blocks_version_${events.split(' ')[0]}" after ${events} on "${table}" deferrable initially deferred for each row when (${when}) execute function bump_pending_blocks_version();`);
    }
    for (const table of ['student_blocks', 'students', 'employees', 'blocks', 'subjects']) {
      this.addSql(`create trigger "${table}_pending_blocks_version_truncate" after truncate on "${table}" for each statement execute function bump_pending_blocks_version();`);
    }
  }

  override down(): void | Promise<void> {
    for (const [table, event] of [['student_blocks', 'insert'], ['student_blocks', 'update'], ['student_blocks', 'delete'], ['students', 'update'], ['employees', 'update'], ['blocks', 'update'], ['subjects', 'update']]) {
      this.addSql(`drop trigger if exists "${table}_pending_blocks_version_${event}" on "${table}";`);
    }
    for (const table of ['student_blocks', 'students', 'employees', 'blocks', 'subjects']) {
      this.addSql(`drop trigger if exists "${table}_pending_blocks_version_truncate" on "${table}";`);
    }
    this.addSql(`drop function if exists bump_pending_blocks_version();`);
    this.addSql(`delete from "listing_versions" where "name" = 'pending_blocks';`);
    this.addSql(`drop index if exists "student_blocks_pending_by_block_index";`);
    this.addSql(`create index "student_blocks_pending_by_block_index" on "student_blocks" ("block_id", "closed_at", "id") where "status" = 'pending';`);
  }
}
