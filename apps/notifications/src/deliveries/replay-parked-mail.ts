import { requeueParkedMail } from './deliveries.store.ts';

/**
 * Puts parked e-mails (all of them, or the given delivery ids) back in the mail worker's queue:
 * `pending`, attempts reset, due now. The worker sends them on its next poll, each once (the row
 * is claimed before sending). Rows that are not parked e-mails are left alone. Returns the ids
 * put back, in order. The `mail` command's (tools/mail.ts), run outside the service: it has a database URL, no context.
 */
export async function replayParkedMail(databaseUrl: string, ids: string[] = []): Promise<string[]> {
  return (await requeueParkedMail(databaseUrl, ids)).sort((a, b) => Number(a) - Number(b));
}
