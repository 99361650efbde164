import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, ApiError, data } from '../api/client';
import { formatDateTime } from '../format';
import { errorText } from '../i18n';
import { Failure, Loading } from '../ui';

const STATUSES = ['P', 'L', 'E', 'A'] as const;
type Draft = Record<number, { status?: string; remark?: string }>;

export default function AttendancePage() {
  const { t } = useTranslation();
  const eventId = useParams().eventId ?? '';
  const queryClient = useQueryClient();
  const path = { params: { path: { eventId } } };
  const sheet = useQuery({ queryKey: ['sheet', eventId], queryFn: async () => data(await api.GET('/api/v2/attendance/events/{eventId}', path)) });
  const history = useQuery({ queryKey: ['sheet-history', eventId], queryFn: async () => data(await api.GET('/api/v2/attendance/events/{eventId}/history', path)) });
  const [draft, setDraft] = useState<Draft>({});
  const save = useMutation({
    mutationFn: async (markRest: boolean) => {
      const marks = Object.entries(draft)
        .filter(([, mark]) => mark.status)
        .map(([studentId, mark]) => ({ studentId: Number(studentId), status: mark.status!, ...(mark.remark ? { remark: mark.remark } : {}) }));
      return data(await api.PUT('/api/v2/attendance/events/{eventId}', { ...path, body: { marks, ...(markRest ? { markRest: 'P' } : {}) } }));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['sheet', eventId], saved);
      setDraft({});
      void queryClient.invalidateQueries({ queryKey: ['sheet-history', eventId] });
      void queryClient.invalidateQueries({ queryKey: ['missing'] });
      void queryClient.invalidateQueries({ queryKey: ['classes'] });
    },
  });
  if (sheet.isPending) return <Loading />;
  if (sheet.isError) return <Failure error={sheet.error} retry={() => void sheet.refetch()} />;
  // The sheet tells its window (the API's `window`): read-only before it opens and, for a teacher, after it locks; a save refused as locked too.
  const { window } = sheet.data;
  const refused = save.error instanceof ApiError && save.error.code === 'ATTENDANCE_LOCKED';
  const locked = refused || !window.editable;
  const now = Date.now();
  const windowText = !window.editable
    ? now < Date.parse(window.opensAt)
      ? t('attendance.opensAt', { when: formatDateTime(window.opensAt) })
      : t('attendance.closedAt', { when: formatDateTime(window.locksAt) })
    : now < Date.parse(window.locksAt)
      ? t('attendance.until', { when: formatDateTime(window.locksAt) })
      : t('attendance.adminAfter', { when: formatDateTime(window.locksAt) });
  const names = new Map(sheet.data.students.map((student) => [student.studentId, student.name]));
  const statusName = (code: string | null) => (code ? t(`attendance.statuses.${code}`, { defaultValue: code }) : t('attendance.none'));

  return (
    <>
      <h1>
        {t('attendance.heading')} · {formatDateTime(sheet.data.startsAt)}
      </h1>
      <p>{sheet.data.taken ? t('attendance.taken', { when: formatDateTime(sheet.data.taken.at) }) : t('attendance.notTaken')}</p>
      {locked ? (
        <p role="alert" className="failure">
          {t('attendance.locked', { reason: refused ? t('errors.ATTENDANCE_LOCKED') : windowText })}
        </p>
      ) : (
        <p className="window">{windowText}</p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(false);
        }}
      >
        <table className="sheet">
          <thead>
            <tr>
              <th scope="col">{t('attendance.student')}</th>
              <th scope="col">{t('attendance.status')}</th>
              <th scope="col">{t('attendance.remark')}</th>
            </tr>
          </thead>
          <tbody>
            {sheet.data.students.map((student) => {
              const chosen = draft[student.studentId]?.status ?? student.status ?? '';
              return (
                <tr key={student.studentId}>
                  <th scope="row">{student.name}</th>
                  <td>
                    <fieldset disabled={locked}>
                      <legend className="visually-hidden">{`${t('attendance.status')}: ${student.name}`}</legend>
                      {STATUSES.map((code) => (
                        <label key={code} className="mark" title={t(`attendance.statuses.${code}`)}>
                          <input
                            type="radio"
                            name={`status-${student.studentId}`}
                            value={code}
                            checked={chosen === code}
                            onChange={() => setDraft((all) => ({ ...all, [student.studentId]: { ...all[student.studentId], status: code } }))}
                          />
                          <span aria-hidden="true">{code}</span>
                          <span className="visually-hidden">{t(`attendance.statuses.${code}`)}</span>
                        </label>
                      ))}
                    </fieldset>
                  </td>
                  <td>
                    <input
                      type="text"
                      disabled={locked}
                      aria-label={`${t('attendance.remark')}: ${student.name}`}
                      maxLength={500}
                      defaultValue={student.remark ?? ''}
                      onChange={(event) => setDraft((all) => ({ ...all, [student.studentId]: { status: all[student.studentId]?.status ?? student.status ?? undefined, remark: event.target.value } }))}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="actions">
          <button type="submit" disabled={locked || save.isPending}>
            {t('attendance.save')}
          </button>
          <button type="button" disabled={locked || save.isPending} onClick={() => save.mutate(true)}>
            {t('attendance.rest')}
          </button>
        </div>
        {save.isSuccess && <p role="status">{t('attendance.saved')}</p>}
        {save.isError && !locked && (
          <p role="alert" className="failure">
            {errorText(save.error)}
          </p>
        )}
      </form>
      <section aria-labelledby="history">
        <h2 id="history">{t('attendance.history')}</h2>
        {history.isPending ? (
          <Loading />
        ) : history.isError ? (
          <Failure error={history.error} retry={() => void history.refetch()} />
        ) : history.data.data.length === 0 ? (
          <p>{t('attendance.noHistory')}</p>
        ) : (
          <ol className="history">
            {history.data.data.map((change, index) => (
              <li key={index}>
                {t('attendance.change', { student: names.get(change.studentId) ?? change.studentId, from: statusName(change.from.status), to: statusName(change.to.status), when: formatDateTime(change.at) })}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
