import { useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { academyToday, formatDateTime, formatNumber } from '../../format';
import { errorText } from '../../i18n';
import { saveBlob } from '../teacher/files';
import './i18n';
import { DateRange, Field, FilterSelect, QueryView } from './parts';

type ReportQuery = NonNullable<paths['/api/v2/attendance/report']['get']['parameters']['query']>;
type Report = paths['/api/v2/attendance/report']['get']['responses'][200]['content']['application/json'];
const STATUSES = ['P', 'L', 'E', 'A'] as const;
const percent = (value: number | null) => (value === null ? '—' : `${formatNumber(value)} %`);

/** `days` days before `day` (YYYY-MM-DD). */
const before = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** The attendance report: per student and subject, the percentage and the threshold; CSV; the classes still without a sheet. */
export default function AttendanceReportPage() {
  const { t } = useTranslation();
  const today = academyToday();
  const [filters, setFilters] = useState({ course: '', subjectId: '', centerId: '', from: before(today, 30), to: today, below: false, student: '' });
  const courses = useQuery({ queryKey: ['school-courses'], queryFn: async () => data(await api.GET('/api/v2/school-courses')).data, staleTime: 300_000 });
  const subjects = useQuery({ queryKey: ['subjects'], queryFn: async () => data(await api.GET('/api/v2/subjects', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const centers = useQuery({ queryKey: ['centers'], queryFn: async () => data(await api.GET('/api/v2/centers', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const query: ReportQuery = {
    from: filters.from,
    to: filters.to,
    ...(filters.subjectId ? { subjectId: filters.subjectId } : {}),
    ...(filters.centerId ? { centerId: filters.centerId } : {}),
    ...(filters.below ? { below: 'true' } : {}),
  };
  const report = useQuery({ queryKey: ['attendance-report', query], queryFn: async () => data(await api.GET('/api/v2/attendance/report', { params: { query } })) as Report, placeholderData: keepPreviousData });
  const missing = useQuery({ queryKey: ['missing', 'admin', filters.from, filters.to], queryFn: async () => data(await api.GET('/api/v2/attendance/missing', { params: { query: { from: filters.from, to: filters.to } } })) });
  const [csvFailure, setCsvFailure] = useState<string | null>(null);
  const ids = { course: useId(), subject: useId(), center: useId(), from: useId(), to: useId(), below: useId(), student: useId() };
  const set = (key: 'subjectId' | 'centerId' | 'from' | 'to' | 'student') => (event: { target: { value: string } }) => setFilters((current) => ({ ...current, [key]: event.target.value }));

  const downloadCsv = async () => {
    setCsvFailure(null);
    try {
      const blob = data(await api.GET('/api/v2/attendance/report', { params: { query }, headers: { accept: 'text/csv' }, parseAs: 'blob' }));
      saveBlob(blob as unknown as Blob, `asistencia-${query.from}-${query.to}.csv`);
    } catch (error) {
      setCsvFailure(errorText(error));
    }
  };
  const rows = report.data?.data.filter((row) => filters.student.trim() === '' || row.studentName.toLocaleLowerCase().includes(filters.student.trim().toLocaleLowerCase())) ?? [];

  return (
    <>
      <h1>{t('attendanceAdmin.heading')}</h1>
      <section aria-labelledby="report-filters">
        <h2 id="report-filters">{t('review.filters.heading')}</h2>
        <div className="filter-grid">
          <Field id={ids.course} label={t('review.filters.course')}>
            <select
              id={ids.course}
              value={filters.course}
              onChange={(event) => {
                const course = courses.data?.find((c) => String(c.id) === event.target.value);
                setFilters((current) => ({ ...current, course: event.target.value, ...(course ? { from: course.startDate, to: course.endDate < today ? course.endDate : today } : {}) }));
              }}
            >
              <option value="">{t('attendanceAdmin.anyCourse')}</option>
              {courses.data?.map((course) => (
                <option key={course.id} value={course.id}>
                  {course.name}
                </option>
              ))}
            </select>
          </Field>
          <FilterSelect id={ids.subject} label={t('review.filters.subject')} value={filters.subjectId} onChange={set('subjectId')} options={subjects.data?.map((subject) => ({ value: subject.id, text: subject.name }))} />
          <FilterSelect id={ids.center} label={t('attendanceAdmin.center')} value={filters.centerId} onChange={set('centerId')} options={centers.data?.map((center) => ({ value: center.id, text: center.name }))} />
          <DateRange ids={ids} from={filters.from} to={filters.to} set={set} />
          <Field id={ids.student} label={t('review.filters.student')}>
            <input id={ids.student} type="text" value={filters.student} onChange={set('student')} />
          </Field>
          <label className="check">
            <input id={ids.below} type="checkbox" checked={filters.below} onChange={(event) => setFilters((current) => ({ ...current, below: event.target.checked }))} />
            {t('attendanceAdmin.onlyBelow')}
          </label>
        </div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => void downloadCsv()}>
            {t('attendanceAdmin.csv')}
          </button>
        </div>
        {csvFailure && (
          <p role="alert" className="failure">
            {csvFailure}
          </p>
        )}
      </section>
      <section aria-labelledby="report-heading">
        <h2 id="report-heading">{t('attendanceAdmin.report')}</h2>
        <QueryView query={report}>
          {(answer) => (
            <>
              <p>{t('attendanceAdmin.threshold', { percent: formatNumber(answer.thresholdPercent), count: rows.filter((row) => row.below).length })}</p>
              {rows.length === 0 ? (
                <p>{t('attendanceAdmin.none')}</p>
              ) : (
                <table className="data">
                  <thead>
                    <tr>
                      <th scope="col">{t('review.filters.student')}</th>
                      <th scope="col">{t('review.filters.subject')}</th>
                      <th scope="col">{t('attendanceAdmin.sessions')}</th>
                      <th scope="col">{t('attendanceAdmin.counts')}</th>
                      <th scope="col">{t('attendanceAdmin.percentage')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((row) => (
                      <tr key={`${row.studentId}-${row.subjectId}`} className={row.below ? 'below' : undefined}>
                        <th scope="row">
                          <Link to={`/admin/attendance/students/${row.studentId}`}>{row.studentName}</Link>
                        </th>
                        <td>{row.subjectName}</td>
                        <td>{formatNumber(row.sessions)}</td>
                        <td>{STATUSES.map((status) => `${t(`attendance.statuses.${status}`)}: ${row.counts[status] ?? 0}`).join(' · ')}</td>
                        <td>
                          {percent(row.percentage)}
                          {row.below && <strong> · {t('attendanceAdmin.below')}</strong>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </QueryView>
      </section>
      <section aria-labelledby="missing-heading">
        <h2 id="missing-heading">{t('attendanceAdmin.missing', { count: missing.data?.data.length ?? 0 })}</h2>
        <QueryView query={missing} isEmpty={(answer) => answer.data.length === 0} none={<p>{t('attendanceAdmin.noMissing')}</p>}>
          {(answer) => (
            <ul className="cards">
              {answer.data.map((event) => (
                <li key={event.eventId}>
                  <strong>{event.subjectName}</strong> · {event.centerName} · {formatDateTime(event.startsAt)} · {t('today.students', { count: event.studentCount })}
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </section>
    </>
  );
}

/** A student's school year: per subject, the counts by status and the percentage. */
export function StudentAttendancePage() {
  const { t } = useTranslation();
  const studentId = useParams().id ?? '';
  const courses = useQuery({ queryKey: ['school-courses'], queryFn: async () => data(await api.GET('/api/v2/school-courses')).data, staleTime: 300_000 });
  const student = useQuery({ queryKey: ['student', studentId], queryFn: async () => data(await api.GET('/api/v2/students/{id}', { params: { path: { id: studentId } } })) });
  const today = academyToday();
  const latest = courses.data?.find((course) => course.startDate <= today && course.endDate >= today) ?? courses.data?.find((course) => course.isLatest);
  const range = latest ? { from: latest.startDate, to: latest.endDate < today ? latest.endDate : today } : { from: before(today, 300), to: today };
  const year = useQuery({
    queryKey: ['student-attendance', studentId, range.from, range.to],
    enabled: courses.isSuccess,
    queryFn: async () => data(await api.GET('/api/v2/attendance/students/{studentId}', { params: { path: { studentId }, query: range } })),
  });
  return (
    <>
      <p>
        <Link to="/admin/attendance">{t('attendanceAdmin.back')}</Link>
      </p>
      <h1>{t('attendanceAdmin.studentHeading', { name: student.data ? `${student.data.name} ${student.data.lastname}` : `#${studentId}` })}</h1>
      {latest && <p>{t('attendanceAdmin.course', { name: latest.name })}</p>}
      <QueryView query={year} isEmpty={(answer) => answer.subjects.length === 0} none={<p>{t('attendanceAdmin.none')}</p>}>
        {(answer) => (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('review.filters.subject')}</th>
                <th scope="col">{t('attendanceAdmin.sessions')}</th>
                <th scope="col">{t('attendanceAdmin.counts')}</th>
                <th scope="col">{t('attendanceAdmin.percentage')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.subjects.map((row) => (
                <tr key={row.subjectId}>
                  <th scope="row">{row.subjectName}</th>
                  <td>{formatNumber(row.sessions)}</td>
                  <td>{STATUSES.map((status) => `${t(`attendance.statuses.${status}`)}: ${row.counts[status] ?? 0}`).join(' · ')}</td>
                  <td>{percent(row.percentage)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
    </>
  );
}
