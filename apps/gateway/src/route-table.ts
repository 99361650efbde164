// The route table itself is a contract (`@academy/contracts`), so each service's tests check their
// routes and docs against it; the gateway's own path checks stay here.
export { ROUTES, SERVICES, matchRoute, type RouteRule, type ServiceName } from '@academy/contracts';

/** `.` or `..` segments (plain or percent-encoded) are refused rather than guessed at. */
export function hasDotSegment(path: string): boolean {
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}
