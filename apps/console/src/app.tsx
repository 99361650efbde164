import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, NavLink, Outlet, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { whenSignedOut } from './api/client';
import { getSession, logOut, onSessionChange, refreshSession, type ConsoleSession } from './api/session';
import { setLanguage, type Language } from './i18n';
import { LoginPage } from './pages/login';
import { TodayPage } from './pages/today';
import { IncidentNotices } from './notices';
import { PageBoundary } from './ui';
import { AdminNav, adminRoutes, isAdmin } from './admin';

// Pages past Login and Today load when first visited: the first load stays small.
const AttendancePage = lazy(() => import('./pages/attendance'));
const PayslipsPage = lazy(() => import('./pages/payslips'));
const IncidentsPage = lazy(() => import('./pages/incidents'));
const SettingsPage = lazy(() => import('./pages/settings'));
const IncidentPage = lazy(() => import('./pages/teacher/incident'));
const HoursPage = lazy(() => import('./pages/teacher/hours'));
const BlocksPage = lazy(() => import('./pages/teacher/blocks'));

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 10_000, refetchOnWindowFocus: false } } });

/** The session's user language, else the academy's. */
const languageOf = (session: ConsoleSession): Language => (session.user.locale ?? session.academy.locale) as Language;

function useSession(): [ConsoleSession | null, boolean] {
  const [session, setState] = useState(getSession);
  const [ready, setReady] = useState(getSession() !== null);
  useEffect(() => {
    const stop = onSessionChange((next) => {
      setState(next);
      if (next) setLanguage(languageOf(next));
    });
    // A reloaded page renews its session from the cookie.
    if (!getSession()) void refreshSession().finally(() => setReady(true));
    return () => void stop();
  }, []);
  return [session, ready];
}

function Shell() {
  const { t } = useTranslation();
  const [session, ready] = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    whenSignedOut(() => {
      queryClient.clear();
      navigate(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    });
  }, [navigate]);
  if (!ready) return <p className="loading">{t('app.loading')}</p>;
  if (!session) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  const link = (to: string, label: string) => (
    <li>
      <NavLink to={to} end>
        {label}
      </NavLink>
    </li>
  );
  return (
    <>
      <a className="skip" href="#main">
        {t('app.skip')}
      </a>
      <header className="bar">
        <strong>{t('app.title')}</strong>
        <nav aria-label={t('app.nav')}>
          <ul>
            {/* An employee's own screens for whoever is an employee (a teacher, and an administrator who also teaches). */}
            {isEmployee(session) && (
              <>
                {link('/', t('nav.today'))}
                {link('/incidents', t('nav.incidents'))}
                {link('/blocks', t('nav.blocks'))}
                {link('/payslips', t('nav.payslips'))}
                {link('/hours', t('nav.hours'))}
              </>
            )}
            {link('/settings', t('nav.settings'))}
            {isAdmin(session) && <AdminNav />}
          </ul>
        </nav>
        <button
          type="button"
          className="link"
          onClick={() =>
            void logOut().then(() => {
              queryClient.clear();
              navigate('/login');
            })
          }
        >
          {t('app.logout')}
        </button>
      </header>
      <IncidentNotices token={session.accessToken} />
      <main id="main" tabIndex={-1}>
        <PageBoundary page={location.pathname}>
          <Suspense fallback={<p className="loading">{t('app.loading')}</p>}>
            <Outlet />
          </Suspense>
        </PageBoundary>
      </main>
    </>
  );
}

const page = (element: ReactNode) => element;

/** An employee's day is Today; an administrator who is no employee has no clock or classes: their home is the review queue. */
const isEmployee = (session: ConsoleSession | null): boolean => session?.user.employeeId != null;
function Home() {
  const session = getSession();
  return !isEmployee(session) && isAdmin(session) ? <Navigate to="/admin/review" replace /> : <TodayPage />;
}

// The declarative router (BrowserRouter + useRoutes), not the data router (createBrowserRouter): the
// console loads its data with TanStack Query, not route loaders, and the data router's code is about
// 16 KB of gzip that the first load (Login and Today) would carry for nothing.
const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  {
    element: <Shell />,
    children: [
      { index: true, element: page(<Home />) },
      { path: 'attendance/:eventId', element: page(<AttendancePage />) },
      { path: 'payslips', element: page(<PayslipsPage />) },
      { path: 'incidents', element: page(<IncidentsPage />) },
      { path: 'incidents/:id', element: page(<IncidentPage />) },
      { path: 'hours', element: page(<HoursPage />) },
      { path: 'blocks', element: page(<BlocksPage />) },
      { path: 'settings', element: page(<SettingsPage />) },
      ...adminRoutes,
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

const Routes = () => useRoutes(routes);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
