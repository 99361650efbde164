import type { EntityManager, EntityName, FilterQuery, OrderDefinition } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import type { DirectoryPageQuery } from '@academy/contracts';
import { pageMeta } from '@academy/kit';
import { likeContains } from '../shared/records.store.ts';

/** The parsed body or query of a contract schema. */
export type Input<T extends z.ZodType> = z.infer<T>;
/** What a write that records events passes on to them. */
export type Meta = { correlationId: string };
/** What a write that may record `employee.upserted` passes on: the key of the tax id's digest too. */
export type EmployeeMeta = Meta & { taxIdDigestKey: string };

/** A directory page, newest id first. */
export async function paged<T extends { id: number }, R>(em: EntityManager, entity: EntityName<T>, fields: (keyof T & string)[], query: DirectoryPageQuery, map: (row: T) => R) {
  const where = (query.search ? { $or: fields.map((field) => ({ [field]: { $ilike: likeContains(query.search!) } })) } : {}) as FilterQuery<T>;
  const [rows, total] = await em.findAndCount(entity, where, { limit: query.limit, offset: (query.page - 1) * query.limit, orderBy: { id: 'desc' } as OrderDefinition<T> });
  return { data: rows.map(map), meta: pageMeta(total, query.page, query.limit) };
}
