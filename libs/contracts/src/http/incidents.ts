import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorBody, IdPathParam, UnspecifiedObject, jsonContent } from './common.ts';

/** Time-record incidents and time records (incidents service); shapes not shown by the spec are open objects. */
export function registerIncidentsDocs(registry: OpenAPIRegistry): void {
  const security = [{ bearerAuth: [] }];
  const unauthorized = jsonContent(ErrorBody, 'UNAUTHORIZED');
  const ok = jsonContent(UnspecifiedObject, 'Payload not specified by the interface');
  const incidentId = IdPathParam('id');
  const routes: { method: 'get' | 'post'; path: string; summary: string; params?: typeof incidentId; query?: z.ZodObject; body?: boolean }[] = [
    { method: 'get', path: '/api/v2/incident/', summary: 'Incidents with filters (admin)' },
    { method: 'get', path: '/api/v2/incident/my', summary: "The employee's own incidents", query: z.object({ status: z.string().optional() }) },
    { method: 'get', path: '/api/v2/incident/{id}', summary: 'Incident detail with files and messages', params: incidentId },
    { method: 'get', path: '/api/v2/incident/{id}/threads', summary: 'Conversation threads of an incident', params: incidentId },
    { method: 'post', path: '/api/v2/incident/{id}/thread', summary: 'Employee sends a message', params: incidentId, body: true },
    { method: 'post', path: '/api/v2/incident/{id}/admin-thread', summary: 'Admin sends a message', params: incidentId, body: true },
  ];
  for (const route of routes) {
    registry.registerPath({
      method: route.method,
      path: route.path,
      tags: ['incidents'],
      security,
      summary: route.summary,
      request: {
        params: route.params,
        query: route.query,
        body: route.body ? { content: { 'application/json': { schema: UnspecifiedObject } } } : undefined,
      },
      responses: { 200: ok, 401: unauthorized },
    });
  }
  registry.registerPath({
    method: 'get',
    path: '/api/v2/timerecord/open',
    tags: ['timerecord'],
    security,
    summary: 'Whether the employee has an open time record',
    responses: { 200: jsonContent(z.object({ hasOpenRecord: z.boolean() }).catchall(z.unknown()), 'Open record state'), 401: unauthorized },
  });
}
