import { Migration } from '@mikro-orm/migrations';

// Declared by hand, as the other partial indexes of the review queues (issue 32): one student's
// pending blocks in review order, covering what a student's listing shows from its row (the block,
// the grade, the teacher), so a student's listing, whole or a page from its cursor, is an index-only
// range read instead of the student's every block read through `(student_id, block_id)` and sorted.
// Additive: a release before it reads the same tables and never names the index.
export class Migration20261128110000_pending_by_student extends Migration {

  override name = 'Migration20261128110000_pending_by_student';

  override up(): void | Promise<void> {
    this.addSql(`create index "student_blocks_pending_by_student_index" on "student_blocks" ("student_id", "closed_at", "id") include ("block_id", "grade", "employee_id") where "status" = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "student_blocks_pending_by_student_index";`);
  }

}
