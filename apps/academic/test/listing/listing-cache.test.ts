import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { admin, em, useAcademic } from '../support.ts';
import { ListingCache } from '../../src/shared/listing-cache.ts';
import { readListingVersion } from '../../src/listing/listing.store.ts';

const PATH = '/api/students/administrative';

describe('the administrative listing cache (in memory, keyed by the version the database keeps)', () => {
  const { service, f } = useAcademic();
  const list = (search: string) => request(service().url).get(PATH).query({ search }).set(admin);
  const version = async () => Number((await f.query<{ version: string }>(`select version from listing_versions where name = 'students'`))[0].version);

  test('an answer is served from the cache until a commit changes students, registrations or school courses', async () => {
    const id = await f.student('Cachée', 'Primera');
    expect((await list('cachee primera')).body.data).toEqual([expect.objectContaining({ id, name: 'Cachée' })]);
    // A change the version does not see (its trigger off) is not shown: the answer came from the cache.
    await f.query(`alter table students disable trigger students_listing_version`);
    try {
      await f.query(`update students set name = 'Renamed' where id = ?`, [id]);
    } finally {
      await f.query(`alter table students enable trigger students_listing_version`);
    }
    expect((await list('cachee primera')).body.data).toEqual([expect.objectContaining({ id, name: 'Cachée' })]);
    // Any commit on one of the three tables moves the version: the next answer is read anew.
    await f.course('2031-09-01');
    expect((await list('cachee primera')).body.data).toEqual([]);
    expect((await list('renamed primera')).body.data).toEqual([expect.objectContaining({ id, name: 'Renamed' })]);
  });

  test('the version moves once per committed transaction, whatever it wrote to the three tables, and not for a rolled-back one', async () => {
    const before = await version();
    const subjectId = await f.subject();
    const centerId = await f.center();
    expect(await version()).toBe(before); // subjects and centers are not part of the listing
    const courseId = await f.course('2030-09-01');
    expect(await version()).toBe(before + 1);
    await em(service()).transactional(async (tx) => {
      const [{ id }] = await tx.execute<{ id: number }[]>(`insert into students (name, lastname, status, created_at, updated_at) values ('Two', 'Writes', 'active', now(), now()) returning id`);
      await tx.execute(`insert into registrations (student_id, school_course_id, subject_id, center_id, status, created_at, updated_at) values (?, ?, ?, ?, 'active', now(), now())`, [id, courseId, subjectId, centerId]);
      await tx.execute(`update students set lastname = 'Writes too' where id = ?`, [id]);
    });
    expect(await version()).toBe(before + 2);
    await expect(
      em(service()).transactional(async (tx) => {
        await tx.execute(`insert into students (name, lastname, status, created_at, updated_at) values ('Rolled', 'Back', 'active', now(), now())`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version()).toBe(before + 2);
  });

  test('concurrent writers that share a student commit one after the other: the version is the last lock each takes, so it never closes a deadlock', async () => {
    const courseId = await f.course('2029-09-01');
    const subjectId = await f.subject();
    const centerId = await f.center();
    const shared = await f.student('Shared', 'Student');
    const own = await Promise.all(Array.from({ length: 16 }, async () => f.registration({ studentId: await f.student('Own', 'Student'), courseId, subjectId, centerId })));
    const before = await version();
    // Half take their own registration then the shared student, half the other way round. With the
    // version bumped at each statement, a writer holding it and waiting for the shared student while
    // the student's holder waits for the version would deadlock.
    const writers = own.map((registrationId, i) =>
      em(service()).transactional(async (tx) => {
        const touchShared = () => tx.execute(`update students set updated_at = now() where id = ?`, [shared]);
        const touchOwn = () => tx.execute(`update registrations set updated_at = now() where id = ?`, [registrationId]);
        await (i % 2 === 0 ? touchOwn() : touchShared());
        await new Promise((resolve) => setTimeout(resolve, 5));
        await (i % 2 === 0 ? touchShared() : touchOwn());
      }),
    );
    const outcomes = await Promise.allSettled(writers);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(await version()).toBe(before + 16);
  });

  test('the cache keeps within its byte budget: the least recently used answers leave first', async () => {
    const cache = new ListingCache({ maxBytes: 1000 });
    const answer = (n: number) => async () => ({ n, padding: 'x'.repeat(180) });
    for (let n = 0; n < 20; n++) await cache.json(() => readListingVersion(em(service())), { n }, answer(n));
    expect(cache.size).toBeLessThanOrEqual(1000);
    let loads = 0;
    const counted = (n: number) => async () => {
      loads++;
      return answer(n)();
    };
    await cache.json(() => readListingVersion(em(service())), { n: 19 }, counted(19)); // recent: still kept
    expect(loads).toBe(0);
    await cache.json(() => readListingVersion(em(service())), { n: 0 }, counted(0)); // oldest: gone
    expect(loads).toBe(1);
  });
});
