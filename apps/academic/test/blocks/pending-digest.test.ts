import { describe, expect, test } from '@jest/globals';
import { fixedClock, type SettableClock } from '@academy/kit';
import { startService } from '@academy/service';
import { useService } from '@academy/testing/harness';
import { academicService } from '../../src/service.ts';
import { runPendingDigests } from '../../src/blocks/pending-digests.ts';
import { fixtures, startAcademic } from '../support.ts';
import { blockWorld } from './blocks-support.ts';

// 07:59 and 08:00 in Madrid (CEST) on Monday 4 May 2026.
const BEFORE = '2026-05-04T05:59:00Z';
const AT = '2026-05-04T06:00:00Z';
const HOUR = 3_600_000;

/** The service over a database of its own with a pinned clock (the check's timer off: tests run it). */
function useDigest(start: string) {
  const clock: SettableClock = fixedClock(start);
  const service = useService(() => startAcademic({ DIGEST_CHECK_INTERVAL_MS: 0 }, { clock }));
  const f = fixtures(service);
  const w = blockWorld(service, f);
  return {
    clock,
    service,
    f,
    /** An active admin login (named by its employee when it has one). */
    admin: async (email: string, options: { name?: string; locale?: string; active?: boolean } = {}) => {
      let employeeId: number | null = null;
      if (options.name) {
        employeeId = await f.employee(options.name);
        await f.query(`update employees set lastname = 'Admin' where id = ?`, [employeeId]);
      }
      const [{ id }] = await f.query<{ id: number }>(
        `insert into users (email, password_hash, role, employee_id, active, locale, created_at, updated_at) values (?, 'x', 'admin', ?, ?, ?, now(), now()) returning id`,
        [email, employeeId, options.active ?? true, options.locale ?? null],
      );
      return id;
    },
    /** `n` pending blocks (first blocks of one subject), closed at the given instants. */
    pending: async (closedAt: Date[]) => {
      const subject = await w.subject(['D1', 'D2']);
      const teacher = await w.teacher();
      const ids: number[] = [];
      for (const at of closedAt) {
        const { rows } = await w.pendingFirstBlock(subject, teacher, { name: `Stu${ids.length}` });
        await f.query(`update student_blocks set closed_at = ? where id = ?`, [at, rows[0]!.id]);
        ids.push(rows[0]!.id);
      }
      return { subjectId: subject.subjectId, ids };
    },
    digests: () =>
      f.query<{ data: { day: string; count: number; admin: { userId: number; email: string; name: string; locale: string | null }; oldest: { studentBlockId: number; waitingHours: number; studentName: string; blockName: string; subjectName: string }[] } }>(
        `select envelope->'data' as data from outbox where type = 'blocks.pending-digest' order by id`,
      ),
  };
}

describe('the approval digest when nothing has waited PENDING_REMINDER_HOURS', () => {
  const d = useDigest(AT);

  test('no digest and no admin-day row when every pending block is younger than 48 hours', async () => {
    await d.admin('boss@example.com', { name: 'Marta' });
    await d.pending([new Date(Date.parse(AT) - 47 * HOUR)]);
    expect(await runPendingDigests(d.service().ctx)).toBe(0);
    expect(await d.digests()).toEqual([]);
    expect(await d.f.query(`select * from pending_digests`)).toEqual([]);
  });
});

describe('the daily approval digest (blocks.pending-digest)', () => {
  const d = useDigest(BEFORE);

  test('from 08:00 local, one per admin per day however many instances run the check: the count, the oldest ten, how long they waited', async () => {
    const marta = await d.admin('marta@example.com', { name: 'Marta', locale: 'en' });
    const luis = await d.admin('luis@example.com');
    await d.admin('gone@example.com', { active: false });
    // Twelve blocks waiting 49…60 hours at 08:00, and one of 47 hours that is not counted yet.
    const waited = Array.from({ length: 12 }, (_, i) => new Date(Date.parse(AT) - (60 - i) * HOUR));
    const { ids, subjectId } = await d.pending([...waited, new Date(Date.parse(AT) - 47 * HOUR)]);

    expect(await runPendingDigests(d.service().ctx)).toBe(0); // 07:59
    expect(await d.digests()).toEqual([]);

    d.clock.set(AT);
    const second = await startService(academicService, d.service().ctx.config, { clock: d.clock });
    try {
      const sent = await Promise.all([runPendingDigests(d.service().ctx), runPendingDigests(second.ctx), runPendingDigests(d.service().ctx), runPendingDigests(second.ctx)]);
      expect(sent.reduce((sum, n) => sum + n, 0)).toBe(2);
    } finally {
      await second.stop();
    }
    const digests = await d.digests();
    expect(digests.map((row) => row.data.admin.userId).sort((a, b) => a - b)).toEqual([marta, luis].sort((a, b) => a - b));
    const toMarta = digests.find((row) => row.data.admin.userId === marta)!.data;
    expect(toMarta).toMatchObject({ day: '2026-05-04', count: 12, admin: { name: 'Marta Admin', email: 'marta@example.com', locale: 'en' } });
    expect(toMarta.oldest.map((block) => block.studentBlockId)).toEqual(ids.slice(0, 10));
    expect(toMarta.oldest.map((block) => block.waitingHours)).toEqual([60, 59, 58, 57, 56, 55, 54, 53, 52, 51]);
    expect(toMarta.oldest[0]).toMatchObject({ studentName: expect.stringMatching(/^Stu0 /), blockName: 'D1', subjectId });
    expect(digests.find((row) => row.data.admin.userId === luis)!.data.admin).toMatchObject({ name: 'luis@example.com', email: 'luis@example.com', locale: null });

    d.clock.set('2026-05-04T21:59:00Z'); // later the same day: nothing more
    expect(await runPendingDigests(d.service().ctx)).toBe(0);
    d.clock.set('2026-05-05T06:30:00Z'); // the next day, while they still wait: again
    expect(await runPendingDigests(d.service().ctx)).toBe(2);
    expect((await d.digests()).map((row) => row.data.day)).toEqual(['2026-05-04', '2026-05-04', '2026-05-05', '2026-05-05']);
  });
});
