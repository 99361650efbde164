import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { getSession } from '../api/session';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import { academyToday, formatTime } from '../format';
import { errorText } from '../i18n';
import { Failure, Loading } from '../ui';

export function TodayPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const today = academyToday();
  const open = useQuery({ queryKey: ['open-record'], queryFn: async () => data(await api.GET('/api/v2/timerecord/open')) });
  // Today's classes of the teacher with their attendance state (taken, missing, not yet); none for a user who is no employee.
  const employee = getSession()?.user.employeeId != null;
  const classes = useQuery({ queryKey: ['classes', today], enabled: employee, queryFn: async () => data(await api.GET('/api/v2/attendance/classes', { params: { query: { from: today, to: today } } })) });
  const incidents = useQuery({ queryKey: ['incidents', 'today'], queryFn: async () => data(await api.GET('/api/v2/incident/my', { params: { query: {} } })) });
  const clock = useMutation({
    mutationFn: async (direction: 'in' | 'out') =>
      data(direction === 'in' ? await api.POST('/api/v2/timerecord/clock-in', { body: { source: 'Web' } }) : await api.POST('/api/v2/timerecord/clock-out', { body: { source: 'Web' } })),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['open-record'] });
      void queryClient.invalidateQueries({ queryKey: ['incidents'] });
    },
  });
  const record = open.data?.record;
  const todays = (incidents.data?.data ?? []).filter((incident) => incident.createdAt.slice(0, 10) === today || incident.day === today);

  return (
    <>
      <h1>{t('today.heading')}</h1>
      <section aria-labelledby="clock">
        <h2 id="clock">{t('today.clock')}</h2>
        {open.isPending ? <Loading /> : open.isError ? <Failure error={open.error} retry={() => void open.refetch()} /> : <p>{record ? t('today.open', { time: formatTime(record.clockInAt) }) : t('today.closed')}</p>}
        <div className="actions">
          <button type="button" disabled={clock.isPending} onClick={() => clock.mutate('in')}>
            {t('today.clockIn')}
          </button>
          <button type="button" disabled={clock.isPending} onClick={() => clock.mutate('out')}>
            {t('today.clockOut')}
          </button>
        </div>
        {clock.isError && (
          <p role="alert" className="failure">
            {errorText(clock.error)}
          </p>
        )}
      </section>
      <section aria-labelledby="classes">
        <h2 id="classes">{t('today.classes')}</h2>
        {!employee ? (
          <p>{t('errors.NOT_AN_EMPLOYEE')}</p>
        ) : classes.isPending ? (
          <Loading />
        ) : classes.isError ? (
          <Failure error={classes.error} retry={() => void classes.refetch()} />
        ) : classes.data.data.length === 0 ? (
          <p>{t('today.noClasses')}</p>
        ) : (
          <ul className="cards">
            {classes.data.data.map((event) => (
              <li key={event.eventId} className="class">
                <span>
                  <strong>{event.subjectName}</strong> · {formatTime(event.startsAt)}–{formatTime(event.endsAt)} · {event.centerName} · {t('today.students', { count: event.studentCount })}
                </span>{' '}
                <span className={`class-state ${event.state}`}>{event.takenAt ? t('today.states.takenAt', { time: formatTime(event.takenAt) }) : t(`today.states.${event.state}`)}</span>{' '}
                <Link to={`/attendance/${event.eventId}`} aria-label={`${t(event.state === 'taken' ? 'today.view' : 'today.take')}: ${event.subjectName} ${formatTime(event.startsAt)}`}>
                  {t(event.state === 'taken' ? 'today.view' : 'today.take')}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="incidents">
        <h2 id="incidents">{t('today.incidents')}</h2>
        {incidents.isPending ? (
          <Loading />
        ) : incidents.isError ? (
          <Failure error={incidents.error} retry={() => void incidents.refetch()} />
        ) : todays.length === 0 ? (
          <p>{t('today.noIncidents')}</p>
        ) : (
          <ul className="cards">
            {todays.map((incident) => (
              <li key={incident.id}>
                <strong>{t(`incidents.kinds.${incident.kind}`)}</strong> · {formatTime(incident.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
