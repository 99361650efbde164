// An hours bank as a teacher and an administrator see it: the totals and every operation, newest
// first. The teacher's My hours shows it as it is; the administrators' hours page of an employee adds
// a column of actions (undo).
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { paths } from '../../api/schema';
import { formatDate, formatNumber } from '../../format';
import '../../i18n/teacher';

type Bank = paths['/api/v2/hours-bank/{employeeId}']['get']['responses'][200]['content']['application/json']['data'];
export type HoursOperation = Bank['tracking']['transactions'][number];

/** An operation's day, as the table and its actions name it. */
export const operationDay = (operation: HoursOperation) => formatDate(`${operation.date}T12:00:00Z`);

export function HoursBank({ bank, actions }: { bank: Bank; actions?: { heading: string; of: (operation: HoursOperation) => ReactNode } }) {
  const { t } = useTranslation();
  return (
    <>
      <dl className="totals">
        <div>
          <dt>{t('hours.completed')}</dt>
          <dd>{bank.totals.completedHours}</dd>
        </div>
        <div>
          <dt>{t('hours.pending')}</dt>
          <dd>{bank.totals.pendingHours}</dd>
        </div>
      </dl>
      <h3>{t('hours.history')}</h3>
      {bank.tracking.transactions.length === 0 ? (
        <p>{t('hours.none')}</p>
      ) : (
        <table className="sheet">
          <thead>
            <tr>
              <th scope="col">{t('hours.date')}</th>
              <th scope="col">{t('hours.type')}</th>
              <th scope="col">{t('hours.time')}</th>
              <th scope="col">{t('hours.reason')}</th>
              {actions && <th scope="col">{actions.heading}</th>}
            </tr>
          </thead>
          <tbody>
            {bank.tracking.transactions.map((row) => (
              <tr key={row.id} className={row.isActive ? undefined : 'inactive'}>
                <th scope="row">{operationDay(row)}</th>
                <td>
                  {t(`hours.types.${row.type}`)}
                  {!row.isActive && row.type !== 'REVERSAL' && ` (${t('hours.undone')})`}
                </td>
                <td>
                  {row.hours} <span className="help">({formatNumber(row.hoursDecimal)} h)</span>
                </td>
                <td>{row.reason ?? '—'}</td>
                {actions && <td>{actions.of(row)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
