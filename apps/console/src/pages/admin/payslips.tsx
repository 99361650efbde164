import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import { formatDate, formatDateTime } from '../../format';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import { saveBlob } from '../teacher/files';
import './i18n';
import { Field, FilterSelect, PageButtons, QueryView } from './parts';

type Batch = components['schemas']['PayslipBatch'];
type Payslip = components['schemas']['AdminPayslip'];

/** While a batch is being read, how often the page asks how it goes. */
const READING_POLL_MS = 1_000;
const day = (date: string) => formatDate(`${date}T12:00:00Z`);

function useEmployees() {
  return useQuery({ queryKey: ['employees', 'all'], queryFn: async () => data(await api.GET('/api/v2/employees', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
}

/** Multipart through the typed client: the browser sets the boundary. */
const multipart = <T,>(form: FormData) => ({ body: form as unknown as T, bodySerializer: (body: unknown) => body as FormData });

export default function PayslipsAdminPage() {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t('payslipsAdmin.heading')}</h1>
      <BatchUpload />
      <SingleUpload />
      <PayslipList />
    </>
  );
}

/** The month's combined PDF: uploaded, then read in the background; its page opens at once and watches. */
function BatchUpload() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ids = { by: useId() };
  const upload = useMutation({
    mutationFn: async (form: FormData) => data(await api.POST('/api/v2/payslips/batches', multipart<{ file: string; label: string; periodStart: string; periodEnd: string; matchBy: 'taxId' }>(form))).data,
    onSuccess: (batch) => navigate(`/admin/payslips/batches/${batch.id}`),
  });
  return (
    <section aria-labelledby="batch-heading">
      <h2 id="batch-heading">{t('payslipsAdmin.batch.heading')}</h2>
      <UploadForm upload={upload} fileLabel={t('payslipsAdmin.batch.file')} submitLabel={t('payslipsAdmin.batch.upload')}>
        <LabelAndPeriod />
        <Field id={ids.by} label={t('payslipsAdmin.batch.matchBy')}>
          <select id={ids.by} name="matchBy" defaultValue="taxId">
            <option value="taxId">{t('payslipsAdmin.batch.taxId')}</option>
            <option value="payrollCode">{t('payslipsAdmin.batch.payrollCode')}</option>
          </select>
        </Field>
      </UploadForm>
    </section>
  );
}

/** An upload form (the batch, a single payslip): its fields in the grid, the PDF, the button (busy while sending), what came of it. */
function UploadForm(props: {
  upload: { mutate: (form: FormData) => void; isPending: boolean; isError: boolean; error: unknown };
  formRef?: RefObject<HTMLFormElement | null>;
  fileLabel: string;
  submitLabel: string;
  done?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const file = useId();
  const { upload } = props;
  return (
    <form
      ref={props.formRef}
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        upload.mutate(new FormData(event.currentTarget));
      }}
    >
      <div className="filter-grid">{props.children}</div>
      <label htmlFor={file}>{props.fileLabel}</label>
      <input id={file} name="file" type="file" accept="application/pdf" required />
      <div className="actions">
        <button type="submit" disabled={upload.isPending}>
          {upload.isPending ? t('payslipsAdmin.uploading') : props.submitLabel}
        </button>
      </div>
      {props.done}
      {upload.isError && (
        <p role="alert" className="failure">
          {errorText(upload.error)}
        </p>
      )}
    </form>
  );
}

/** The upload forms' label and period (their inputs named as the API's fields). */
function LabelAndPeriod() {
  const { t } = useTranslation();
  const ids = { label: useId(), start: useId(), end: useId() };
  return (
    <>
      <Field id={ids.label} label={t('payslipsAdmin.label')}>
        <input id={ids.label} name="label" type="text" required maxLength={200} />
      </Field>
      <Field id={ids.start} label={t('payslipsAdmin.periodStart')}>
        <input id={ids.start} name="periodStart" type="date" required />
      </Field>
      <Field id={ids.end} label={t('payslipsAdmin.periodEnd')}>
        <input id={ids.end} name="periodEnd" type="date" required />
      </Field>
    </>
  );
}

/** One payslip for one employee, published at once. */
function SingleUpload() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const employees = useEmployees();
  const ids = { employee: useId() };
  const formRef = useRef<HTMLFormElement>(null);
  const upload = useMutation({
    mutationFn: async (form: FormData) => data(await api.POST('/api/v2/payslips', multipart<{ employeeId: string; file: string; label: string; periodStart: string; periodEnd: string }>(form))).data,
    onSuccess: () => {
      formRef.current?.reset();
      void queryClient.invalidateQueries({ queryKey: ['admin-payslips'] });
    },
  });
  return (
    <section aria-labelledby="single-heading">
      <h2 id="single-heading">{t('payslipsAdmin.single.heading')}</h2>
      <UploadForm
        upload={upload}
        formRef={formRef}
        fileLabel={t('payslipsAdmin.single.file')}
        submitLabel={t('payslipsAdmin.single.upload')}
        done={upload.isSuccess && <p role="status">{t('payslipsAdmin.single.done', { label: upload.data.label, employee: upload.data.employeeName ?? upload.data.employeeId })}</p>}
      >
        <Field id={ids.employee} label={t('payslipsAdmin.employee')}>
          <select id={ids.employee} name="employeeId" required defaultValue="">
            <option value="" disabled>
              {t('payslipsAdmin.choose')}
            </option>
            {employees.data?.map((employee) => (
              <option key={employee.id} value={employee.id}>
                {employee.name} {employee.lastname}
              </option>
            ))}
          </select>
        </Field>
        <LabelAndPeriod />
      </UploadForm>
    </section>
  );
}

/** Published payslips, newest first, with who viewed each and when; deleted and superseded ones on request. */
function PayslipList() {
  const { t } = useTranslation();
  const employees = useEmployees();
  const [filters, setFilters] = useState({ employeeId: '', year: '', month: '', deleted: false });
  const [page, setPage] = useState(1);
  const ids = { employee: useId(), year: useId(), month: useId(), deleted: useId() };
  const query = {
    limit: '25',
    page: String(page),
    ...(filters.employeeId ? { employeeId: filters.employeeId } : {}),
    ...(filters.year ? { year: filters.year } : {}),
    ...(filters.year && filters.month ? { month: filters.month } : {}),
    ...(filters.deleted ? { include: 'deleted' as const } : {}),
  };
  const list = useQuery({ queryKey: ['admin-payslips', query], queryFn: async () => data(await api.GET('/api/v2/payslips', { params: { query } })), placeholderData: keepPreviousData });
  const set = (key: 'employeeId' | 'year' | 'month') => (event: { target: { value: string } }) => {
    setPage(1);
    setFilters((current) => ({ ...current, [key]: event.target.value }));
  };
  const year = new Date().getFullYear();
  return (
    <section aria-labelledby="list-heading">
      <h2 id="list-heading">{t('payslipsAdmin.list.heading')}</h2>
      <div className="filter-grid">
        <FilterSelect
          id={ids.employee}
          label={t('payslipsAdmin.employee')}
          value={filters.employeeId}
          onChange={set('employeeId')}
          options={employees.data?.map((employee) => ({ value: employee.id, text: `${employee.name} ${employee.lastname}` }))}
        />
        <FilterSelect id={ids.year} label={t('payslipsAdmin.list.year')} value={filters.year} onChange={set('year')} options={[year + 1, year, year - 1, year - 2].map((y) => ({ value: y, text: y }))} />
        <FilterSelect
          id={ids.month}
          label={t('payslipsAdmin.list.month')}
          value={filters.month}
          onChange={set('month')}
          disabled={!filters.year}
          options={Array.from({ length: 12 }, (_, i) => ({ value: i + 1, text: new Intl.DateTimeFormat(t('payslipsAdmin.locale'), { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, i, 15))) }))}
        />
        <label className="check">
          <input
            id={ids.deleted}
            type="checkbox"
            checked={filters.deleted}
            onChange={(event) => {
              setPage(1);
              setFilters((current) => ({ ...current, deleted: event.target.checked }));
            }}
          />
          {t('payslipsAdmin.list.includeDeleted')}
        </label>
      </div>
      <QueryView query={list} isEmpty={(answer) => answer.data.length === 0} none={<p>{t('payslipsAdmin.list.none')}</p>}>
        {(answer) => (
          <>
            <ul className="cards">
              {answer.data.map((payslip) => (
                <PayslipRow key={payslip.id} payslip={payslip} />
              ))}
            </ul>
            <PageButtons page={page} meta={answer.meta} onPage={setPage} />
          </>
        )}
      </QueryView>
    </section>
  );
}

function PayslipRow({ payslip }: { payslip: Payslip }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<'delete' | 'correct' | null>(null);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const ids = { reason: useId(), file: useId() };
  const who = `${payslip.employeeName ?? `#${payslip.employeeId}`} · ${payslip.label}`;
  const done = () => {
    setAction(null);
    setReason('');
    void queryClient.invalidateQueries({ queryKey: ['admin-payslips'] });
  };
  const remove = useMutation({ mutationFn: async () => data(await api.DELETE('/api/v2/payslips/{id}', { params: { path: { id: String(payslip.id) } }, body: { reason: reason.trim() } })), onSuccess: done });
  const correct = useMutation({
    mutationFn: async (form: FormData) => data(await api.POST('/api/v2/payslips/{id}/replace', { params: { path: { id: String(payslip.id) } }, ...multipart<{ file: string }>(form) })),
    onSuccess: done,
  });
  const download = async () => {
    setFailure(null);
    try {
      saveBlob(data(await api.GET('/api/v2/payslips/{id}/file', { params: { path: { id: String(payslip.id) } }, parseAs: 'blob' })) as unknown as Blob, `${payslip.label}.pdf`);
    } catch (error) {
      setFailure(errorText(error));
    }
  };
  const error = remove.error ?? correct.error;
  return (
    <li className="row">
      <strong>{payslip.employeeName ?? `#${payslip.employeeId}`}</strong> · {payslip.label} · {day(payslip.periodStart)} – {day(payslip.periodEnd)}
      {payslip.correction && ` · ${t('payslipsAdmin.list.correction')}`}
      <p className="meta">
        {t(`payslipsAdmin.status.${payslip.status}`)} · {t('payslipsAdmin.list.published', { when: formatDateTime(payslip.publishedAt) })} ·{' '}
        {payslip.firstViewedAt ? t('payslipsAdmin.list.viewed', { when: formatDateTime(payslip.firstViewedAt) }) : t('payslipsAdmin.list.notViewed')}
      </p>
      {payslip.deleteReason && <p className="meta">{t('payslipsAdmin.list.deletedBecause', { when: payslip.deletedAt ? formatDateTime(payslip.deletedAt) : '—', reason: payslip.deleteReason })}</p>}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void download()} aria-label={`${t('payslipsAdmin.list.download')}: ${who}`}>
          {t('payslipsAdmin.list.download')}
        </button>
        {payslip.status === 'visible' && (
          <>
            <button type="button" className="secondary" aria-expanded={action === 'correct'} onClick={() => setAction(action === 'correct' ? null : 'correct')} aria-label={`${t('payslipsAdmin.list.correct')}: ${who}`}>
              {t('payslipsAdmin.list.correct')}
            </button>
            <button type="button" className="danger" aria-expanded={action === 'delete'} onClick={() => setAction(action === 'delete' ? null : 'delete')} aria-label={`${t('payslipsAdmin.list.delete')}: ${who}`}>
              {t('payslipsAdmin.list.delete')}
            </button>
          </>
        )}
      </div>
      {action === 'delete' && (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim()) remove.mutate();
          }}
        >
          <label htmlFor={ids.reason}>{t('payslipsAdmin.list.reason')}</label>
          <textarea id={ids.reason} rows={2} required maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />
          <div className="actions">
            <button type="submit" className="danger" disabled={remove.isPending || reason.trim() === ''}>
              {t('payslipsAdmin.list.confirmDelete')}
            </button>
          </div>
        </form>
      )}
      {action === 'correct' && (
        <form
          className="inline-form"
          onSubmit={(event: FormEvent<HTMLFormElement>) => {
            event.preventDefault();
            correct.mutate(new FormData(event.currentTarget));
          }}
        >
          <label htmlFor={ids.file}>{t('payslipsAdmin.list.correctionFile')}</label>
          <input id={ids.file} name="file" type="file" accept="application/pdf" required />
          <div className="actions">
            <button type="submit" disabled={correct.isPending}>
              {t('payslipsAdmin.list.publishCorrection')}
            </button>
          </div>
        </form>
      )}
      {(error || failure) && (
        <p role="alert" className="failure">
          {failure ?? errorText(error)}
        </p>
      )}
    </li>
  );
}

/** A batch: read in the background (watched), then its preview: who got which pages, pages naming nobody or two; assign; publish. */
export function BatchPage() {
  const { t } = useTranslation();
  const id = useParams().id ?? '';
  const queryClient = useQueryClient();
  const employees = useEmployees();
  const batch = useQuery({
    queryKey: ['payslip-batch', id],
    queryFn: async () => data(await api.GET('/api/v2/payslips/batches/{id}', { params: { path: { id } } })).data,
    refetchInterval: (query) => (query.state.data?.status === 'reading' ? READING_POLL_MS : false),
  });
  const put = (next: Batch) => queryClient.setQueryData(['payslip-batch', id], next);
  const assign = useMutation({
    mutationFn: async ({ page, employeeId }: { page: number; employeeId: number }) =>
      data(await api.POST('/api/v2/payslips/batches/{id}/pages/{page}/assign', { params: { path: { id, page: String(page) } }, body: { employeeId } })).data,
    onSuccess: put,
  });
  const publish = useMutation({
    mutationFn: async () => data(await api.POST('/api/v2/payslips/batches/{id}/publish', { params: { path: { id } } })),
    onSuccess: () => {
      void batch.refetch();
      void queryClient.invalidateQueries({ queryKey: ['admin-payslips'] });
    },
  });
  const discard = useMutation({ mutationFn: async () => data(await api.DELETE('/api/v2/payslips/batches/{id}', { params: { path: { id } } })).data, onSuccess: put });
  if (batch.isPending) return <Loading />;
  if (batch.isError) return <Failure error={batch.error} retry={() => void batch.refetch()} />;
  const b = batch.data;
  const nameOf = (employeeId: number) => {
    const employee = employees.data?.find((e) => e.id === employeeId);
    return employee ? `${employee.name} ${employee.lastname}` : `#${employeeId}`;
  };
  const error = assign.error ?? publish.error ?? discard.error;
  return (
    <>
      <p>
        <Link to="/admin/payslips">{t('payslipsAdmin.back')}</Link>
      </p>
      <h1>
        {t('payslipsAdmin.batch.title', { label: b.label })} · {day(b.periodStart)} – {day(b.periodEnd)}
      </h1>
      <p role="status" aria-live="polite">
        {t(`payslipsAdmin.batch.status.${b.status}`, { pages: b.pageCount })}
        {b.failureReason && `: ${b.failureReason}`}
      </p>
      {b.status === 'reading' && <progress aria-label={t('payslipsAdmin.batch.status.reading')} />}
      {error && (
        <p role="alert" className="failure">
          {errorText(error)}
        </p>
      )}
      {b.status !== 'reading' && b.status !== 'failed' && (
        <>
          <section aria-labelledby="matches-heading">
            <h2 id="matches-heading">{t('payslipsAdmin.batch.matches', { count: b.matches.length })}</h2>
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{t('payslipsAdmin.employee')}</th>
                  <th scope="col">{t('payslipsAdmin.batch.pages')}</th>
                </tr>
              </thead>
              <tbody>
                {b.matches.map((match) => (
                  <tr key={match.employeeId}>
                    <th scope="row">{match.employeeName ?? nameOf(match.employeeId)}</th>
                    <td>
                      {match.payslips
                        .map((run) =>
                          [run.fromPage === run.toPage ? t('payslipsAdmin.batch.page', { page: run.fromPage }) : t('payslipsAdmin.batch.run', { from: run.fromPage, to: run.toPage }), run.duplicateOfPayslipId ? t('payslipsAdmin.batch.duplicate') : '']
                            .filter(Boolean)
                            .join(' '),
                        )
                        .join(', ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <section aria-labelledby="unmatched-heading">
            <h2 id="unmatched-heading">{t('payslipsAdmin.batch.unmatched', { count: b.unmatchedPages.length })}</h2>
            {b.unmatchedPages.length === 0 && <p>{t('payslipsAdmin.batch.noneUnmatched')}</p>}
            <ul className="cards">
              {b.unmatchedPages.map((page) => (
                <AssignRow key={page.page} page={page.page} excerpt={page.excerpt} choices={employees.data?.map((e) => ({ id: e.id, name: `${e.name} ${e.lastname}` })) ?? []} disabled={b.status !== 'ready' || assign.isPending} onAssign={(employeeId) => assign.mutate({ page: page.page, employeeId })} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="ambiguous-heading">
            <h2 id="ambiguous-heading">{t('payslipsAdmin.batch.ambiguous', { count: b.ambiguousPages.length })}</h2>
            {b.ambiguousPages.length === 0 && <p>{t('payslipsAdmin.batch.noneAmbiguous')}</p>}
            <ul className="cards">
              {b.ambiguousPages.map((page) => (
                <AssignRow key={page.page} page={page.page} excerpt={t('payslipsAdmin.batch.names', { names: page.employeeIds.map(nameOf).join(', ') })} choices={page.employeeIds.map((employeeId) => ({ id: employeeId, name: nameOf(employeeId) }))} disabled={b.status !== 'ready' || assign.isPending} onAssign={(employeeId) => assign.mutate({ page: page.page, employeeId })} />
              ))}
            </ul>
          </section>
          {b.status === 'ready' && (
            <div className="actions">
              <button type="button" disabled={publish.isPending} onClick={() => publish.mutate()}>
                {t('payslipsAdmin.batch.publish')}
              </button>
              <button type="button" className="danger" disabled={discard.isPending} onClick={() => discard.mutate()}>
                {t('payslipsAdmin.batch.discard')}
              </button>
            </div>
          )}
        </>
      )}
    </>
  );
}

function AssignRow(props: { page: number; excerpt: string; choices: { id: number; name: string }[]; disabled: boolean; onAssign: (employeeId: number) => void }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState('');
  const selectId = useId();
  return (
    <li className="row">
      <strong>{t('payslipsAdmin.batch.page', { page: props.page })}</strong>
      <p className="excerpt">{props.excerpt}</p>
      <label htmlFor={selectId}>{t('payslipsAdmin.batch.assignTo', { page: props.page })}</label>
      <select id={selectId} value={choice} onChange={(event) => setChoice(event.target.value)}>
        <option value="">{t('payslipsAdmin.choose')}</option>
        {props.choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {choice.name}
          </option>
        ))}
      </select>
      <div className="actions">
        <button type="button" disabled={props.disabled || choice === ''} onClick={() => props.onAssign(Number(choice))} aria-label={t('payslipsAdmin.batch.assignPage', { page: props.page })}>
          {t('payslipsAdmin.batch.assign')}
        </button>
      </div>
    </li>
  );
}
