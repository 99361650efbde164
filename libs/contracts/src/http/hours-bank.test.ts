import { describe, expect, test } from '@jest/globals';
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { registerRoutes } from '../routes.ts';
import { AddCompletedHoursResponse, AddHoursBody, HoursBankResponse, hoursBankApi } from './hours-bank.ts';

describe('hours-bank contracts', () => {
  test('the declared routes document the five routes, their 401 and the transaction element', () => {
    const registry = new OpenAPIRegistry();
    registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    registerRoutes(registry, [hoursBankApi]);
    const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: { title: 'test', version: '1' },
    });
    expect(Object.keys(document.paths ?? {}).sort()).toEqual([
      '/api/v2/hours-bank/transactions/{transactionId}',
      '/api/v2/hours-bank/{employeeId}',
      '/api/v2/hours-bank/{employeeId}/completed',
      '/api/v2/hours-bank/{employeeId}/pending',
    ]);
    const transactionsPath = document.paths!['/api/v2/hours-bank/transactions/{transactionId}']!;
    expect(Object.keys(transactionsPath).filter((key) => ['put', 'delete'].includes(key)).sort()).toEqual(['delete', 'put']);
    expect(transactionsPath.delete?.responses?.[401]).toMatchObject({ description: 'Token missing, invalid or expired (`Unauthorized`)' });
    expect(transactionsPath.delete?.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components?.securitySchemes?.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const element = document.components?.schemas?.HoursTransaction as { properties: Record<string, unknown> };
    expect(Object.keys(element.properties)).toEqual(
      expect.arrayContaining(['id', 'type', 'date', 'hours', 'hoursDecimal', 'pendingAffected', 'completedAffected', 'reason', 'isActive', 'createdAt', 'createdBy']),
    );
  });

  test('the body and response schemas accept the spec example', () => {
    expect(AddHoursBody.parse({ time: '2h', date: '2026-01-15', schoolCourseId: 3 })).toEqual({ time: '2h', date: '2026-01-15', schoolCourseId: 3 });
    // An id in a JSON body is a JSON number: the string "3" and unknown fields are refused.
    expect(AddHoursBody.safeParse({ time: '2h', schoolCourseId: '3' }).success).toBe(false);
    expect(AddHoursBody.safeParse({ time: '2h', hours: 2 }).success).toBe(false);
    expect(AddHoursBody.safeParse({ time: '2h', date: '2026-13-01' }).success).toBe(false);
    const totals = { pendingHours: '0h', completedHours: '1h', pendingDecimal: 0, completedDecimal: 1 };
    expect(
      AddCompletedHoursResponse.safeParse({
        message: 'Completed hours registered successfully',
        data: { employeeId: 7, schoolCourseId: 3, totals, details: { hoursRegistered: '2h', hoursSubtractedFromPending: '1h', hoursAddedToCompleted: '1h' }, transactionId: 1 },
      }).success,
    ).toBe(true);
    expect(HoursBankResponse.safeParse({ message: 'ok', data: { employeeId: 7, schoolCourseId: 3, totals, tracking: { transactions: [], byType: { completed: [], pending: [] } } } }).success).toBe(true);
  });
});
