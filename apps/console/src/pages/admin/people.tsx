// People and courses (issue 34): employees (tax id, payroll code), students, guardians, school
// courses, the students of each class (event assignment) and the hours bank of each employee per
// school course. Every list and write is the academic directory's or the hours bank's own route.
import { Fragment, useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, ApiError, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { academyToday, formatDate, formatDateTime, formatNumber } from '../../format';
import { errorText, i18next } from '../../i18n';
import { Failure, Loading } from '../../ui';
import '../../i18n/teacher';
import '../teacher/teacher.css';
import './people.css';
import './i18n';
import './people-i18n';
import { Field, FilterSelect, QueryView } from './parts';
import { useView, ViewTabs } from './view-tabs';
import { HoursBank, operationDay } from '../teacher/hours-bank';

type Employee = paths['/api/v2/employees']['get']['responses'][200]['content']['application/json']['data'][number];
type Student = paths['/api/v2/students']['get']['responses'][200]['content']['application/json']['data'][number];
type Guardian = paths['/api/v2/guardians']['get']['responses'][200]['content']['application/json']['data'][number];
type CalendarEvent = paths['/api/v2/calendar-events']['get']['responses'][200]['content']['application/json']['data'][number];
type Assignment = paths['/api/v2/registration/assign-students-to-event']['put']['responses'][200]['content']['application/json']['data'];

const VIEWS = ['employees', 'students', 'guardians', 'courses', 'classes'] as const;
const PAGE_SIZE = '20';

/** A write's failure in the user's language; a VALIDATION_ERROR names the fields the API refused (by their labels). */
function writeFailure(error: unknown, labels: Record<string, string>): string {
  if (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && Array.isArray(error.details)) {
    const fields = [...new Set(error.details.map((detail: { path?: unknown }) => labels[String(detail.path ?? '').split('.')[0]]).filter(Boolean))];
    if (fields.length > 0) return i18next.t('people.invalidFields', { fields: fields.join(', ') });
  }
  return errorText(error);
}

/** Empty text is "none" (null) for the nullable fields. */
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

export default function PeoplePage() {
  const { t } = useTranslation();
  const view = useView(VIEWS);
  return (
    <>
      <h1>{t('people.heading')}</h1>
      <ViewTabs label={t('people.views.label')} views={VIEWS} current={view} text={(name) => t(`people.views.${name}`)} />
      {view === 'employees' ? <Employees /> : view === 'students' ? <Students /> : view === 'guardians' ? <Guardians /> : view === 'courses' ? <Courses /> : <Classes />}
    </>
  );
}

/** A searchable, paged list of a directory resource. */
function usePaged<T>(resource: 'employees' | 'students' | 'guardians', search: string, page: number) {
  return useQuery({
    queryKey: ['directory', resource, search, page],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const query = { limit: PAGE_SIZE, page: String(page), ...(search.trim() ? { search: search.trim() } : {}) };
      return data(await api.GET(`/api/v2/${resource}`, { params: { query } })) as unknown as { data: T[]; meta: { currentPage: number; totalPages: number; totalItems: number } };
    },
  });
}

function SearchBox({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="search">
      <label htmlFor={id}>{t('people.search')}</label>
      <input id={id} type="search" value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

function Pager({ meta, onPage }: { meta?: { currentPage: number; totalPages: number; totalItems: number }; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (!meta) return null;
  return (
    <div className="actions pager">
      <span>{t('people.pageOf', { page: meta.currentPage, pages: Math.max(meta.totalPages, 1), count: meta.totalItems })}</span>
      <button type="button" className="secondary" disabled={meta.currentPage <= 1} onClick={() => onPage(meta.currentPage - 1)}>
        {t('people.previous')}
      </button>
      <button type="button" className="secondary" disabled={meta.currentPage >= meta.totalPages} onClick={() => onPage(meta.currentPage + 1)}>
        {t('people.next')}
      </button>
    </div>
  );
}

/** A form's save: busy, the failure in the user's language, a status once done. */
function useSave() {
  const [state, setState] = useState<{ busy: boolean; failure: string | null; done: string | null }>({ busy: false, failure: null, done: null });
  const run = async (work: () => Promise<string>, labels: Record<string, string>) => {
    setState({ busy: true, failure: null, done: null });
    try {
      const done = await work();
      setState({ busy: false, failure: null, done });
      return done;
    } catch (error) {
      setState({ busy: false, failure: writeFailure(error, labels), done: null });
      return null;
    }
  };
  return [state, run] as const;
}

function SaveState({ state }: { state: { failure: string | null; done: string | null } }) {
  return (
    <>
      {state.done && <p role="status">{state.done}</p>}
      {state.failure && (
        <p role="alert" className="failure">
          {state.failure}
        </p>
      )}
    </>
  );
}

/**
 * A directory tab's form (an employee, a student, a guardian): its heading, its fields in the grid,
 * "active" when editing one that has it, Save and Close, the save's state.
 */
function DirectoryForm(props: {
  id: string;
  heading: string;
  onSubmit: (event: FormEvent) => void;
  onClose: () => void;
  state: { busy: boolean; failure: string | null; done: string | null };
  active?: { id: string; checked: boolean; onChange: (checked: boolean) => void };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { active } = props;
  return (
    <form className="panel" onSubmit={props.onSubmit} aria-labelledby={props.id}>
      <h3 id={props.id}>{props.heading}</h3>
      <div className="filter-grid">{props.children}</div>
      {active && (
        <label className="check">
          <input id={active.id} type="checkbox" checked={active.checked} onChange={(event) => active.onChange(event.target.checked)} />
          {t('people.active')}
        </label>
      )}
      <div className="actions">
        <button type="submit" disabled={props.state.busy}>
          {t('people.save')}
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          {t('people.close')}
        </button>
      </div>
      <SaveState state={props.state} />
    </form>
  );
}

/** A person's first name, last name and e-mail (a guardian's last name may be empty, their e-mail may not). */
function NameFields({
  ids,
  labels,
  form,
  set,
  lastnameRequired = true,
  emailRequired = false,
}: {
  ids: { name: string; lastname: string; email: string };
  labels: { name: string; lastname: string; email: string };
  form: { name: string; lastname: string; email: string };
  set: (key: 'name' | 'lastname' | 'email') => (event: { target: { value: string } }) => void;
  lastnameRequired?: boolean;
  emailRequired?: boolean;
}) {
  return (
    <>
      <Field id={ids.name} label={labels.name}>
        <input id={ids.name} type="text" required maxLength={100} value={form.name} onChange={set('name')} />
      </Field>
      <Field id={ids.lastname} label={labels.lastname}>
        <input id={ids.lastname} type="text" required={lastnameRequired} maxLength={100} value={form.lastname} onChange={set('lastname')} />
      </Field>
      <Field id={ids.email} label={labels.email}>
        <input id={ids.email} type="email" required={emailRequired} maxLength={254} value={form.email} onChange={set('email')} />
      </Field>
    </>
  );
}

/** A column of a directory tab's table, after the name. */
interface Column<Row> {
  label: string;
  cell: (row: Row) => ReactNode;
  /** Long text (an e-mail) that may break anywhere. */
  wrap?: boolean;
}

/**
 * A tab of the directory (employees, students, guardians): search, a new one, a page of the list with
 * its columns after the name (an inactive one marked), edit in place (the tab's form) and a link of
 * the row's own, the pager.
 */
function DirectoryTab<Row extends { id: number; name: string; lastname: string; active?: boolean }>(props: {
  resource: 'employees' | 'students' | 'guardians';
  newLabel: string;
  columns: Column<Row>[];
  link?: (row: Row, name: string) => ReactNode;
  form: (row: Row | null, onDone: (saved?: string) => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = usePaged<Row>(props.resource, search, page);
  const heading = `${props.resource}-heading`;
  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{t(`people.views.${props.resource}`)}</h2>
      <div className="inline">
        <SearchBox value={search} onChange={(value) => (setSearch(value), setPage(1))} />
        <button type="button" onClick={() => (setEditing('new'), setNotice(null))}>
          {props.newLabel}
        </button>
      </div>
      {editing && <Fragment key={editing === 'new' ? 'new' : editing.id}>{props.form(editing === 'new' ? null : editing, (saved) => (setEditing(null), setNotice(saved ?? null)))}</Fragment>}
      {notice && <p role="status">{notice}</p>}
      <QueryView query={list} isEmpty={(answer) => answer.data.length === 0} none={<p>{t('people.none')}</p>}>
        {(answer) => (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('people.name')}</th>
                {props.columns.map((column) => (
                  <th key={column.label} scope="col">
                    {column.label}
                  </th>
                ))}
                <th scope="col">{t('people.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.data.map((row) => {
                const name = `${row.name} ${row.lastname}`.trim();
                return (
                  <tr key={row.id} className={row.active === false ? 'inactive-row' : undefined}>
                    <th scope="row">
                      {name}
                      {row.active === false && <span className="state"> {t('people.inactive')}</span>}
                    </th>
                    {props.columns.map((column) => (
                      <td key={column.label} className={column.wrap ? 'wrap' : undefined} data-label={column.label}>
                        {column.cell(row)}
                      </td>
                    ))}
                    <td>
                      <div className="row-actions">
                        <button type="button" className="secondary" onClick={() => (setEditing(row), setNotice(null))} aria-label={t('people.editOf', { name })}>
                          {t('people.edit')}
                        </button>
                        {props.link?.(row, name)}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </QueryView>
      <Pager meta={list.data?.meta} onPage={setPage} />
    </section>
  );
}

// ---------------------------------------------------------------- employees

function Employees() {
  const { t } = useTranslation();
  return (
    <DirectoryTab<Employee>
      resource="employees"
      newLabel={t('people.employee.new')}
      columns={[
        { label: t('people.employee.kind'), cell: (employee) => t(`people.employee.kinds.${employee.kind}`) },
        { label: t('people.employee.taxId'), cell: (employee) => employee.taxId ?? '—' },
        { label: t('people.employee.payrollCode'), cell: (employee) => employee.payrollCode ?? '—' },
        { label: t('people.email'), cell: (employee) => employee.email ?? '—', wrap: true },
      ]}
      link={(employee, name) => (
        <Link to={`/admin/people/employees/${employee.id}/hours`} aria-label={t('people.hoursOf', { name })}>
          {t('people.hours.link')}
        </Link>
      )}
      form={(employee, onDone) => <EmployeeForm employee={employee} onDone={onDone} />}
    />
  );
}

function EmployeeForm({ employee, onDone }: { employee: Employee | null; onDone: (saved?: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const ids = { name: useId(), lastname: useId(), email: useId(), kind: useId(), taxId: useId(), payrollCode: useId(), active: useId() };
  const [form, setForm] = useState({
    name: employee?.name ?? '',
    lastname: employee?.lastname ?? '',
    email: employee?.email ?? '',
    kind: employee?.kind ?? 'teacher',
    taxId: employee?.taxId ?? '',
    payrollCode: employee?.payrollCode ?? '',
    active: employee?.active ?? true,
  });
  const [state, save] = useSave();
  const labels = { name: t('people.firstName'), lastname: t('people.lastname'), email: t('people.email'), kind: t('people.employee.kind'), taxId: t('people.employee.taxId'), payrollCode: t('people.employee.payrollCode') };
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: form.name, lastname: form.lastname, email: orNull(form.email), kind: form.kind as Employee['kind'], taxId: orNull(form.taxId), payrollCode: orNull(form.payrollCode) };
    void save(async () => {
      const saved = employee
        ? data(await api.PATCH('/api/v2/employees/{id}', { params: { path: { id: String(employee.id) } }, body: { ...body, active: form.active } }))
        : data(await api.POST('/api/v2/employees', { body }));
      await client.invalidateQueries({ queryKey: ['directory', 'employees'] });
      await client.invalidateQueries({ queryKey: ['employees'] });
      return t('people.saved', { name: `${saved.name} ${saved.lastname}` });
    }, labels).then((done) => done && onDone(done));
  };
  return (
    <DirectoryForm
      id="employee-form"
      heading={employee ? t('people.editOf', { name: `${employee.name} ${employee.lastname}` }) : t('people.employee.new')}
      onSubmit={submit}
      onClose={() => onDone()}
      state={state}
      active={employee ? { id: ids.active, checked: form.active, onChange: (active) => setForm((current) => ({ ...current, active })) } : undefined}
    >
      <NameFields ids={ids} labels={labels} form={form} set={set} />
      <Field id={ids.kind} label={labels.kind}>
        <select id={ids.kind} value={form.kind} onChange={set('kind')}>
          <option value="teacher">{t('people.employee.kinds.teacher')}</option>
          <option value="staff">{t('people.employee.kinds.staff')}</option>
        </select>
      </Field>
      <Field id={ids.taxId} label={labels.taxId}>
        <input id={ids.taxId} type="text" autoComplete="off" maxLength={20} aria-describedby={`${ids.taxId}-help`} value={form.taxId} onChange={set('taxId')} />
        <p id={`${ids.taxId}-help`} className="help">
          {t('people.employee.taxIdHelp')}
        </p>
      </Field>
      <Field id={ids.payrollCode} label={labels.payrollCode}>
        <input id={ids.payrollCode} type="text" autoComplete="off" maxLength={32} value={form.payrollCode} onChange={set('payrollCode')} />
      </Field>
    </DirectoryForm>
  );
}

// ---------------------------------------------------------------- students

function useGuardians() {
  return useQuery({ queryKey: ['directory', 'guardians', 'all'], queryFn: async () => data(await api.GET('/api/v2/guardians', { params: { query: { limit: '100' } } })).data, staleTime: 60_000 });
}

function Students() {
  const { t } = useTranslation();
  const guardians = useGuardians();
  const guardianName = (id: number | null) => {
    const guardian = id === null ? undefined : guardians.data?.find((g) => g.id === id);
    return id === null ? '—' : guardian ? `${guardian.name} ${guardian.lastname}`.trim() : `#${id}`;
  };
  return (
    <DirectoryTab<Student>
      resource="students"
      newLabel={t('people.student.new')}
      columns={[
        { label: t('people.student.status'), cell: (student) => t(`people.student.statuses.${student.status}`) },
        { label: t('people.student.guardian'), cell: (student) => guardianName(student.guardianId) },
        { label: t('people.email'), cell: (student) => student.email ?? '—', wrap: true },
      ]}
      link={(student, name) => (
        <Link to={`/admin/attendance/students/${student.id}`} aria-label={t('people.student.attendanceOf', { name })}>
          {t('people.student.attendance')}
        </Link>
      )}
      form={(student, onDone) => <StudentForm student={student} guardians={guardians.data ?? []} onDone={onDone} />}
    />
  );
}

function StudentForm({ student, guardians, onDone }: { student: Student | null; guardians: Guardian[]; onDone: (saved?: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const ids = { name: useId(), lastname: useId(), email: useId(), status: useId(), guardian: useId() };
  const [form, setForm] = useState({ name: student?.name ?? '', lastname: student?.lastname ?? '', email: student?.email ?? '', status: student?.status ?? 'active', guardianId: student?.guardianId ? String(student.guardianId) : '' });
  const [state, save] = useSave();
  const labels = { name: t('people.firstName'), lastname: t('people.lastname'), email: t('people.email'), status: t('people.student.status'), guardianId: t('people.student.guardian') };
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: form.name, lastname: form.lastname, email: orNull(form.email), status: form.status as Student['status'], guardianId: form.guardianId ? Number(form.guardianId) : null };
    void save(async () => {
      const saved = student ? data(await api.PATCH('/api/v2/students/{id}', { params: { path: { id: String(student.id) } }, body })) : data(await api.POST('/api/v2/students', { body }));
      await client.invalidateQueries({ queryKey: ['directory', 'students'] });
      return t('people.saved', { name: `${saved.name} ${saved.lastname}` });
    }, labels).then((done) => done && onDone(done));
  };
  return (
    <DirectoryForm id="student-form" heading={student ? t('people.editOf', { name: `${student.name} ${student.lastname}` }) : t('people.student.new')} onSubmit={submit} onClose={() => onDone()} state={state}>
      <NameFields ids={ids} labels={labels} form={form} set={set} />
      <Field id={ids.status} label={labels.status}>
        <select id={ids.status} value={form.status} onChange={set('status')}>
          {(['active', 'inactive', 'withdrawn'] as const).map((status) => (
            <option key={status} value={status}>
              {t(`people.student.statuses.${status}`)}
            </option>
          ))}
        </select>
      </Field>
      <Field id={ids.guardian} label={labels.guardianId}>
        <select id={ids.guardian} value={form.guardianId} onChange={set('guardianId')}>
          <option value="">{t('people.student.noGuardian')}</option>
          {guardians.map((guardian) => (
            <option key={guardian.id} value={guardian.id}>
              {`${guardian.name} ${guardian.lastname}`.trim()} · {guardian.email}
            </option>
          ))}
        </select>
      </Field>
    </DirectoryForm>
  );
}

// ---------------------------------------------------------------- guardians

function Guardians() {
  const { t } = useTranslation();
  return (
    <DirectoryTab<Guardian>
      resource="guardians"
      newLabel={t('people.guardian.new')}
      columns={[
        { label: t('people.email'), cell: (guardian) => guardian.email, wrap: true },
        { label: t('people.guardian.phone'), cell: (guardian) => guardian.phone ?? '—' },
      ]}
      form={(guardian, onDone) => <GuardianForm guardian={guardian} onDone={onDone} />}
    />
  );
}

function GuardianForm({ guardian, onDone }: { guardian: Guardian | null; onDone: (saved?: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const ids = { name: useId(), lastname: useId(), email: useId(), phone: useId(), active: useId() };
  const [form, setForm] = useState({ name: guardian?.name ?? '', lastname: guardian?.lastname ?? '', email: guardian?.email ?? '', phone: guardian?.phone ?? '', active: guardian?.active ?? true });
  const [state, save] = useSave();
  const labels = { name: t('people.firstName'), lastname: t('people.lastname'), email: t('people.email'), phone: t('people.guardian.phone') };
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = { name: form.name, lastname: form.lastname, email: form.email, phone: orNull(form.phone) };
    void save(async () => {
      const saved = guardian
        ? data(await api.PATCH('/api/v2/guardians/{id}', { params: { path: { id: String(guardian.id) } }, body: { ...body, active: form.active } }))
        : data(await api.POST('/api/v2/guardians', { body }));
      await client.invalidateQueries({ queryKey: ['directory', 'guardians'] });
      return t('people.saved', { name: `${saved.name} ${saved.lastname}`.trim() });
    }, labels).then((done) => done && onDone(done));
  };
  return (
    <DirectoryForm
      id="guardian-form"
      heading={guardian ? t('people.editOf', { name: `${guardian.name} ${guardian.lastname}`.trim() }) : t('people.guardian.new')}
      onSubmit={submit}
      onClose={() => onDone()}
      state={state}
      active={guardian ? { id: ids.active, checked: form.active, onChange: (active) => setForm((current) => ({ ...current, active })) } : undefined}
    >
      <NameFields ids={ids} labels={labels} form={form} set={set} lastnameRequired={false} emailRequired />
      <Field id={ids.phone} label={labels.phone}>
      <input id={ids.phone} type="tel" maxLength={40} value={form.phone} onChange={set('phone')} />
      </Field>
    </DirectoryForm>
  );
}

// ---------------------------------------------------------------- school courses

function useCourses() {
  return useQuery({ queryKey: ['school-courses'], queryFn: async () => data(await api.GET('/api/v2/school-courses')).data, staleTime: 300_000 });
}

function Courses() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const courses = useCourses();
  const ids = { name: useId(), start: useId(), end: useId() };
  const [form, setForm] = useState({ name: '', startDate: '', endDate: '' });
  const [state, save] = useSave();
  const labels = { name: t('people.course.name'), startDate: t('people.course.start'), endDate: t('people.course.end') };
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));
  const refresh = () => client.invalidateQueries({ queryKey: ['school-courses'] });
  const create = (event: FormEvent) => {
    event.preventDefault();
    void save(async () => {
      const created = data(await api.POST('/api/v2/school-courses', { body: form }));
      await refresh();
      setForm({ name: '', startDate: '', endDate: '' });
      return t('people.saved', { name: created.name });
    }, labels);
  };
  const remove = (id: number, name: string) =>
    void save(async () => {
      data(await api.DELETE('/api/v2/school-courses/{id}', { params: { path: { id: String(id) } } }));
      await refresh();
      return t('people.course.deleted', { name });
    }, labels);
  return (
    <section aria-labelledby="courses-heading">
      <h2 id="courses-heading">{t('people.views.courses')}</h2>
      <QueryView query={courses}>
        {(answer) => (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t('people.course.name')}</th>
                <th scope="col">{t('people.course.dates')}</th>
                <th scope="col">{t('people.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {answer.map((course) => (
                <tr key={course.id}>
                  <th scope="row">
                    {course.name}
                    {course.isLatest && <span className="state open"> {t('people.course.latest')}</span>}
                  </th>
                  <td>
                    {formatDate(`${course.startDate}T12:00:00Z`)} – {formatDate(`${course.endDate}T12:00:00Z`)}
                  </td>
                  <td>
                    <button type="button" className="danger" disabled={state.busy} onClick={() => remove(course.id, course.name)} aria-label={t('people.course.deleteOf', { name: course.name })}>
                      {t('people.course.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
      <form className="panel" onSubmit={create} aria-labelledby="course-form">
        <h3 id="course-form">{t('people.course.new')}</h3>
        <div className="filter-grid">
          <Field id={ids.name} label={labels.name}>
            <input id={ids.name} type="text" required maxLength={60} value={form.name} onChange={set('name')} />
          </Field>
          <Field id={ids.start} label={labels.startDate}>
            <input id={ids.start} type="date" required value={form.startDate} onChange={set('startDate')} />
          </Field>
          <Field id={ids.end} label={labels.endDate}>
            <input id={ids.end} type="date" required min={form.startDate || undefined} value={form.endDate} onChange={set('endDate')} />
          </Field>
        </div>
        <div className="actions">
          <button type="submit" disabled={state.busy}>
            {t('people.course.create')}
          </button>
        </div>
      </form>
      <SaveState state={state} />
    </section>
  );
}

// ---------------------------------------------------------------- classes: the students of each

function Classes() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState({ employeeId: '', subjectId: '', centerId: '' });
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<CalendarEvent | null>(null);
  const ids = { teacher: useId(), subject: useId(), center: useId() };
  const subjects = useQuery({ queryKey: ['subjects'], queryFn: async () => data(await api.GET('/api/v2/subjects', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const centers = useQuery({ queryKey: ['centers'], queryFn: async () => data(await api.GET('/api/v2/centers', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const employees = useQuery({ queryKey: ['employees', 'all'], queryFn: async () => data(await api.GET('/api/v2/employees', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const query = { limit: PAGE_SIZE, page: String(page), ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '')) };
  const events = useQuery({ queryKey: ['calendar-events', query], placeholderData: keepPreviousData, queryFn: async () => data(await api.GET('/api/v2/calendar-events', { params: { query } })) });
  const set = (key: keyof typeof filters) => (event: { target: { value: string } }) => (setFilters((current) => ({ ...current, [key]: event.target.value })), setPage(1));
  const nameOf = {
    subject: (id: number) => subjects.data?.find((s) => s.id === id)?.name ?? `#${id}`,
    center: (id: number) => centers.data?.find((c) => c.id === id)?.name ?? `#${id}`,
    teacher: (id: number | null) => (id === null ? '—' : ((n) => (n ? `${n.name} ${n.lastname}` : `#${id}`))(employees.data?.find((e) => e.id === id))),
  };
  return (
    <section aria-labelledby="classes-heading">
      <h2 id="classes-heading">{t('people.views.classes')}</h2>
      <p className="help">{t('people.classes.help')}</p>
      <div className="filter-grid">
        <FilterSelect
          id={ids.teacher}
          label={t('review.filters.teacher')}
          value={filters.employeeId}
          onChange={set('employeeId')}
          options={employees.data?.filter((employee) => employee.kind === 'teacher').map((employee) => ({ value: employee.id, text: `${employee.name} ${employee.lastname}` }))}
        />
        <FilterSelect id={ids.subject} label={t('review.filters.subject')} value={filters.subjectId} onChange={set('subjectId')} options={subjects.data?.map((subject) => ({ value: subject.id, text: subject.name }))} />
        <FilterSelect id={ids.center} label={t('attendanceAdmin.center')} value={filters.centerId} onChange={set('centerId')} options={centers.data?.map((center) => ({ value: center.id, text: center.name }))} />
      </div>
      <QueryView query={events} isEmpty={(answer) => answer.data.length === 0} none={<p>{t('people.none')}</p>}>
        {(answer) => (
          <ul className="cards">
            {answer.data.map((event) => {
              const label = `${nameOf.subject(event.subjectId)} · ${nameOf.center(event.centerId)} · ${formatDateTime(event.startsAt)}`;
              return (
                <li key={event.id}>
                  <div className="class-row">
                    <div>
                      <strong>{label}</strong>
                      <p className="meta">
                        {event.title ? `${event.title} · ` : ''}
                        {nameOf.teacher(event.employeeId)} · {t('today.students', { count: event.studentCount })}
                      </p>
                    </div>
                    <button type="button" className="secondary" aria-expanded={open?.id === event.id} aria-label={t('people.classes.assignOf', { label })} onClick={() => setOpen(open?.id === event.id ? null : event)}>
                      {t('people.classes.assign')}
                    </button>
                  </div>
                  {open?.id === event.id && <AssignStudents event={event} label={label} />}
                </li>
              );
            })}
          </ul>
        )}
      </QueryView>
      <Pager meta={events.data?.meta} onPage={setPage} />
    </section>
  );
}

/** The students registered in the class's subject at its centre, those assigned checked; saving makes the class's set the checked one. */
function AssignStudents({ event, label }: { event: CalendarEvent; label: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const registered = useQuery({
    queryKey: ['registered', event.subjectId, event.centerId],
    queryFn: async () => data(await api.GET('/api/v2/registration/students-by-subject-and-center', { params: { query: { subjectId: String(event.subjectId), centerId: String(event.centerId) } } })).data.students,
  });
  const assigned = useQuery({
    queryKey: ['assigned', event.id],
    queryFn: async () => data(await api.GET('/api/v2/registration/students-assigned-to-event', { params: { query: { eventId: String(event.id) } } })).data.students,
  });
  const [chosen, setChosen] = useState<Set<number> | null>(null);
  useEffect(() => {
    if (assigned.data && chosen === null) setChosen(new Set(assigned.data.map((student) => student.studentId)));
  }, [assigned.data, chosen]);
  const [outcome, setOutcome] = useState<Assignment | null>(null);
  const [state, save] = useSave();
  const names = new Map<number, string>([...(registered.data ?? []).map((s) => [s.studentId, s.fullName] as const), ...(assigned.data ?? []).map((s) => [s.studentId, s.fullName] as const)]);
  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    void save(async () => {
      const answer = data(await api.PUT('/api/v2/registration/assign-students-to-event', { body: { eventId: event.id, idsStudents: [...(chosen ?? [])] } })).data;
      setOutcome(answer);
      setChosen(new Set(answer.assignedStudents));
      await client.invalidateQueries({ queryKey: ['assigned', event.id] });
      await client.invalidateQueries({ queryKey: ['calendar-events'] });
      return t('people.classes.saved', { count: answer.assignedStudents.length });
    }, {});
  };
  if (registered.isPending || assigned.isPending || chosen === null) return registered.isError || assigned.isError ? <Failure error={registered.error ?? assigned.error} retry={() => void (registered.refetch(), assigned.refetch())} /> : <Loading />;
  // Students assigned but no longer registered are listed too, so that saving can take them out.
  const rows = [...names.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  const status = new Map(registered.data?.map((s) => [s.studentId, s.registrationStatus]) ?? []);
  return (
    <form className="panel" onSubmit={submit}>
      <fieldset>
        <legend>{t('people.classes.studentsOf', { label })}</legend>
        {rows.length === 0 && <p>{t('people.classes.noneRegistered')}</p>}
        <ul className="checklist">
          {rows.map(([id, name]) => (
            <li key={id}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={chosen.has(id)}
                  onChange={(change) =>
                    setChosen((current) => {
                      const next = new Set(current);
                      if (change.target.checked) next.add(id);
                      else next.delete(id);
                      return next;
                    })
                  }
                />
                {name}
                {status.get(id) && status.get(id) !== 'active' && <span className="state"> {t(`people.classes.registration.${status.get(id)}`)}</span>}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="actions">
        <span>{t('review.selected', { count: chosen.size, formatted: formatNumber(chosen.size) })}</span>
        <button type="submit" disabled={state.busy}>
          {t('people.classes.save')}
        </button>
      </div>
      <SaveState state={state} />
      {outcome && (
        <div className="outcome" role="region" aria-label={t('people.classes.outcome')}>
          <p>{t('people.classes.summary', { assigned: outcome.assignedStudents.length, removed: outcome.removedStudents.length, rejected: outcome.rejectedStudents.length })}</p>
          {outcome.rejectedStudents.length > 0 && (
            <ul>
              {outcome.rejectedStudents.map((rejected) => (
                <li key={rejected.studentId} className="failed">
                  {names.get(rejected.studentId) ?? `#${rejected.studentId}`}: {rejected.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}

// ---------------------------------------------------------------- an employee's hours bank per school course

export function EmployeeHoursPage() {
  const { t } = useTranslation();
  const employeeId = useParams().id ?? '';
  const client = useQueryClient();
  const courses = useCourses();
  const [courseId, setCourseId] = useState('');
  const employee = useQuery({ queryKey: ['employee', employeeId], queryFn: async () => data(await api.GET('/api/v2/employees/{id}', { params: { path: { id: employeeId } } })) });
  const selected = courseId || String(courses.data?.find((course) => course.isLatest)?.id ?? '');
  const bank = useQuery({
    queryKey: ['hours-bank', Number(employeeId), selected],
    enabled: selected !== '',
    queryFn: async () => data(await api.GET('/api/v2/hours-bank/{employeeId}', { params: { path: { employeeId }, query: { schoolCourseId: selected } } })),
  });
  const ids = { course: useId(), kind: useId(), time: useId(), reason: useId(), date: useId() };
  const [form, setForm] = useState({ kind: 'completed' as 'completed' | 'pending', time: '', reason: '', date: academyToday() });
  const [state, save] = useSave();
  const labels = { time: t('hours.time'), reason: t('hours.reason'), date: t('hours.date') };
  const refresh = () => client.invalidateQueries({ queryKey: ['hours-bank', Number(employeeId)] });
  const add = (event: FormEvent) => {
    event.preventDefault();
    const body = { time: form.time, date: form.date, schoolCourseId: Number(selected), ...(form.reason.trim() ? { reason: form.reason.trim() } : {}) };
    void save(async () => {
      const path = { employeeId };
      const answer = form.kind === 'completed' ? data(await api.POST('/api/v2/hours-bank/{employeeId}/completed', { params: { path }, body })) : data(await api.POST('/api/v2/hours-bank/{employeeId}/pending', { params: { path }, body }));
      await refresh();
      setForm((current) => ({ ...current, time: '', reason: '' }));
      return t('people.hours.added', { time: answer.data.details.hoursRegistered });
    }, labels);
  };
  const undo = (transactionId: number) =>
    void save(async () => {
      data(await api.DELETE('/api/v2/hours-bank/transactions/{transactionId}', { params: { path: { transactionId: String(transactionId) } } }));
      await refresh();
      return t('people.hours.undone');
    }, labels);
  const name = employee.data ? `${employee.data.name} ${employee.data.lastname}` : `#${employeeId}`;
  const empty = bank.error instanceof ApiError && bank.error.status === 404;
  return (
    <>
      <p>
        <Link to="/admin/people?view=employees">{t('people.back')}</Link>
      </p>
      <h1>{t('people.hours.heading', { name })}</h1>
      {employee.isError && <Failure error={employee.error} retry={() => void employee.refetch()} />}
      <section aria-labelledby="bank-heading">
        <h2 id="bank-heading">{t('hours.bank')}</h2>
        <label htmlFor={ids.course}>{t('review.filters.course')}</label>
        <select id={ids.course} value={selected} onChange={(event) => setCourseId(event.target.value)}>
          {courses.data?.map((course) => (
            <option key={course.id} value={course.id}>
              {course.name}
            </option>
          ))}
        </select>
        {bank.isPending ? (
          <Loading />
        ) : empty ? (
          <p>{t('people.hours.none')}</p>
        ) : bank.isError ? (
          <Failure error={bank.error} retry={() => void bank.refetch()} />
        ) : (
          <HoursBank
            bank={bank.data.data}
            actions={{
              heading: t('people.actions'),
              of: (row) =>
                row.isActive && (
                  <button type="button" className="secondary" disabled={state.busy} onClick={() => undo(row.id)} aria-label={t('people.hours.undoOf', { time: row.hours, date: operationDay(row) })}>
                    {t('people.hours.undo')}
                  </button>
                ),
            }}
          />
        )}
      </section>
      <section aria-labelledby="add-hours">
        <h2 id="add-hours">{t('people.hours.add')}</h2>
        <form onSubmit={add}>
          <div className="filter-grid">
            <Field id={ids.kind} label={t('hours.type')}>
              <select id={ids.kind} value={form.kind} onChange={(event) => setForm((current) => ({ ...current, kind: event.target.value as 'completed' | 'pending' }))}>
                <option value="completed">{t('people.hours.kinds.completed')}</option>
                <option value="pending">{t('people.hours.kinds.pending')}</option>
              </select>
            </Field>
            <Field id={ids.time} label={labels.time}>
              <input id={ids.time} type="text" required placeholder="1h 30m" aria-describedby={`${ids.time}-help`} value={form.time} onChange={(event) => setForm((current) => ({ ...current, time: event.target.value }))} />
              <p id={`${ids.time}-help`} className="help">
                {t('people.hours.timeHelp')}
              </p>
            </Field>
            <Field id={ids.date} label={labels.date}>
              <input id={ids.date} type="date" required value={form.date} onChange={(event) => setForm((current) => ({ ...current, date: event.target.value }))} />
            </Field>
            <Field id={ids.reason} label={labels.reason}>
              <input id={ids.reason} type="text" maxLength={1000} value={form.reason} onChange={(event) => setForm((current) => ({ ...current, reason: event.target.value }))} />
            </Field>
          </div>
          <div className="actions">
            <button type="submit" disabled={state.busy || selected === ''}>
              {t('people.hours.addButton')}
            </button>
          </div>
        </form>
        <SaveState state={state} />
      </section>
    </>
  );
}
