// `npm run dlq -- list|inspect|replay <queue> [eventId…]`: dead letters of `<queue>.dlq`, over AMQP only
// (no management plugin needed). The broker is RABBITMQ_URL, or the local dev one.
import { parseArgs } from 'node:util';
import { urls } from '@academy/infra';
import { flushTraces } from '@academy/kit';
import { listDeadLetters, replayDeadLetters } from '@academy/messaging';

const usage = `usage: npm run dlq -- <command> <queue> [eventId…] [--limit N] [--url amqp://…]
  list <queue>               one line per dead letter of <queue>.dlq: position, event id, type, attempts, reason
  inspect <queue> [eventId…] headers and body of every dead letter (or of the given events)
  replay <queue> [eventId…]  move dead letters (all, or the given events) back to <queue>, attempts reset
<queue> is <service>.<purpose> (its .dlq name is accepted too). Listing and inspecting leave the DLQ unchanged.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { limit: { type: 'string' }, url: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const [command, queue, ...eventIds] = positionals;
if (values.help || !command || !queue || !['list', 'inspect', 'replay'].includes(command)) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
  console.error('--limit must be a positive integer');
  process.exit(2);
}
const url = values.url ?? process.env.RABBITMQ_URL ?? urls('dev').rabbitmq;

try {
  if (command === 'replay') {
    // With OTEL_EXPORTER_OTLP_ENDPOINT set, the replay is traced (linked to each message's original trace).
    const result = await replayDeadLetters(url, queue, { eventIds, limit });
    await flushTraces();
    console.log(`replayed ${result.replayed} message(s) to ${queue.replace(/\.dlq$/, '')}; ${result.kept} left in the DLQ`);
  } else {
    const letters = await listDeadLetters(url, queue, { limit: eventIds.length ? undefined : limit });
    const shown = eventIds.length ? letters.filter((letter) => letter.eventId && eventIds.includes(letter.eventId)) : letters;
    if (command === 'list') {
      console.log(`${shown.length} dead letter(s) in ${queue.replace(/\.dlq$/, '')}.dlq`);
      for (const letter of shown) {
        console.log([letter.position, letter.eventId ?? '-', letter.type ?? '-', `attempts=${letter.attempts ?? '-'}`, letter.deadLetteredAt ?? '-', (letter.reason ?? '-').replace(/\s+/g, ' ').slice(0, 160)].join('  '));
      }
    } else {
      for (const letter of shown) {
        let body: unknown = letter.body;
        try {
          body = JSON.parse(letter.body);
        } catch {
          // shown as text
        }
        console.log(JSON.stringify({ ...letter, body }, (_key, value) => (typeof value === 'bigint' ? value.toString() : value), 2));
      }
    }
  }
} catch (error) {
  const message = (error as Error).message;
  console.error(/NOT_FOUND/.test(message) ? `no such queue: ${message}` : `dlq: ${message}`);
  process.exit(1);
}
