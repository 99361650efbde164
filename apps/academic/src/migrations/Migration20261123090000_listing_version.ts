import { Migration } from '@mikro-orm/migrations';

/**
 * The version of what the administrative student listing reads (students, registrations, school
 * courses), bumped by the database itself at the commit of every transaction that changed them,
 * whatever wrote them (the ORM, raw SQL, the seed, another instance). The listing cache keys its
 * entries by it (see `listing/listing-cache.ts`). `epoch` tells databases apart (a test database, a
 * recreated one) so that their versions never share cache entries.
 *
 * The row triggers are deferred to the commit and bump once per transaction: the version row is
 * the last lock a writer takes, after every data row, so two writers cannot deadlock on it.
 */
export class Migration20261123090000_listing_version extends Migration {
  override name = 'Migration20261123090000_listing_version';

  override up(): void | Promise<void> {
    this.addSql(`create table "listing_versions" ("name" text primary key, "epoch" uuid not null default gen_random_uuid(), "version" bigint not null default 0);`);
    this.addSql(`insert into "listing_versions" ("name") values ('students');`);
    this.addSql(`create function bump_students_listing_version() returns trigger language plpgsql as $$
begin
  if current_setting('academy.students_listing_bumped', true) is distinct from txid_current()::text then
    perform set_config('academy.students_listing_bumped', txid_current()::text, true);
    update listing_versions set version = version + 1 where name = 'students';
  end if;
  return null;
end $$;`);
    for (const table of ['students', 'registrations', 'school_courses']) {
      this.addSql(`create constraint trigger "${table}_listing_version" after insert or update or delete on "${table}" deferrable initially deferred for each row execute function bump_students_listing_version();`);
      this.addSql(`create trigger "${table}_listing_version_truncate" after truncate on "${table}" for each statement execute function bump_students_listing_version();`);
    }
  }

  override down(): void | Promise<void> {
    for (const table of ['students', 'registrations', 'school_courses']) {
      this.addSql(`drop trigger if exists "${table}_listing_version" on "${table}";`);
      this.addSql(`drop trigger if exists "${table}_listing_version_truncate" on "${table}";`);
    }
    this.addSql(`drop function if exists bump_students_listing_version();`);
    this.addSql(`drop table if exists "listing_versions";`);
  }
}
