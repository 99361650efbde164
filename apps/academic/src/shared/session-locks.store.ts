// The lock of a session (a refresh-token family), shared by auth (refresh, logout) and `sessions.ts`
// (ending every session of a user). Every writer of a session's tokens takes it before any of their
// rows: they apply one after the other, and none holds a row that another, holding the rest, waits
// for (a refresh of a spent token locks that token and then revokes the others; a logout or the end
// of a user's sessions revokes them all).
import type { EntityManager } from '@mikro-orm/postgresql';

const FAMILY_LOCK = `pg_advisory_xact_lock(hashtext('academic.refresh-family'), hashtext(family_id::text))`;

/** Takes the lock of the session of the refresh token with this hash (none when there is no such token). */
export async function lockFamilyOfToken(tx: EntityManager, tokenHash: string): Promise<void> {
  await tx.execute(`select ${FAMILY_LOCK} from refresh_tokens where token_hash = ?`, [tokenHash]);
}

/** Takes the lock of one session. */
export async function lockFamily(tx: EntityManager, familyId: string): Promise<void> {
  await tx.execute(`select ${FAMILY_LOCK} from (select ?::uuid as family_id) family`, [familyId]);
}

/** Takes the locks of every session of the user not revoked yet, in one order (by family id), so two such ends never wait for each other's. */
export async function lockFamiliesOfUser(tx: EntityManager, userId: number): Promise<void> {
  await tx.execute(`select ${FAMILY_LOCK} from (select distinct family_id from refresh_tokens where user_id = ? and revoked_at is null order by family_id) families`, [userId]);
}
