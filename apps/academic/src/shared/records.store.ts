// Records by id and what guards them, shared by the directory, school courses and the listing: a row or its 404,
// referenced ids checked in one round trip, the database's own refusals as 409s, list filters and LIKE escaping.
import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/postgresql';
import { ConflictError, NotFoundError } from '@academy/kit';

/** The row of `entity` with this id, or a 404 with `code` and `message`. */
export async function findOr404<T extends object>(em: EntityManager, entity: EntityName<T>, id: number, code: string, message: string): Promise<T> {
  const row = await em.findOne(entity, { id } as FilterQuery<NoInfer<T>>);
  if (!row) throw new NotFoundError(code, message);
  return row;
}

/** A referenced row: its table, the id given (none: nothing to check), and the 404 when it is missing. */
export type Reference = readonly [table: string, id: number | null | undefined, code: string, message: string];

/** Each referenced id given must exist, checked in one round trip: a 404 naming the first missing one otherwise. */
export async function mustExist(em: EntityManager, ...references: Reference[]): Promise<void> {
  const given = references.filter(([, id]) => id != null);
  if (given.length === 0) return;
  const [found] = await em.execute<Record<string, boolean>[]>(
    `select ${given.map(([table], index) => `exists (select 1 from ${table} where id = ?) as r${index}`).join(', ')}`,
    given.map(([, id]) => id),
  );
  const missing = given.find((_, index) => !found[`r${index}`]);
  if (missing) throw new NotFoundError(missing[2], missing[3]);
}

/** The list filters that were given (a query schema leaves the others undefined), as a `where`. */
export const givenFilters = <T>(filters: Record<string, unknown>) => Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as FilterQuery<T>;

/** What the database refuses, told as: a unique key taken (`unique`, or by constraint), a referenced row gone or still referenced (`reference`). */
export type Refusals = { unique?: string; reference?: string; uniqueByConstraint?: Record<string, { code: string; message: string }> };

/** The database's own refusal in `error` (a unique key taken, a row still referenced, a reference gone) as a 409 with `messages`; any other error as it is. */
export function refusalAsConflict(error: unknown, messages: Refusals = {}): unknown {
  if (error instanceof UniqueConstraintViolationException) {
    // The message never repeats the value (a tax id must not reach a response or a log).
    const named = messages.uniqueByConstraint?.[(error as { constraint?: string }).constraint ?? ''];
    if (named) return new ConflictError(named.code, named.message);
    return new ConflictError('ALREADY_EXISTS', messages.unique ?? 'A record with the same unique value already exists');
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new ConflictError('REFERENCE_CONFLICT', messages.reference ?? 'The change conflicts with related records');
  }
  return error;
}

/**
 * Runs a write and turns the database's own refusals (a unique key taken, a row still referenced,
 * a reference gone meanwhile) into 409s: the checks made before a write can lose a race, the
 * constraints cannot.
 */
export async function guardConstraints<T>(write: () => Promise<T>, messages: Refusals = {}): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw refusalAsConflict(error, messages);
  }
}

/** Escapes LIKE wildcards so a search term matches literally. */
export const likeContains = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
