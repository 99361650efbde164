import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import type { EventData } from '@academy/contracts';
import { bearer } from '@academy/testing';
import { envelope, sleep, sql, until, useNotificationsWithSmtp } from '../support.ts';

function digest(email: string, userId: number, locale: 'es' | 'en' | null, count = 12): EventData<'blocks.pending-digest'> {
  return {
    day: '2026-05-04',
    at: '2026-05-04T06:00:00.000Z',
    thresholdHours: 48,
    admin: { name: 'Marta Ruiz', email, userId, locale },
    count,
    oldest: Array.from({ length: Math.min(count, 10) }, (_, i) => ({
      studentBlockId: 100 + i,
      studentId: 200 + i,
      studentName: i === 0 ? 'Leo <Gil>' : `Alumno ${i}`,
      blockId: 300 + i,
      blockName: 'Bloque 1',
      subjectId: 7,
      subjectName: 'Matemáticas',
      closedAt: '2026-05-01T18:00:00.000Z',
      waitingHours: 60 - i,
    })),
  };
}

describe('the approval digest mail (blocks.pending-digest), read back from a real SMTP server', () => {
  const { service, publish, mailsTo } = useNotificationsWithSmtp({ APP_URL: 'https://app.academy.test/' });

  async function deliver(data: EventData<'blocks.pending-digest'>) {
    const event = envelope('blocks.pending-digest', data);
    await publish(event);
    return event.id;
  }

  test('in Spanish (the academy language, the admin chose none): the count, the oldest ten with how long they waited, the rest counted, a link; values escaped', async () => {
    await deliver(digest('admin.es@school.test', 4001, null));
    const [mail] = await until(async () => (mailsTo('admin.es@school.test').length ? mailsTo('admin.es@school.test') : null), 10_000, 'the digest');
    expect(mail!.subject).toBe('12 bloques esperan tu revisión');
    expect(mail!.text).toContain('Hola, Marta Ruiz:');
    expect(mail!.text).toContain('12 bloques llevan más de 48 horas esperando revisión. Los más antiguos:');
    expect(mail!.text).toContain('· Leo <Gil>: Bloque 1 (Matemáticas), esperando desde hace 2 días y 12 horas');
    expect(mail!.text).toContain('· Alumno 9: Bloque 1 (Matemáticas), esperando desde hace 2 días y 3 horas');
    expect(mail!.text).toContain('…y 2 más.');
    expect(mail!.text).toContain('Revísalos en la aplicación: https://app.academy.test/blocks/pending');
    expect(mail!.html).toContain('<strong>Leo &lt;Gil&gt;</strong>');
    expect(mail!.html).not.toContain('<Gil>');
    await sleep(200);
    expect(mailsTo('admin.es@school.test')).toHaveLength(1);
  });

  test('in English for an admin who chose it', async () => {
    await deliver(digest('admin.en@school.test', 4002, 'en', 1));
    const [mail] = await until(async () => (mailsTo('admin.en@school.test').length ? mailsTo('admin.en@school.test') : null), 10_000, 'the digest');
    expect(mail!.subject).toBe('1 block awaits your review');
    expect(mail!.text).toContain('One block has waited more than 48 hours for review:');
    expect(mail!.text).toContain('· Leo <Gil>: Bloque 1 (Matemáticas), waiting 2 days and 12 hours');
    expect(mail!.text).not.toContain('more.');
  });

  test('an admin who switched approval_digest off by e-mail gets none: the delivery is recorded as skipped', async () => {
    const put = await request(service().url)
      .put('/api/v2/notifications/preferences')
      .set(bearer({ sub: '4003', role: 'admin' }))
      .send({ preferences: [{ type: 'approval_digest', channel: 'email', enabled: false }] });
    expect(put.status).toBe(200);
    const eventId = await deliver(digest('admin.off@school.test', 4003, null));
    const rows = await until(
      async () => {
        const found = await sql<{ status: string }>(service(), `select status from deliveries where event_id = ?`, [eventId]);
        return found[0]?.status === 'skipped' ? found : null;
      },
      10_000,
      'the skipped delivery',
    );
    expect(rows).toEqual([{ status: 'skipped' }]);
    expect(mailsTo('admin.off@school.test')).toEqual([]);
  });
});
