import { administrativeListingApi, directoryApis, registrationApi, registrationV1Api, schoolCoursesApi } from './http/academic.ts';
import { authApi } from './http/auth.ts';
import { attendanceApi } from './http/attendance.ts';
import { blocksApi } from './http/blocks.ts';
import { incidentsApi, timeRecordsApi } from './http/incidents.ts';
import { hoursBankApi } from './http/hours-bank.ts';
import { notificationsApi, notificationsUnsubscribeApi, pushSendApi } from './http/notifications.ts';
import { payslipsApi } from './http/payslips.ts';
import { privacyRequestsApi } from './http/privacy.ts';
import { gatewayRules, routeFamily, type DeclaredFamily, type RouteFamily, type RouteRule } from './routes.ts';

export { SERVICES, type ServiceName, type RouteRule } from './routes.ts';

// Families without declared routes (`family.route`): their gateway rules come from the family alone.
const family = (prefix: string, service: RouteFamily['service'], extra: Partial<RouteFamily> = {}) =>
  routeFamily({ prefix, service, access: 'bearer', errorStyle: service === 'notifications' ? 'success' : 'default', unauthorizedMessage: 'Unauthorized', tags: [], ...extra });

/** Every family of paths behind the gateway, in the order the gateway tries them. */
export const ROUTE_FAMILIES: DeclaredFamily[] = [
  authApi,
  blocksApi,
  attendanceApi,
  registrationApi,
  schoolCoursesApi,
  // the academic directory (admin): users, employees, students, guardians, subjects, centers, …
  ...directoryApis.map((api) => api.family),
  registrationV1Api,
  administrativeListingApi,
  privacyRequestsApi,
  hoursBankApi,
  incidentsApi,
  timeRecordsApi,
  pushSendApi,
  family('/api/v2/push-notifications', 'notifications'),
  notificationsUnsubscribeApi,
  notificationsApi,
  family('/socket.io', 'notifications', { longPolling: true }),
  payslipsApi,
];

/**
 * The gateway's table, derived from the route families (`gatewayRules`): it lives in the contracts,
 * beside the OpenAPI document, so each service's tests can check that its mounted routes, its
 * documentation and these rules agree (`expectRoutesMatchDocs` in `@academy/testing/routes-docs`).
 */
export const ROUTES: RouteRule[] = ROUTE_FAMILIES.flatMap(gatewayRules);

/**
 * The first rule whose prefix is the path or a whole segment prefix of it (`/api/v2/blocks` matches
 * `/api/v2/blocks` and `/api/v2/blocks/1`, not `/api/v2/blocksx`). Called on every request by the gateway
 * and every service, so it builds no string (`${prefix}/` per rule was 2–5 µs a call: bench README).
 */
export function matchRoute(path: string, routes: RouteRule[] = ROUTES): RouteRule | undefined {
  return routes.find(({ prefix }) => path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === 47 /* '/' */));
}
