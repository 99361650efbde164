import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { lastMonths, seedDemoPayslips } from '../src/seed.ts';
import { adminAuth, batchWhenRead, seedEmployee, usePayslips } from './support.ts';

describe('demo payslips (the seed npm start runs)', () => {
  const service = usePayslips();

  test('lastMonths: the whole months before the current one, newest first, with their last day', () => {
    expect(lastMonths('2026-03-10', 3)).toEqual([
      { periodStart: '2026-02-01', periodEnd: '2026-02-28', label: 'Nómina febrero 2026' },
      { periodStart: '2026-01-01', periodEnd: '2026-01-31', label: 'Nómina enero 2026' },
      { periodStart: '2025-12-01', periodEnd: '2025-12-31', label: 'Nómina diciembre 2025' },
    ]);
  });

  test('each employee with a tax id gets two earlier months; the demo combined PDF matches each of them and leaves one page unmatched; a second run uploads nothing', async () => {
    const teachers = [await seedEmployee(service(), { name: 'Ana' }), await seedEmployee(service(), { name: 'Luis' })];
    await seedEmployee(service(), { taxId: null });
    const config = service().ctx.config;
    const demoFile = path.join(config.FILES_DIR, 'demo-batch.pdf');
    const first = await seedDemoPayslips(config, { now: new Date('2026-03-10T10:00:00Z'), serviceUrl: service().url, demoFile });
    expect(first).toMatchObject({ employees: 2, uploaded: 4 });
    const mine = await request(service().url).get('/api/v2/payslips/my').set(teachers[0]!.auth);
    expect(mine.body.data.map((p: { label: string }) => p.label)).toEqual(['Nómina enero 2026', 'Nómina diciembre 2025']);
    const again = await seedDemoPayslips(config, { now: new Date('2026-03-10T10:00:00Z'), serviceUrl: service().url, demoFile });
    expect(again.uploaded).toBe(0);

    const batch = await request(service().url)
      .post('/api/v2/payslips/batches')
      .set(adminAuth)
      .field('periodStart', '2026-02-01')
      .field('periodEnd', '2026-02-28')
      .field('label', 'Nómina febrero 2026')
      .field('matchBy', 'taxId')
      .attach('file', readFileSync(first.demoPdf), { filename: 'demo-batch.pdf', contentType: 'application/pdf' });
    expect(batch.status).toBe(202);
    const read = await batchWhenRead(service(), batch.body.data.id);
    expect(read.matches.map((m) => m.employeeId)).toEqual(teachers.map((t) => t.employeeId));
    expect(read.unmatchedPages.map((p) => p.page)).toEqual([3]);
  });
});
