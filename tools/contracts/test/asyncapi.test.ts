import { describe, expect, test } from '@jest/globals';
import { Parser } from '@asyncapi/parser';
import { APP_EVENTS, buildAsyncApiDocument, eventSchemas } from '@academy/contracts';

describe('the AsyncAPI document', () => {
  test('is a valid AsyncAPI 3 document (@asyncapi/parser: no error), with a channel per event type and an operation per publisher and consumer', async () => {
    const document = buildAsyncApiDocument();
    const { document: parsed, diagnostics } = await new Parser().parse(JSON.stringify(document));
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0).map((diagnostic) => `${diagnostic.path.join('.')}: ${diagnostic.message}`);
    expect(errors).toEqual([]);
    expect(parsed?.version()).toBe('3.0.0');
    expect(parsed?.channels().all().map((channel) => channel.address()).sort()).toEqual(Object.keys(eventSchemas).sort());
    const sends = Object.values(APP_EVENTS).reduce((n, events) => n + events.publishes.length, 0);
    const receives = Object.values(APP_EVENTS).reduce((n, events) => n + events.consumes.reduce((m, queue) => m + queue.types.length, 0), 0);
    expect(parsed?.operations().filterBySend().length).toBe(sends);
    expect(parsed?.operations().filterByReceive().length).toBe(receives);
    // A message's payload is the envelope, its data the type's schema from the zod catalogue.
    const approved = parsed?.channels().get('block_approved')?.messages().all()[0];
    expect(approved?.payload()?.properties()?.data?.required()).toEqual(expect.arrayContaining(['studentBlockId', 'teacher', 'guardian']));
  });

  test('a broken document is refused (the check can fail)', async () => {
    const document = buildAsyncApiDocument() as Record<string, unknown>;
    const broken = { ...document, operations: { bad: { action: 'shout', channel: { $ref: '#/channels/nowhere' } } } };
    const { diagnostics } = await new Parser().parse(JSON.stringify(broken));
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0).length).toBeGreaterThan(0);
  });
});
