import { describe, expect, test } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { docsRouter } from '../src/docs.ts';

const app = express().use('/api/docs', docsRouter());

describe('/api/docs: the events beside the HTTP API', () => {
  test('/api/docs/asyncapi.json is the AsyncAPI 3 document of every event type, each with its publishers and consumers', async () => {
    const res = await request(app).get('/api/docs/asyncapi.json');
    expect(res.status).toBe(200);
    expect(res.body.asyncapi).toBe('3.0.0');
    expect(res.body.channels['block_approved'].address).toBe('block.approved');
    expect(res.body.operations['academic__send__block_approved'].action).toBe('send');
    expect(res.body.operations['notifications__receive__block_approved'].action).toBe('receive');
  });

  test('/api/docs/events renders it (no script), and the OpenAPI document links to it', async () => {
    const page = await request(app).get('/api/docs/events');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('<h2>payslip.published</h2>');
    expect(page.text).toContain('notifications consumes payslip.published (queue notifications.email)');
    expect(page.text).not.toContain('<script');
    const openapi = await request(app).get('/api/docs/openapi.json');
    expect(openapi.body.info.description).toContain('(./events)');
  });
});
