// The pieces the administrators' pages share: a labelled field, a filter's select with its "all" choice, a date range,
// a read's loading, failure and empty states, and the page buttons of a 25-a-page list. They load with
// the administrators' pages, never in the first bundle.
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Failure, Loading } from '../../ui';

/** A control with its label above it (the control carries `id`). */
export function Field({ label, children, id }: { label: string; children: ReactNode; id: string }) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** A filter's select: "all" (the empty value) and then the options. */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
  disabled,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  options: readonly { value: string | number; text: ReactNode }[] | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={label}>
      <select id={id} value={value} onChange={onChange} disabled={disabled}>
        <option value="">{t('review.filters.all')}</option>
        {options?.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** From and to, two dates (a filter's range). */
export function DateRange({ ids, from, to, set }: { ids: { from: string; to: string }; from: string; to: string; set: (key: 'from' | 'to') => (event: { target: { value: string } }) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Field id={ids.from} label={t('incidentsAdmin.from')}>
        <input id={ids.from} type="date" value={from} onChange={set('from')} />
      </Field>
      <Field id={ids.to} label={t('incidentsAdmin.to')}>
        <input id={ids.to} type="date" value={to} onChange={set('to')} />
      </Field>
    </>
  );
}

/** A read's states: loading, its failure with a retry, `none` when `isEmpty`, else `children` with the data. */
export function QueryView<T>({ query, isEmpty, none, children }: { query: UseQueryResult<T>; isEmpty?: (data: T) => boolean; none?: ReactNode; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failure error={query.error} retry={() => void query.refetch()} />;
  return <>{isEmpty?.(query.data) ? none : children(query.data)}</>;
}

/** Previous, "page n of m", next: the incidents' and payslips' lists. */
export function PageButtons({ page, meta, onPage }: { page: number; meta: { currentPage: number; totalPages: number }; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="actions">
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('payslipsAdmin.list.previous')}
      </button>
      <span>{t('payslipsAdmin.list.page', { page: meta.currentPage, pages: Math.max(1, meta.totalPages) })}</span>
      <button type="button" className="secondary" disabled={meta.currentPage >= meta.totalPages} onClick={() => onPage(page + 1)}>
        {t('payslipsAdmin.list.next')}
      </button>
    </div>
  );
}
