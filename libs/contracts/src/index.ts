export { EventEnvelope } from './events/envelope.ts';
export * from './events/catalogue.ts';
export * from './http/hours-bank.ts';
