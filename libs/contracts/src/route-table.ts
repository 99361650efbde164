import type { ErrorStyle } from './http/common.ts';
import { INCIDENT_FILE_MAX_BYTES, INCIDENT_FILES_PER_MESSAGE } from './http/incidents.ts';
import { PAYSLIP_UPLOAD_MAX_BYTES } from './http/payslips.ts';

export const SERVICES = ['academic', 'hours-bank', 'incidents', 'notifications', 'payslips'] as const;
export type ServiceName = (typeof SERVICES)[number];

/**
 * The gateway's rule for a family of paths. It lives in the contracts, beside the OpenAPI document,
 * so each service's tests can check that its mounted routes, its documentation and these rules agree
 * (`expectRoutesMatchDocs` in `@academy/testing/routes-docs`); the gateway routes by it.
 */
export interface RouteRule {
  /** Matches this path and everything below it (`/a` matches `/a`, `/a/`, `/a/b`, not `/ab`). */
  prefix: string;
  service: ServiceName;
  /** `bearer`: JWT checked here and again by the service; `public`: no token; `api-key`: passed through, the service checks `x-api-key`. */
  access: 'bearer' | 'public' | 'api-key';
  /** The 401 the service itself would answer, so the gateway's refusals look the same. */
  errorStyle: ErrorStyle;
  unauthorizedMessage: string;
  /** Counted against the stricter login limit. */
  login?: boolean;
  /** Held open by the service on purpose (Socket.IO long-polling waits up to its ping interval). */
  longPolling?: boolean;
  /** Largest body the gateway lets through on these paths, when larger than its BODY_LIMIT_BYTES (file uploads). */
  maxBodyBytes?: number;
}

const academic = (prefix: string, access: RouteRule['access'] = 'bearer', extra: Partial<RouteRule> = {}): RouteRule => ({
  prefix,
  service: 'academic',
  access,
  errorStyle: 'default',
  unauthorizedMessage: 'Unauthorized',
  ...extra,
});
const notifications = (prefix: string, access: RouteRule['access'] = 'bearer', extra: Partial<RouteRule> = {}): RouteRule => ({
  prefix,
  service: 'notifications',
  access,
  errorStyle: 'success',
  unauthorizedMessage: 'Unauthorized',
  ...extra,
});

/** Every path of the interface and the service that owns it; the first matching rule wins. */
export const ROUTES: RouteRule[] = [
  academic('/api/v2/auth/login', 'public', { login: true }),
  academic('/api/v2/auth/refresh', 'public'),
  academic('/api/v2/auth/logout', 'public'),
  academic('/api/v2/auth'),
  academic('/api/v2/blocks'),
  academic('/api/v2/attendance'),
  academic('/api/v2/registration', 'bearer', { errorStyle: 'status', unauthorizedMessage: 'Invalid or expired token' }),
  academic('/api/v2/school-courses'),
  // the academic directory (admin): users, employees, students, guardians, subjects, centers, …
  ...['users', 'employees', 'students', 'guardians', 'subjects', 'centers', 'registrations', 'calendar-events'].map((resource) => academic(`/api/v2/${resource}`)),
  academic('/api/v1/registration/update', 'bearer', { errorStyle: 'status', unauthorizedMessage: 'Invalid or expired token' }),
  academic('/api/students/administrative'),
  { prefix: '/api/v2/hours-bank', service: 'hours-bank', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized' },
  // Messages carry attachments (multipart): up to INCIDENT_FILES_PER_MESSAGE files of INCIDENT_FILE_MAX_BYTES, checked by the service as they stream.
  {
    prefix: '/api/v2/incident',
    service: 'incidents',
    access: 'bearer',
    errorStyle: 'default',
    unauthorizedMessage: 'Unauthorized',
    maxBodyBytes: INCIDENT_FILES_PER_MESSAGE * INCIDENT_FILE_MAX_BYTES + 1024 * 1024,
  },
  { prefix: '/api/v2/timerecord', service: 'incidents', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized' },
  notifications('/api/v2/push-notifications/send', 'api-key'),
  notifications('/api/v2/push-notifications'),
  notifications('/api/v2/notifications'),
  notifications('/socket.io', 'bearer', { longPolling: true }),
  // Payslip uploads and the month's combined PDF (multipart): the service checks its own limits as the bytes stream.
  { prefix: '/api/v2/payslips', service: 'payslips', access: 'bearer', errorStyle: 'default', unauthorizedMessage: 'Unauthorized', maxBodyBytes: PAYSLIP_UPLOAD_MAX_BYTES + 1024 * 1024 },
];

export function matchRoute(path: string, routes: RouteRule[] = ROUTES): RouteRule | undefined {
  return routes.find((rule) => path === rule.prefix || path.startsWith(`${rule.prefix}/`));
}
