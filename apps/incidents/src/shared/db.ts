export { Sql, type Query } from '@academy/db';

/** A timestamptz column as an ISO 8601 UTC string (`…T…Z`, milliseconds). */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
