import { Migration } from '@mikro-orm/migrations';

// Declared by hand (issue 32): the outbox's unpublished rows in id order, the relay's claim's own index.
// The claim reads it in order and stops at its batch; its connection plans no sequential scan once this
// index is there (libs/messaging, "The relay"), so a plan made while the outbox was empty never reads
// every published row again. Additive: a release before it never names the index.
export class Migration20261128170000_outbox_unpublished_index extends Migration {

  override name = 'Migration20261128170000_outbox_unpublished_index';

  override up(): void | Promise<void> {
    this.addSql(`create index if not exists "outbox_unpublished_index" on "outbox" ("id") where "published_at" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "outbox_unpublished_index";`);
  }

}
