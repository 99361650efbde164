import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { seedDemoData } from '../../src/seed.ts';
import { admin, useAcademic } from '../support.ts';

describe('demo blocks of the seed', () => {
  const { service, f } = useAcademic();

  test('several students have blocks in every state, pending ones wait for review, rejected ones carry the reason; the flow works on them', async () => {
    const seeded = await seedDemoData(service().ctx.orm);
    expect(seeded.counts!.pendingBlocks).toBeGreaterThan(5);
    const [shape] = await f.query<Record<string, number>>(`
      select (select count(distinct student_id)::int from student_blocks where status = 'pending') as pending_students,
             (select count(*)::int from student_blocks where status = 'closed') as closed,
             (select count(*)::int from student_blocks where status = 'open') as open,
             (select count(*)::int from student_blocks where status = 'blocked') as blocked,
             (select count(*)::int from student_blocks where status = 'open' and rejected_at is not null) as rejected,
             (select count(*)::int from student_block_messages where kind = 'rejection') as reasons,
             (select count(*)::int from (select r.student_id, b.id from registrations r join blocks b on b.subject_id = r.subject_id
                                         except select student_id, block_id from student_blocks) missing) as missing`);
    expect(shape.pending_students).toBeGreaterThan(3);
    for (const key of ['closed', 'open', 'blocked', 'rejected']) expect(shape[key]).toBeGreaterThan(0);
    expect(shape.reasons).toBe(shape.rejected);
    expect(shape.missing).toBe(0);

    const pending = await request(service().url).get('/api/v2/blocks/pending').set(admin);
    expect(pending.body.total).toBe(seeded.counts!.pendingBlocks);
    const oldest = pending.body.byStudent[0].blocks[0];
    const approved = await request(service().url).post(`/api/v2/blocks/student-block/${oldest.studentBlockId}/review`).set(admin).send({ action: 'approve' });
    expect(approved.status).toBe(200);
    expect(approved.body.newStatus).toBe('closed');
  });
});
