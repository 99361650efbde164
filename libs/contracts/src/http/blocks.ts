import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorBody, IdPathParam, UnspecifiedObject, jsonContent } from './common.ts';

const id = z.number().int().positive();

export const PendingBlocksQuery = z.object({ studentId: z.coerce.number().int().positive().optional(), subjectId: z.coerce.number().int().positive().optional() });

export const PendingBlock = z.object({
  blockId: id,
  blockName: z.string(),
  subjectId: id,
  subjectName: z.string(),
  grade: z.number().nullable(),
  status: z.literal('pending'),
  employeeId: id.nullable(),
  employeeName: z.string(),
  closedAt: z.iso.datetime().nullable(),
});

export const PendingBlocksResponse = z.object({
  ok: z.boolean(),
  total: z.number().int(),
  byStudent: z.array(z.object({ studentId: id, studentName: z.string(), blocks: z.array(PendingBlock) })),
});

export const ReviewBody = z.object({ action: z.enum(['approve', 'reject']), reason: z.string().optional() });

export const ReviewResponse = z.object({
  ok: z.boolean(),
  studentBlockId: id,
  blockId: id,
  studentId: id,
  previousStatus: z.literal('pending'),
  newStatus: z.enum(['closed', 'open']),
  action: z.enum(['approve', 'reject']),
  nextBlockUnlocked: z.boolean().optional(),
  subjectCompleted: z.boolean().optional(),
  message: z.string(),
});

/** Content blocks (academic). The routes whose payloads the spec does not show answer an unspecified object. */
export function registerBlocksDocs(registry: OpenAPIRegistry): void {
  const tags = ['blocks'];
  const security = [{ bearerAuth: [] }];
  const unauthorized = jsonContent(ErrorBody, 'UNAUTHORIZED: token missing, expired, or caller not an administrator');
  registry.registerPath({
    method: 'get',
    path: '/api/v2/blocks/pending',
    tags,
    security,
    summary: 'Blocks awaiting review, grouped by student (admin)',
    request: { query: PendingBlocksQuery },
    responses: { 200: jsonContent(PendingBlocksResponse, 'Pending blocks'), 401: unauthorized },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v2/blocks/student-block/{studentBlockId}/review',
    tags,
    security,
    summary: 'Approve or reject a pending student block (admin)',
    request: { params: IdPathParam('studentBlockId'), body: { content: { 'application/json': { schema: ReviewBody } } } },
    responses: {
      200: jsonContent(ReviewResponse, 'Review applied'),
      400: jsonContent(ErrorBody, 'STUDENT_BLOCK_ID_REQUIRED, INVALID_ACTION, INVALID_STATUS_FOR_REVIEW'),
      401: unauthorized,
      404: jsonContent(ErrorBody, 'STUDENT_BLOCK_NOT_FOUND'),
    },
  });
  const others: { method: 'get' | 'post'; path: string; summary: string; params?: string[] }[] = [
    { method: 'post', path: '/api/v2/blocks/{blockId}/close', summary: 'Teacher closes a block for a student', params: ['blockId'] },
    { method: 'get', path: '/api/v2/blocks/pending-rejected', summary: 'Pending and rejected blocks (admin)' },
    { method: 'get', path: '/api/v2/blocks/completed', summary: 'Completed blocks by school course' },
    { method: 'get', path: '/api/v2/blocks/student-block/{studentBlockId}/thread', summary: 'Conversation thread of a student block', params: ['studentBlockId'] },
    { method: 'post', path: '/api/v2/blocks/student-block/{studentBlockId}/thread', summary: 'Add a message to the thread', params: ['studentBlockId'] },
    { method: 'get', path: '/api/v2/blocks/grades/{studentId}/{subjectId}', summary: 'Block grades of a student in a subject', params: ['studentId', 'subjectId'] },
  ];
  for (const route of others) {
    const params = route.params?.length ? z.object(Object.fromEntries(route.params.map((name) => [name, z.coerce.number().int().positive()]))) : undefined;
    registry.registerPath({
      method: route.method,
      path: route.path,
      tags,
      security,
      summary: route.summary,
      request: params ? { params } : undefined,
      responses: { 200: jsonContent(UnspecifiedObject, 'Payload not specified by the interface'), 401: unauthorized },
    });
  }
}
