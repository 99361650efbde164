import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import request from 'supertest';
import { startService, type RunningService } from '@academy/service';
import { bearer, deleteTestQueues, dropTestDatabase, testConfig, uniqueQueueName } from '@academy/testing';
// The component test runs the real incidents service in-process behind the gateway.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { incidentsService } from '../../incidents/src/service.ts';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ConfigSchema as IncidentsConfig, type Config as IncidentsConfigType } from '../../incidents/src/config.ts';
import { startGateway, type RunningGateway } from '../src/gateway.ts';
import { gatewayConfig } from './helpers.ts';

describe('gateway in front of the real incidents service: multipart uploads', () => {
  let incidents: RunningService<IncidentsConfigType>;
  let gateway: RunningGateway;
  const employee = bearer({ role: 'user', sub: '9001', employeeId: 901 });

  beforeAll(async () => {
    const config: IncidentsConfigType = {
      ...IncidentsConfig.parse({}),
      ...(await testConfig('gateway_incidents')),
      REPLICAS_QUEUE: uniqueQueueName('incidents.replicas'),
      FILES_DIR: mkdtempSync(path.join(os.tmpdir(), 'gateway-incidents-')),
      CHECK_INTERVAL_MS: 0,
    };
    incidents = await startService(incidentsService, config);
    await incidents.ctx.broker.start();
    gateway = await startGateway(gatewayConfig({ INCIDENTS_URL: incidents.url, HOURS_BANK_URL: incidents.url }));
  });
  afterAll(async () => {
    await gateway?.stop();
    await incidents?.stop();
    if (incidents) {
      await dropTestDatabase(incidents.ctx.config.DATABASE_URL);
      rmSync(incidents.ctx.config.FILES_DIR, { recursive: true, force: true });
      await deleteTestQueues(incidents.ctx.config.EVENTS_EXCHANGE, [incidents.ctx.config.REPLICAS_QUEUE]);
    }
  });

  test('a 3 MB attachment passes the gateway (above its JSON body limit) and downloads byte for byte; other routes keep the limit', async () => {
    const clockOut = await request(gateway.url).post('/api/v2/timerecord/clock-out').set(employee).send({ source: 'Web' });
    expect(clockOut.status).toBe(409);
    const incidentId = clockOut.body.details.incidentId as number;
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * 1024 * 1024, 7)]);
    const posted = await request(gateway.url)
      .post(`/api/v2/incident/${incidentId}/thread`)
      .set(employee)
      .field('message', 'the sheet')
      .attach('files', pdf, { filename: 'sheet.pdf', contentType: 'application/pdf' });
    expect(posted.status).toBe(201);
    const file = posted.body.data.files[0];
    expect(file.sizeBytes).toBe(pdf.length);
    const download = await request(gateway.url)
      .get(file.url)
      .set(employee)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(Buffer.compare(download.body as Buffer, pdf)).toBe(0);

    const tooBig = await request(gateway.url).post('/api/v2/hours-bank/1/completed').set(bearer({ role: 'admin', sub: '1' })).send({ time: '1h', reason: 'x'.repeat(200 * 1024) });
    expect(tooBig.status).toBe(413);
  });
});
