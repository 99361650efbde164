/** An instant column as ISO 8601 in UTC with milliseconds (`…Z`), as JSON dates are written (a personal data export's rows). */
export const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
