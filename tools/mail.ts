// `npm run mail -- replay [deliveryId…] [--url postgres://…]`: parked e-mails of notifications (all,
// or the given deliveries) go back to the mail worker's queue. The database is --url, DATABASE_URL,
// or the local dev one. See the deliveries listing (GET /api/v2/notifications/deliveries?status=parked).
import { parseArgs } from 'node:util';
import { urls } from '@academy/infra';
import { readId } from '@academy/kit';
import { replayParkedMail } from '../apps/notifications/src/deliveries/replay-parked-mail.ts';

const usage = `usage: npm run mail -- replay [deliveryId…] [--url postgres://…]
  replay                 every parked e-mail back to pending, attempts reset: the mail worker sends them
  replay <id> [<id>…]    only these deliveries (ids from GET /api/v2/notifications/deliveries?status=parked)`;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { url: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
const [command, ...ids] = positionals;
if (values.help || command !== 'replay') {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
const malformed = ids.filter((id) => readId(id) === undefined);
if (malformed.length) {
  console.error(`not a delivery id: ${malformed.join(', ')}`);
  process.exit(2);
}
const url = values.url ?? process.env.DATABASE_URL ?? `${urls('dev').postgres}/notifications`;
const replayed = await replayParkedMail(url, ids);
console.log(`${replayed.length} parked e-mail(s) back to pending${replayed.length ? `: ${replayed.join(', ')}` : ''}`);
const missing = ids.filter((id) => !replayed.includes(id));
if (missing.length) console.log(`not parked e-mails (left alone): ${missing.join(', ')}`);
