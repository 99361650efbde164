import { defineEntity, p } from '@mikro-orm/postgresql';
import { User } from './user.entity.ts';

/**
 * One refresh token of a login session. Only its SHA-256 is stored. A refresh marks the row used
 * and creates its successor in the same family; presenting a used or revoked token again revokes
 * the whole family (the session), since either the client or a thief holds a stolen copy.
 */
export const RefreshToken = defineEntity({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  properties: {
    id: p.integer().primary().autoincrement(),
    tokenHash: p.string().length(64).unique(),
    familyId: p.uuid().index(),
    user: () => p.manyToOne(User).mapToPk().deleteRule('cascade').index(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
