import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError, data } from '../../api/client';
import { getSession } from '../../api/session';
import { academyToday } from '../../format';
import { errorText, i18next } from '../../i18n';
import { Failure, Loading } from '../../ui';
import '../../i18n/teacher';
import './teacher.css';
import { saveBlob } from './files';
import { HoursBank } from './hours-bank';

/** The month before the academy's current one, `YYYY-MM` (the timesheet one usually wants). */
function lastMonth(): string {
  const [year, month] = academyToday().split('-').map(Number);
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/** My hours bank (totals and every operation, newest first) and my monthly timesheet as a PDF. */
export default function HoursPage() {
  const { t } = useTranslation();
  const employeeId = getSession()?.user.employeeId;
  const bank = useQuery({
    queryKey: ['hours-bank', employeeId],
    enabled: employeeId != null,
    queryFn: async () => data(await api.GET('/api/v2/hours-bank/{employeeId}', { params: { path: { employeeId: String(employeeId) } } })),
  });
  const [month, setMonth] = useState(lastMonth);
  const [sheet, setSheet] = useState<{ busy: boolean; failure: string | null; done: boolean }>({ busy: false, failure: null, done: false });

  /** The PDF in the console's language (the service reads Accept-Language), through the typed client. */
  const download = async () => {
    setSheet({ busy: true, failure: null, done: false });
    try {
      const blob = data(await api.GET('/api/v2/timerecord/report.pdf', { params: { query: { month } }, parseAs: 'blob', headers: { 'accept-language': i18next.language } }));
      saveBlob(blob as unknown as Blob, `${t('hours.fileName')}-${month}.pdf`);
      setSheet({ busy: false, failure: null, done: true });
    } catch (error) {
      setSheet({ busy: false, failure: errorText(error), done: false });
    }
  };

  // A bank with no operation yet is a 404 of the service: nothing to show, not a failure.
  const empty = bank.error instanceof ApiError && bank.error.status === 404;
  return (
    <>
      <h1>{t('hours.heading')}</h1>
      <section aria-labelledby="bank">
        <h2 id="bank">{t('hours.bank')}</h2>
        {employeeId == null ? (
          <p>{t('errors.NOT_AN_EMPLOYEE')}</p>
        ) : bank.isPending ? (
          <Loading />
        ) : empty ? (
          <p>{t('hours.none')}</p>
        ) : bank.isError ? (
          <Failure error={bank.error} retry={() => void bank.refetch()} />
        ) : (
          <HoursBank bank={bank.data.data} />
        )}
      </section>
      <section aria-labelledby="timesheet">
        <h2 id="timesheet">{t('hours.timesheet')}</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void download();
          }}
        >
          <label htmlFor="month">{t('hours.month')}</label>
          <input id="month" type="month" required value={month} max={academyToday().slice(0, 7)} onChange={(event) => setMonth(event.target.value)} />
          <div className="actions">
            <button type="submit" disabled={sheet.busy || !/^\d{4}-\d{2}$/.test(month)}>
              {t('hours.download')}
            </button>
          </div>
          {sheet.done && <p role="status">{t('hours.downloaded')}</p>}
          {sheet.failure && (
            <p role="alert" className="failure">
              {sheet.failure}
            </p>
          )}
        </form>
      </section>
    </>
  );
}
