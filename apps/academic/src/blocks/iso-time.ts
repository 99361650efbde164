// Reading raw rows: the driver hands timestamps over as text (`2026-11-23 05:34:21.78+00`).

/** A timestamp column as ISO 8601 UTC, or null. */
export const isoTime = (value: Date | string | null | undefined): string | null => (value == null ? null : new Date(value).toISOString());
