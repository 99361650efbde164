import { useId, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { getSession } from '../../api/session';
import type { paths } from '../../api/schema';
import { formatDate, formatDateTime, formatTime } from '../../format';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import { downloadIncidentFile } from '../teacher/files';
import './i18n';
import { DateRange, FilterSelect, PageButtons, QueryView } from './parts';

type ListQuery = NonNullable<paths['/api/v2/incident/']['get']['parameters']['query']>;
const KINDS = ['CLOCK_IN_WHILE_OPEN', 'CLOCK_OUT_WITHOUT_OPEN', 'RECORD_OPEN_TOO_LONG', 'ABSENCE', 'LATE_CLOCK_IN'] as const;

/** Every employee's incidents, most severe first, with filters by status, kind, employee and dates. */
export default function IncidentsAdminPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState({ status: 'open', kind: '', employeeId: '', from: '', to: '' });
  const [page, setPage] = useState(1);
  const employees = useQuery({ queryKey: ['employees', 'all'], queryFn: async () => data(await api.GET('/api/v2/employees', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const query: ListQuery = {
    limit: '25',
    page: String(page),
    ...(filters.status ? { status: filters.status as ListQuery['status'] } : {}),
    ...(filters.kind ? { kind: filters.kind as ListQuery['kind'] } : {}),
    ...(filters.employeeId ? { employeeId: filters.employeeId } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  const list = useQuery({ queryKey: ['incidents', 'admin', query], queryFn: async () => data(await api.GET('/api/v2/incident/', { params: { query } })), placeholderData: keepPreviousData });
  const ids = { status: useId(), kind: useId(), employee: useId(), from: useId(), to: useId() };
  const set = (key: keyof typeof filters) => (event: { target: { value: string } }) => {
    setPage(1);
    setFilters((current) => ({ ...current, [key]: event.target.value }));
  };
  return (
    <>
      <h1>{t('incidentsAdmin.heading')}</h1>
      <section aria-labelledby="incident-filters">
        <h2 id="incident-filters">{t('review.filters.heading')}</h2>
        <div className="filter-grid">
          <FilterSelect
            id={ids.status}
            label={t('incidentsAdmin.status')}
            value={filters.status}
            onChange={set('status')}
            options={(['open', 'closed'] as const).map((status) => ({ value: status, text: t(`incidents.status.${status}`) }))}
          />
          <FilterSelect id={ids.kind} label={t('incidentsAdmin.kind')} value={filters.kind} onChange={set('kind')} options={KINDS.map((kind) => ({ value: kind, text: t(`incidents.kinds.${kind}`) }))} />
          <FilterSelect
            id={ids.employee}
            label={t('incidentsAdmin.employee')}
            value={filters.employeeId}
            onChange={set('employeeId')}
            options={employees.data?.map((employee) => ({ value: employee.id, text: `${employee.name} ${employee.lastname}` }))}
          />
          <DateRange ids={ids} from={filters.from} to={filters.to} set={set} />
        </div>
      </section>
      <QueryView query={list} isEmpty={(answer) => answer.data.length === 0} none={<p>{t('incidentsAdmin.none')}</p>}>
        {(answer) => (
          <>
            <p>{t('incidentsAdmin.total', { count: answer.meta.totalItems })}</p>
            <ul className="cards">
              {answer.data.map((incident) => (
                <li key={incident.id} className="row">
                  <Link to={`/admin/incidents/${incident.id}`}>
                    {incident.employeeName ?? `#${incident.employeeId}`} · {t(`incidents.kinds.${incident.kind}`)}
                  </Link>
                  <p className="meta">
                    {t(`incidentsAdmin.severity.${incident.severity}`)} · {t(`incidents.status.${incident.status}`)} · {formatDateTime(incident.createdAt)} · {t('incidentsAdmin.messages', { count: incident.messageCount })}
                  </p>
                </li>
              ))}
            </ul>
            <PageButtons page={page} meta={answer.meta} onPage={setPage} />
          </>
        )}
      </QueryView>
    </>
  );
}

/** The academy's calendar day of an instant, `YYYY-MM-DD` (the detail's time records are of that day). */
const dayOf = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

/** One incident: what happened, the employee's time records of that day, the thread with its files, a reply, close. */
export function IncidentAdminPage() {
  const { t } = useTranslation();
  const id = useParams().id ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery({ queryKey: ['incidents', 'detail', id], queryFn: async () => data(await api.GET('/api/v2/incident/{id}', { params: { path: { id } } })).data });
  const incident = detail.data;
  const day = incident ? (incident.day ?? dayOf(incident.createdAt, getSession()?.academy.timeZone ?? 'Europe/Madrid')) : '';
  const records = useQuery({
    queryKey: ['time-records', incident?.employeeId, day],
    enabled: Boolean(incident),
    queryFn: async () => data(await api.GET('/api/v2/timerecord/history', { params: { query: { employeeId: String(incident!.employeeId), from: day, to: day } } })),
  });
  const [message, setMessage] = useState('');
  const [note, setNote] = useState('');
  const ids = { message: useId(), note: useId() };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['incidents'] });
  const reply = useMutation({
    mutationFn: async () => data(await api.POST('/api/v2/incident/{id}/admin-thread', { params: { path: { id } }, body: { message: message.trim() } })),
    onSuccess: () => {
      setMessage('');
      refresh();
    },
  });
  const close = useMutation({ mutationFn: async () => data(await api.POST('/api/v2/incident/{id}/close', { params: { path: { id } }, body: note.trim() ? { message: note.trim() } : {} })), onSuccess: refresh });
  const [failure, setFailure] = useState<string | null>(null);
  if (detail.isPending) return <Loading />;
  if (detail.isError || !incident) return <Failure error={detail.error} retry={() => void detail.refetch()} />;
  const error = reply.error ?? close.error;
  // One write at a time: a close sent while an answer is on its way can lock the incident first, and the
  // answer is then refused (409 INCIDENT_CLOSED) and never reaches the employee.
  const writing = reply.isPending || close.isPending;
  return (
    <>
      <p>
        <Link to="/admin/incidents">{t('incidentsAdmin.back')}</Link>
      </p>
      <h1>
        {t(`incidents.kinds.${incident.kind}`)} · {incident.employeeName ?? `#${incident.employeeId}`}
      </h1>
      <p>
        {t(`incidentsAdmin.severity.${incident.severity}`)} · {t(`incidents.status.${incident.status}`)} · {formatDateTime(incident.createdAt)}
        {incident.source && ` · ${incident.source}`}
      </p>
      <p>{incident.description}</p>
      {incident.proposedEndAt && <p>{t('incidentsAdmin.proposedEnd', { when: formatDateTime(incident.proposedEndAt) })}</p>}
      {(error || failure) && (
        <p role="alert" className="failure">
          {failure ?? errorText(error)}
        </p>
      )}
      <section aria-labelledby="records-heading">
        <h2 id="records-heading">{t('incidentsAdmin.records', { day: formatDate(`${day}T12:00:00Z`) })}</h2>
        <QueryView query={records} isEmpty={(answer) => answer.data.length === 0} none={<p>{t('incidentsAdmin.noRecords')}</p>}>
          {(answer) => (
            <ul className="cards">
              {answer.data.flatMap((d) =>
                d.records.map((record) => (
                  <li key={record.id}>
                    {formatTime(record.clockInAt)} – {record.clockOutAt ? formatTime(record.clockOutAt) : t('incidentsAdmin.stillOpen')} · {record.clockInSource}
                  </li>
                )),
              )}
            </ul>
          )}
        </QueryView>
      </section>
      <section aria-labelledby="thread-heading">
        <h2 id="thread-heading">{t('incidentsAdmin.thread')}</h2>
        {incident.messages.length === 0 ? (
          <p>{t('review.noMessages')}</p>
        ) : (
          <ol className="messages">
            {incident.messages.map((entry) => (
              <li key={entry.id}>
                <p className="meta">
                  {t(`incidentsAdmin.roles.${entry.authorRole}`)} · {formatDateTime(entry.createdAt)}
                </p>
                <p>{entry.message}</p>
                {entry.files.map((file) => (
                  <button
                    key={file.id}
                    type="button"
                    className="link"
                    onClick={() => {
                      setFailure(null);
                      downloadIncidentFile(incident.id, file).catch((problem: unknown) => setFailure(errorText(problem)));
                    }}
                  >
                    {file.fileName}
                  </button>
                ))}
              </li>
            ))}
          </ol>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (message.trim() && !writing) reply.mutate();
          }}
        >
          <label htmlFor={ids.message}>{t('incidentsAdmin.reply')}</label>
          <textarea id={ids.message} rows={3} maxLength={5000} value={message} onChange={(event) => setMessage(event.target.value)} />
          <div className="actions">
            <button type="submit" disabled={writing || message.trim() === ''}>
              {t('review.send')}
            </button>
          </div>
          {reply.isSuccess && <p role="status">{t('review.sent')}</p>}
        </form>
      </section>
      {incident.status === 'open' && (
        <section aria-labelledby="close-heading">
          <h2 id="close-heading">{t('incidentsAdmin.close')}</h2>
          <label htmlFor={ids.note}>{t('incidentsAdmin.closingNote')}</label>
          <textarea id={ids.note} rows={2} maxLength={5000} value={note} onChange={(event) => setNote(event.target.value)} />
          <div className="actions">
            <button type="button" disabled={writing} onClick={() => close.mutate()}>
              {t('incidentsAdmin.closeButton')}
            </button>
          </div>
        </section>
      )}
    </>
  );
}
