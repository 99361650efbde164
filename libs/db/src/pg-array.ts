/**
 * A PostgreSQL array literal (`{1,2}`, `{"a","b \"c\""}`), bound as one parameter of `?::int[]` or
 * `?::text[]`: MikroORM's `execute` expands a JavaScript array parameter into a list of parameters
 * instead. (`pg` with `$n` placeholders takes a JavaScript array as it is.) Strings are quoted and
 * escaped, so any text round-trips; `null` is SQL NULL.
 */
export function pgArray(values: readonly (string | number | bigint | null)[]): string {
  return `{${values.map(element).join(',')}}`;
}

function element(value: string | number | bigint | null): string {
  if (value === null) return 'NULL';
  if (typeof value !== 'string') return String(value);
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
