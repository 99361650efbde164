import pg from 'pg';

/**
 * Puts parked e-mails (all of them, or the given delivery ids) back in the mail worker's queue:
 * `pending`, attempts reset, due now. The worker sends them on its next poll, each once (the row
 * is claimed before sending). Rows that are not parked e-mails are left alone. Returns the ids
 * put back.
 */
export async function replayParkedMail(databaseUrl: string, ids: string[] = []): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `update deliveries set status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
       where status = 'parked' and channel = 'email' and (cardinality($1::bigint[]) = 0 or id = any($1::bigint[]))
       returning id`,
      [ids],
    );
    return rows.map((row) => String(row.id)).sort((a, b) => Number(a) - Number(b));
  } finally {
    await client.end();
  }
}
