// The administrators' part of the shell: their navigation (with the review queue's live badge), the
// route guard and their routes. Only this small file is in the first bundle; every administrator's
// page is its own lazy chunk under pages/admin/, fetched when an administrator first opens it.
import { lazy, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { NavLink, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from './api/client';
import { getSession, type ConsoleSession } from './api/session';
import { i18next } from './i18n';

// The shell's few administrator texts (the pages' own load with them, pages/admin/i18n.ts).
i18next.addResourceBundle('es', 'translation', { admin: { nav: { review: 'Revisión', pending: 'pendientes', payslips: 'Nóminas', incidents: 'Incidencias', attendance: 'Informe de asistencia', people: 'Personas' }, forbidden: { heading: 'Sin acceso', text: 'Esta página es solo para la administración.' } } }, true, false);
i18next.addResourceBundle('en', 'translation', { admin: { nav: { review: 'Review', pending: 'pending', payslips: 'Payslips', incidents: 'Incidents', attendance: 'Attendance report', people: 'People' }, forbidden: { heading: 'No access', text: 'This page is for administrators only.' } } }, true, false);

const ReviewPage = lazy(() => import('./pages/admin/review'));
const PayslipsPage = lazy(() => import('./pages/admin/payslips'));
const IncidentsPage = lazy(() => import('./pages/admin/incidents'));
const IncidentPage = lazy(() => import('./pages/admin/incidents').then((module) => ({ default: module.IncidentAdminPage })));
const AttendancePage = lazy(() => import('./pages/admin/attendance'));
const StudentAttendancePage = lazy(() => import('./pages/admin/attendance').then((module) => ({ default: module.StudentAttendancePage })));
const PeoplePage = lazy(() => import('./pages/admin/people'));
const EmployeeHoursPage = lazy(() => import('./pages/admin/people').then((module) => ({ default: module.EmployeeHoursPage })));
const BatchPage = lazy(() => import('./pages/admin/payslips').then((module) => ({ default: module.BatchPage })));

export const isAdmin = (session: ConsoleSession | null): boolean => session?.user.role === 'admin';

/** How often the badge asks for the count: approvals made elsewhere (another administrator) show within this. */
export const BADGE_REFRESH_MS = 5_000;

/** The number of blocks awaiting review, shared by the badge and the queue (one query key, refreshed together). */
export function usePendingCount(enabled = true) {
  return useQuery({
    queryKey: ['blocks', 'pending-count'],
    queryFn: async () => data(await api.GET('/api/v2/blocks/pending/count', { params: { query: {} } })).count,
    refetchInterval: BADGE_REFRESH_MS,
    refetchOnWindowFocus: true,
    enabled,
  });
}

/** The route guard: an administrator's page for anyone else is a refusal (the API refuses them too). */
function AdminOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  if (isAdmin(getSession())) return children;
  return (
    <>
      <h1>{t('admin.forbidden.heading')}</h1>
      <p role="alert" className="failure">
        {t('admin.forbidden.text')}
      </p>
    </>
  );
}

const guarded = (element: ReactNode) => <AdminOnly>{element}</AdminOnly>;

export const adminRoutes: RouteObject[] = [
  { path: 'admin/review', element: guarded(<ReviewPage />) },
  { path: 'admin/payslips', element: guarded(<PayslipsPage />) },
  { path: 'admin/incidents', element: guarded(<IncidentsPage />) },
  { path: 'admin/attendance', element: guarded(<AttendancePage />) },
  { path: 'admin/attendance/students/:id', element: guarded(<StudentAttendancePage />) },
  { path: 'admin/incidents/:id', element: guarded(<IncidentPage />) },
  { path: 'admin/payslips/batches/:id', element: guarded(<BatchPage />) },
  { path: 'admin/people', element: guarded(<PeoplePage />) },
  { path: 'admin/people/employees/:id/hours', element: guarded(<EmployeeHoursPage />) },
];

/** The administrators' links, after the shared ones. */
export function AdminNav() {
  const { t } = useTranslation();
  const count = usePendingCount();
  return (
    <>
    <li>
      <NavLink to="/admin/review">
        {t('admin.nav.review')}
        {count.data !== undefined && (
          <span className="badge" data-testid="pending-badge">
            {' '}
            {count.data}
            <span className="visually-hidden"> {t('admin.nav.pending')}</span>
          </span>
        )}
      </NavLink>
    </li>
    <li>
      <NavLink to="/admin/incidents">{t('admin.nav.incidents')}</NavLink>
    </li>
    <li>
      <NavLink to="/admin/attendance">{t('admin.nav.attendance')}</NavLink>
    </li>
    <li>
      <NavLink to="/admin/payslips">{t('admin.nav.payslips')}</NavLink>
    </li>
    <li>
      <NavLink to="/admin/people">{t('admin.nav.people')}</NavLink>
    </li>
    </>
  );
}
