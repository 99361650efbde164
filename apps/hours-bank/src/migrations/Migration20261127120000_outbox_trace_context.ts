import { Migration } from '@mikro-orm/migrations';

/** The writer's trace context (W3C `traceparent`/`tracestate`) beside each outbox row: expand-only, null for rows written before. */
export class Migration20261127120000_outbox_trace_context extends Migration {

  override name = 'Migration20261127120000_outbox_trace_context';

  override up(): void | Promise<void> {
    this.addSql(`alter table "outbox" add column if not exists "trace_context" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "outbox" drop column if exists "trace_context";`);
  }

}
