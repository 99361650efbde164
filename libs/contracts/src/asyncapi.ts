import { z } from 'zod';
import { eventSchemas, type EventType } from './events/catalogue.ts';
import { APPS, APP_EVENTS, consumedVersions, eventParties, publishedVersions, type AppName } from './events/topology.ts';

/** A JSON Schema (draft-07, the base of AsyncAPI's schema format) of what a consumer accepts as an event type's `data`. */
export function eventDataSchema(type: EventType): Record<string, unknown> {
  // `input`: what parses, so an object is open (zod strips unknown keys) and a producer may add a field.
  const { $schema: _ignored, ...schema } = z.toJSONSchema(eventSchemas[type], { target: 'draft-07', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return schema;
}

/** The versions of a type that are on the bus: those its publishers stamp and those its consumers read. */
export function eventTypeVersions(type: EventType): number[] {
  const { publishers } = eventParties(type);
  return [...new Set([...publishers.flatMap((app) => publishedVersions(app, type)), ...consumedVersions(type)])].sort((a, b) => a - b);
}

const key = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');
const messageKey = (type: EventType, version: number) => `${key(type)}_v${version}`;

export type AsyncApiDocument = Record<string, unknown> & { asyncapi: '3.0.0'; channels: Record<string, unknown>; operations: Record<string, unknown> };

/**
 * One AsyncAPI 3 document for every event on the bus, generated from the zod schemas of the
 * catalogue and the table of who publishes and consumes what (`APP_EVENTS`): a channel per type
 * (its routing key on the topic exchange), a message per version, and per app a `send` operation
 * for each type it publishes and a `receive` for each it consumes (on its queue). Served by the
 * gateway at `/api/docs/asyncapi.json` beside the OpenAPI document.
 */
export function buildAsyncApiDocument(options: { version?: string; exchange?: string } = {}): AsyncApiDocument {
  const exchange = options.exchange ?? 'academy.events';
  const channels: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  for (const type of Object.keys(eventSchemas) as EventType[]) {
    const versions = eventTypeVersions(type);
    const { publishers, consumers } = eventParties(type);
    const channelMessages: Record<string, unknown> = {};
    for (const version of versions) {
      const id = messageKey(type, version);
      messages[id] = {
        name: type,
        title: `${type} v${version}`,
        summary: `Published by ${publishers.join(', ') || 'nobody'}; consumed by ${consumers.join(', ') || 'nobody yet'}.`,
        contentType: 'application/json',
        payload: envelopeSchema(type, version),
      };
      channelMessages[id] = { $ref: `#/components/messages/${id}` };
    }
    channels[key(type)] = {
      address: type,
      title: type,
      description: `Routing key \`${type}\` on the topic exchange \`${exchange}\`.`,
      messages: channelMessages,
      bindings: { amqp: { is: 'routingKey', exchange: { name: exchange, type: 'topic', durable: true, autoDelete: false, vhost: '/' }, bindingVersion: '0.3.0' } },
    };
  }
  for (const app of APPS as readonly AppName[]) {
    const events = APP_EVENTS[app];
    for (const type of events.publishes) {
      operations[`${key(app)}__send__${key(type)}`] = {
        action: 'send',
        title: `${app} publishes ${type}`,
        channel: { $ref: `#/channels/${key(type)}` },
        messages: publishedVersions(app, type).map((version) => ({ $ref: `#/channels/${key(type)}/messages/${messageKey(type, version)}` })),
      };
    }
    for (const { queue, types } of events.consumes) {
      for (const type of types) {
        operations[`${key(app)}__receive__${key(type)}`] = {
          action: 'receive',
          title: `${app} consumes ${type} (queue ${queue})`,
          channel: { $ref: `#/channels/${key(type)}` },
          messages: consumedVersions(type).map((version) => ({ $ref: `#/channels/${key(type)}/messages/${messageKey(type, version)}` })),
          bindings: { amqp: { ack: true, bindingVersion: '0.3.0' } },
        };
      }
    }
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Academy events',
      version: options.version ?? '1.0.0',
      description:
        'Every event on the bus: one channel per type (the routing key), one message per version. Each message is an envelope ' +
        '`{ id, type, version, occurredAt, source, correlationId, data }`; `data` is the type\'s schema. A consumer parks a version it does not read in its DLQ.',
    },
    defaultContentType: 'application/json',
    servers: { rabbitmq: { host: 'rabbitmq:5672', protocol: 'amqp', description: 'The broker (RABBITMQ_URL)' } },
    channels,
    operations,
    components: { messages },
  };
}

function envelopeSchema(type: EventType, version: number): Record<string, unknown> {
  return {
    type: 'object',
    required: ['id', 'type', 'version', 'occurredAt', 'source', 'correlationId', 'data'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', const: type },
      version: { type: 'integer', const: version },
      occurredAt: { type: 'string', format: 'date-time' },
      source: { type: 'string', minLength: 1, description: 'The publishing app' },
      correlationId: { type: 'string', minLength: 1 },
      data: eventDataSchema(type),
    },
  };
}
