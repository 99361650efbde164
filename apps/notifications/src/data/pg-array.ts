/**
 * A PostgreSQL array literal, bound as one parameter (`?::int[]`, `?::text[]`): MikroORM expands a
 * JavaScript array parameter into a list of parameters instead.
 */
export function pgArray(values: readonly (string | number)[]): string {
  return `{${values.map((value) => (typeof value === 'number' ? String(value) : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}
