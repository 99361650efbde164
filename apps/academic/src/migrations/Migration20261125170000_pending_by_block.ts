import { Migration } from '@mikro-orm/migrations';

// Declared by hand, as the other partial indexes of the review queues: the pending blocks of one
// block in review order, so a subject's pending listing merges its blocks' ordered runs (any page
// costs its offset in index entries, not a walk of every pending block) and the badge counts a
// subject on the index alone.
export class Migration20261125170000_pending_by_block extends Migration {

  override name = 'Migration20261125170000_pending_by_block';

  override up(): void | Promise<void> {
    this.addSql(`create index "student_blocks_pending_by_block_index" on "student_blocks" ("block_id", "closed_at", "id") where "status" = 'pending';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "student_blocks_pending_by_block_index";`);
  }

}
