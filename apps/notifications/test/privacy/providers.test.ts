import { describe, expect, test } from '@jest/globals';
import type { PrivacySubject } from '@academy/contracts';
import type { PrivacyProvider } from '@academy/privacy';
import { notificationsProviders } from '../../src/privacy.ts';
import { sql, useNotifications } from '../support.ts';

// Two people side by side: every request about one leaves the other's rows as they were.
const EMPLOYEE: PrivacySubject = { kind: 'employee', id: 71, userId: 901, email: 'Ana.Person@school.test' };
const GUARDIAN: PrivacySubject = { kind: 'guardian', id: 72, userId: null, email: 'guardian.person@school.test' };
const OTHER_USER = 902;
const NOW = new Date('2026-11-27T10:00:00Z');

const TABLES = ['device_tokens', 'notification_preferences', 'quiet_hours', 'deliveries', 'email_unsubscribes', 'held_pushes'];

describe("notifications' privacy providers (devices, preferences, deliveries, e-mail opt-outs, held pushes)", () => {
  const service = useNotifications();

  /** Each test's own data: the tables emptied, then both people's rows. */
  async function seed(): Promise<void> {
    await sql(service(), `truncate ${TABLES.join(', ')}`);
    for (const [userId, tag] of [[EMPLOYEE.userId, 'ana'], [OTHER_USER, 'other']] as const) {
      await sql(service(), `insert into device_tokens (user_id, device_id, token, platform, created_at, updated_at, last_seen_at) values (?, ?, ?, 'android', now(), now(), now())`, [userId, `phone-${tag}`, `token-${tag}`]);
      await sql(service(), `insert into notification_preferences (user_id, type, channel, enabled, updated_at) values (?, 'block_approved', 'email', false, now())`, [userId]);
      await sql(service(), `insert into quiet_hours (user_id, start_time, end_time, time_zone, updated_at) values (?, '22:00', '07:00', 'Europe/Madrid', now())`, [userId]);
      await sql(service(), `insert into held_pushes (user_id, event_type, message, release_at, created_at) values (?, 'attendance.missing', ?, now(), now())`, [userId, JSON.stringify({ title: `Register ${tag}`, body: 'Take it' })]);
      await sql(
        service(),
        `insert into deliveries (event_id, event_type, channel, recipient, user_id, subject, payload, status, attempts, created_at, updated_at)
         values (?, 'payslip.published', 'push', ?, ?, 'A payslip', null, 'recorded', 1, now(), now())`,
        [`push-${tag}`, `user:${userId}`, userId],
      );
    }
    await sql(
      service(),
      `insert into deliveries (event_id, event_type, channel, recipient, user_id, subject, payload, status, attempts, created_at, updated_at)
       values ('mail-ana', 'payslip.published', 'email', 'ana.person@school.test', null, 'Your payslip', '{"text": "Hello Ana"}', 'sent', 1, now(), now()),
              ('mail-guardian', 'block.approved', 'email', 'guardian.person@school.test', null, 'A block', '{"text": "Hello guardian"}', 'sent', 1, now(), now()),
              ('mail-other', 'block.approved', 'email', 'other@school.test', null, 'A block', '{"text": "Hello other"}', 'sent', 1, now(), now())`,
    );
    await sql(service(), `insert into email_unsubscribes (recipient, type, created_at) values ('guardian.person@school.test', 'attendance_warning', now()), ('other@school.test', 'attendance_warning', now())`);
  }

  const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (table) => [table, (await sql<{ n: number }>(service(), `select count(*)::int as n from ${table}`))[0]!.n])));
  const asked = (subject: PrivacySubject) => notificationsProviders.filter((provider) => provider.subjects.includes(subject.kind));
  const request = { requestId: '00000000-0000-4000-8000-000000000001', now: NOW, locale: 'es' as const };
  const exportOf = (provider: PrivacyProvider, subject: PrivacySubject) => service().ctx.orm.em.fork().transactional((em) => provider.export({ em, subject, ...request }));
  const eraseOf = (provider: PrivacyProvider, subject: PrivacySubject) => service().ctx.orm.em.fork().transactional((em) => provider.erase({ em, subject, ...request }));

  test('an export answers each feature\'s rows of the person (by login or address, any case) and nothing of anyone else, and changes nothing', async () => {
    await seed();
    const before = await counts();
    const parts = Object.fromEntries(await Promise.all(asked(EMPLOYEE).map(async (provider) => [provider.feature, (await exportOf(provider, EMPLOYEE))?.data ?? null])));
    expect(JSON.parse(JSON.stringify(parts))).toMatchObject({
      devices: { devices: [{ deviceId: 'phone-ana', platform: 'android', token: 'token-ana' }] },
      preferences: { settings: [{ type: 'block_approved', channel: 'email', enabled: false }], quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Madrid' } },
      deliveries: { deliveries: [{ channel: 'push', recipient: 'user:901' }, { channel: 'email', recipient: 'ana.person@school.test', text: 'Hello Ana' }] },
      email: null,
      push: { heldPushes: [{ eventType: 'attendance.missing', title: 'Register ana', body: 'Take it' }] },
    });
    expect(JSON.stringify(parts)).not.toMatch(/other/);
    // Instants as JSON dates are written (ISO 8601 in UTC), never PostgreSQL's text form ("2026-11-27 10:00:00.123+00").
    const instants = JSON.stringify(parts).match(/"(createdAt|updatedAt|lastSeenAt|sentAt|releaseAt)":"[^"]*"/g) ?? [];
    expect(instants.length).toBeGreaterThanOrEqual(5);
    for (const instant of instants) expect(instant).toMatch(/:"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"$/);
    // A guardian has no login: only what their address received and the opt-outs it recorded.
    expect(asked(GUARDIAN).map((provider) => provider.feature)).toEqual(['deliveries', 'email']);
    const guardian = await Promise.all(asked(GUARDIAN).map((provider) => exportOf(provider, GUARDIAN)));
    expect(JSON.parse(JSON.stringify(guardian.map((answer) => answer?.data)))).toMatchObject([
      { deliveries: [{ recipient: 'guardian.person@school.test', text: 'Hello guardian' }] },
      { address: 'guardian.person@school.test', optOuts: [{ type: 'attendance_warning' }] },
    ]);
    expect(await counts()).toEqual(before);
  });

  test("an erasure deletes the person's rows of every feature and says how many; run again it erases nothing more; the other person's rows stay", async () => {
    await seed();
    const before = await counts();
    const erased = await Promise.all(asked(EMPLOYEE).map((provider) => eraseOf(provider, EMPLOYEE)));
    expect(erased).toEqual([
      { erased: [{ what: 'push device tokens', count: 1 }], kept: [] },
      { erased: [{ what: 'notification settings', count: 1 }, { what: 'quiet hours', count: 1 }], kept: [] },
      { erased: [{ what: 'e-mails and pushes sent (their record and text)', count: 2 }], kept: [] },
      { erased: [], kept: [] },
      { erased: [{ what: 'pushes held for quiet hours', count: 1 }], kept: [] },
    ]);
    const guardian = await Promise.all(asked(GUARDIAN).map((provider) => eraseOf(provider, GUARDIAN)));
    expect(guardian).toEqual([
      { erased: [{ what: 'e-mails and pushes sent (their record and text)', count: 1 }], kept: [] },
      { erased: [{ what: 'e-mail opt-outs', count: 1 }], kept: [] },
    ]);
    expect(await counts()).toEqual({ device_tokens: before.device_tokens - 1, notification_preferences: before.notification_preferences - 1, quiet_hours: before.quiet_hours - 1, deliveries: before.deliveries - 3, email_unsubscribes: before.email_unsubscribes - 1, held_pushes: before.held_pushes - 1 });
    const again = await Promise.all([...asked(EMPLOYEE).map((provider) => eraseOf(provider, EMPLOYEE)), ...asked(GUARDIAN).map((provider) => eraseOf(provider, GUARDIAN))]);
    expect(again.every((answer) => answer.erased.length === 0 && answer.kept.length === 0)).toBe(true);
    expect(await Promise.all(asked(EMPLOYEE).map((provider) => exportOf(provider, EMPLOYEE)))).toEqual([null, null, null, null, null]);
    expect(await sql(service(), `select token from device_tokens`)).toEqual([{ token: 'token-other' }]);
    expect(await sql(service(), `select recipient from email_unsubscribes`)).toEqual([{ recipient: 'other@school.test' }]);
  });
});
