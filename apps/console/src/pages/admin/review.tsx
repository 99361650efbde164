import { memo, useCallback, useId, useMemo, useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, ApiError, data } from '../../api/client';
import type { paths } from '../../api/schema';
import { usePendingCount } from '../../admin';
import { formatDateTime, formatNumber } from '../../format';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import './i18n';
import { Field, FilterSelect } from './parts';
import { useView, ViewTabs } from './view-tabs';

type ReviewItem = paths['/api/v2/blocks/review']['post']['requestBody']['content']['application/json']['items'][number];
type ReviewAnswer = paths['/api/v2/blocks/review']['post']['responses'][200]['content']['application/json'];
type PendingStudent = paths['/api/v2/blocks/pending']['get']['responses'][200]['content']['application/json']['byStudent'][number];
type PendingBlock = PendingStudent['blocks'][number];

const VIEWS = ['pending', 'rejected', 'completed'] as const;

interface Filters {
  subjectId: string;
  employeeId: string;
  student: string;
  schoolCourseId: string;
}

/** What an item is called in the outcome and the labels: the student, the subject, the block. */
interface Named {
  studentBlockId: number;
  student: string;
  subject: string;
  block: string;
}

const matchesStudent = (name: string, text: string) => text.trim() === '' || name.toLocaleLowerCase().includes(text.trim().toLocaleLowerCase());

export default function ReviewPage() {
  const { t } = useTranslation();
  const view = useView(VIEWS);
  const [filters, setFilters] = useState<Filters>({ subjectId: '', employeeId: '', student: '', schoolCourseId: '' });
  const count = usePendingCount();
  const subjects = useQuery({ queryKey: ['subjects'], queryFn: async () => data(await api.GET('/api/v2/subjects', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const employees = useQuery({ queryKey: ['employees', 'all'], queryFn: async () => data(await api.GET('/api/v2/employees', { params: { query: { limit: '100' } } })).data, staleTime: 300_000 });
  const courses = useQuery({ queryKey: ['school-courses'], queryFn: async () => data(await api.GET('/api/v2/school-courses')).data, staleTime: 300_000 });
  const set = (key: keyof Filters) => (event: { target: { value: string } }) => setFilters((current) => ({ ...current, [key]: event.target.value }));

  return (
    <>
      <h1>{t('review.heading')}</h1>
      {count.data !== undefined && <p>{t('review.pendingCount', { count: count.data, formatted: formatNumber(count.data) })}</p>}
      <ViewTabs label={t('review.views.label')} views={VIEWS} current={view} text={(name) => t(`review.views.${name}`)} />
      <section aria-labelledby="review-filters" className="filters">
        <h2 id="review-filters">{t('review.filters.heading')}</h2>
        <div className="filter-grid">
          <FilterSelect id="filter-subject" label={t('review.filters.subject')} value={filters.subjectId} onChange={set('subjectId')} options={subjects.data?.map((subject) => ({ value: subject.id, text: subject.name }))} />
          <FilterSelect
            id="filter-teacher"
            label={t('review.filters.teacher')}
            value={filters.employeeId}
            onChange={set('employeeId')}
            options={employees.data?.filter((employee) => employee.kind === 'teacher').map((employee) => ({ value: employee.id, text: `${employee.name} ${employee.lastname}` }))}
          />
          <Field id="filter-student" label={t('review.filters.student')}>
            <input id="filter-student" type="text" value={filters.student} onChange={set('student')} />
          </Field>
          {view === 'completed' && (
            <Field id="filter-course" label={t('review.filters.course')}>
              <select id="filter-course" value={filters.schoolCourseId} onChange={set('schoolCourseId')}>
                <option value="">{t('review.filters.latest')}</option>
                {courses.data?.map((course) => (
                  <option key={course.id} value={course.id}>
                    {course.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
        </div>
      </section>
      {view === 'pending' ? <PendingList filters={filters} /> : view === 'rejected' ? <RejectedList filters={filters} /> : <CompletedList filters={filters} />}
    </>
  );
}

/** The queue: pending blocks grouped by student; approve or reject one or many, each item's outcome shown. */
function PendingList({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const reasonId = useId();
  const pending = useQuery({
    queryKey: ['blocks', 'pending', filters.subjectId],
    queryFn: async () => data(await api.GET('/api/v2/blocks/pending', { params: { query: filters.subjectId ? { subjectId: filters.subjectId } : {} } })),
  });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [reason, setReason] = useState('');
  const [reasonMissing, setReasonMissing] = useState(false);
  const [outcome, setOutcome] = useState<{ answer: ReviewAnswer; items: ReviewItem[]; names: Map<number, Named> } | null>(null);

  const groups = useMemo(
    () =>
      (pending.data?.byStudent ?? [])
        .filter((group) => matchesStudent(group.studentName, filters.student))
        .map((group) => ({ ...group, blocks: group.blocks.filter((block) => !filters.employeeId || String(block.employeeId) === filters.employeeId) }))
        .filter((group) => group.blocks.length > 0),
    [pending.data, filters.student, filters.employeeId],
  );
  const names = useMemo(() => {
    const map = new Map<number, Named>();
    for (const group of pending.data?.byStudent ?? [])
      for (const block of group.blocks) map.set(block.studentBlockId, { studentBlockId: block.studentBlockId, student: group.studentName, subject: block.subjectName, block: block.blockName });
    return map;
  }, [pending.data]);

  const review = useMutation({
    mutationFn: async (items: ReviewItem[]) => ({ answer: data(await api.POST('/api/v2/blocks/review', { body: { items } })), items }),
    onSuccess: ({ answer, items }) => {
      setOutcome({ answer, items, names });
      setSelected(new Set());
      setReason('');
      void queryClient.invalidateQueries({ queryKey: ['blocks'] });
    },
  });

  // Stable callbacks, so that a row (memo) re-renders only when its own block, selection or the review's
  // progress changes: selecting one of 500 blocks renders that row, not the list.
  const toggle = useCallback(
    (ids: readonly number[], on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const id of ids) {
          if (on) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );
  const { mutate } = review;
  const reviewOne = useCallback((item: ReviewItem) => mutate([item]), [mutate]);
  const bulk = (action: 'approve' | 'reject') => {
    if (action === 'reject' && reason.trim() === '') {
      setReasonMissing(true);
      return;
    }
    setReasonMissing(false);
    review.mutate([...selected].map((studentBlockId) => (action === 'approve' ? { studentBlockId, action } : { studentBlockId, action, reason: reason.trim() })));
  };

  if (pending.isPending) return <Loading />;
  if (pending.isError) return <Failure error={pending.error} retry={() => void pending.refetch()} />;
  const shown = groups.reduce((sum, group) => sum + group.blocks.length, 0);

  return (
    <>
      <section aria-labelledby="bulk-heading" className="bulk">
        <h2 id="bulk-heading">{t('review.selected', { count: selected.size })}</h2>
        <label htmlFor={reasonId}>{t('review.reason')}</label>
        <textarea id={reasonId} value={reason} rows={2} maxLength={2000} aria-invalid={reasonMissing || undefined} onChange={(event) => setReason(event.target.value)} />
        {reasonMissing && (
          <p role="alert" className="failure">
            {t('review.reasonRequired')}
          </p>
        )}
        <div className="actions">
          <button type="button" disabled={selected.size === 0 || review.isPending} onClick={() => bulk('approve')}>
            {t('review.approveSelected')}
          </button>
          <button type="button" className="danger" disabled={selected.size === 0 || review.isPending} onClick={() => bulk('reject')}>
            {t('review.rejectSelected')}
          </button>
          <button type="button" className="secondary" onClick={() => void pending.refetch()}>
            {t('app.retry')}
          </button>
        </div>
        {review.isError && (
          <p role="alert" className="failure">
            {errorText(review.error)}
          </p>
        )}
      </section>
      <div aria-live="polite">{outcome && <Outcome {...outcome} />}</div>
      <p>{t('review.shown', { count: shown })}</p>
      {groups.length === 0 && <p>{t('review.none')}</p>}
      {groups.map((group) => (
        <StudentGroup key={group.studentId} group={group} selected={selected} busy={review.isPending} onSelect={toggle} onReview={reviewOne} />
      ))}
    </>
  );
}

type GroupProps = { group: PendingStudent; selected: ReadonlySet<number>; busy: boolean; onSelect: (ids: readonly number[], on: boolean) => void; onReview: (item: ReviewItem) => void };

/** A student's pending blocks. Rendered again only when its blocks, their selection or the review's progress change: not when another student's block is selected. */
const StudentGroup = memo(
  function StudentGroup({ group, selected, busy, onSelect, onReview }: GroupProps) {
    const { t } = useTranslation();
    return (
      <section aria-labelledby={`student-${group.studentId}`}>
        <h2 id={`student-${group.studentId}`}>{group.studentName}</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={group.blocks.every((block) => selected.has(block.studentBlockId))}
            onChange={(event) => onSelect(group.blocks.map((block) => block.studentBlockId), event.target.checked)}
          />
          {t('review.selectAll', { student: group.studentName })}
        </label>
        <ul className="cards">
          {group.blocks.map((block) => (
            <PendingRow key={block.studentBlockId} student={group.studentName} block={block} selected={selected.has(block.studentBlockId)} onSelect={onSelect} busy={busy} onReview={onReview} />
          ))}
        </ul>
      </section>
    );
  },
  (before: GroupProps, after: GroupProps) =>
    before.group === after.group &&
    before.busy === after.busy &&
    before.onSelect === after.onSelect &&
    before.onReview === after.onReview &&
    before.group.blocks.every((block) => before.selected.has(block.studentBlockId) === after.selected.has(block.studentBlockId)),
);

/** One pending block. Memoized: its props are its block (an object of the query's answer), its selection and stable callbacks. */
const PendingRow = memo(function PendingRow(props: { student: string; block: PendingBlock; selected: boolean; busy: boolean; onSelect: (ids: readonly number[], on: boolean) => void; onReview: (item: ReviewItem) => void }) {
  const { t } = useTranslation();
  const { block, student } = props;
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const [thread, setThread] = useState(false);
  const reasonId = useId();
  return (
    <li className="row">
      <label className="check">
        <input type="checkbox" checked={props.selected} onChange={(event) => props.onSelect([block.studentBlockId], event.target.checked)} aria-label={t('review.select', { student, subject: block.subjectName, block: block.blockName })} />
        <span>
          <strong>{block.subjectName}</strong> · {block.blockName} · {block.grade === null ? t('review.ungraded') : t('review.grade', { grade: formatNumber(block.grade) })}
        </span>
      </label>
      <p className="meta">{t('review.by', { teacher: block.employeeName, when: block.closedAt ? formatDateTime(block.closedAt) : '—' })}</p>
      <div className="actions">
        <button type="button" disabled={props.busy} onClick={() => props.onReview({ studentBlockId: block.studentBlockId, action: 'approve' })} aria-label={`${t('review.approve')}: ${student} · ${block.blockName}`}>
          {t('review.approve')}
        </button>
        <button type="button" className="danger" disabled={props.busy} onClick={() => setRejecting((on) => !on)} aria-expanded={rejecting} aria-label={`${t('review.reject')}: ${student} · ${block.blockName}`}>
          {t('review.reject')}
        </button>
        <button type="button" className="secondary" onClick={() => setThread((on) => !on)} aria-expanded={thread} aria-label={`${thread ? t('review.hideThread') : t('review.thread')}: ${student} · ${block.blockName}`}>
          {thread ? t('review.hideThread') : t('review.thread')}
        </button>
      </div>
      {rejecting && (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim() === '') return setMissing(true);
            setMissing(false);
            props.onReview({ studentBlockId: block.studentBlockId, action: 'reject', reason: reason.trim() });
          }}
        >
          <label htmlFor={reasonId}>{t('review.reasonFor', { block: block.blockName })}</label>
          <textarea id={reasonId} rows={2} maxLength={2000} value={reason} aria-invalid={missing || undefined} onChange={(event) => setReason(event.target.value)} />
          {missing && (
            <p role="alert" className="failure">
              {t('review.reasonRequired')}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="danger" disabled={props.busy}>
              {t('review.confirmReject')}
            </button>
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              {t('review.cancel')}
            </button>
          </div>
        </form>
      )}
      {thread && <BlockThread studentBlockId={block.studentBlockId} title={t('review.threadOf', { student, block: block.blockName })} />}
    </li>
  );
});

/** Each item of the last review with what became of it: applied, or not and why (another administrator got there first). */
function Outcome({ answer, items, names }: { answer: ReviewAnswer; items: ReviewItem[]; names: Map<number, Named> }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="outcome-heading" className="outcome">
      <h2 id="outcome-heading">{t('review.results')}</h2>
      <p>{t('review.summary', { reviewed: answer.reviewed, failed: answer.failed })}</p>
      <ul>
        {answer.results.map((result, i) => {
          const name = names.get(result.studentBlockId);
          const label = name ? `${name.student} · ${name.subject} · ${name.block}` : `#${result.studentBlockId}`;
          const text = result.ok ? t(`review.applied.${items[i]?.action ?? 'approve'}`) : t('review.notApplied', { reason: errorText(new ApiError(409, result.code ?? 'HTTP_409')) });
          return (
            <li key={result.studentBlockId} className={result.ok ? 'ok' : 'failed'} data-outcome={result.ok ? 'ok' : 'failed'}>
              {label}: {text}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The rejected blocks, back with their teachers and not closed again yet. */
function RejectedList({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const rejected = useQuery({
    queryKey: ['blocks', 'rejected', filters.subjectId],
    queryFn: async () => data(await api.GET('/api/v2/blocks/pending-rejected', { params: { query: { state: 'rejected', ...(filters.subjectId ? { subjectId: filters.subjectId } : {}) } } })),
  });
  const [thread, setThread] = useState<number | null>(null);
  if (rejected.isPending) return <Loading />;
  if (rejected.isError) return <Failure error={rejected.error} retry={() => void rejected.refetch()} />;
  const blocks = rejected.data.blocks.filter((block) => matchesStudent(block.studentName, filters.student) && (!filters.employeeId || String(block.employeeId) === filters.employeeId));
  return (
    <section aria-labelledby="rejected-heading">
      <h2 id="rejected-heading">{t('review.views.rejected')}</h2>
      <p>{t('review.shown', { count: blocks.length })}</p>
      {blocks.length === 0 && <p>{t('review.none')}</p>}
      <ul className="cards">
        {blocks.map((block) => (
          <li key={block.studentBlockId} className="row">
            <strong>{block.studentName}</strong> · {block.subjectName} · {block.blockName}
            <p className="meta">{t('review.rejectedOn', { when: block.rejectedAt ? formatDateTime(block.rejectedAt) : '—', teacher: block.employeeName ?? '—' })}</p>
            <button type="button" className="secondary" aria-expanded={thread === block.studentBlockId} onClick={() => setThread(thread === block.studentBlockId ? null : block.studentBlockId)} aria-label={`${t('review.thread')}: ${block.studentName} · ${block.blockName}`}>
              {thread === block.studentBlockId ? t('review.hideThread') : t('review.thread')}
            </button>
            {thread === block.studentBlockId && <BlockThread studentBlockId={block.studentBlockId} title={t('review.threadOf', { student: block.studentName, block: block.blockName })} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Approved blocks of a school course (the latest by default), newest approval first, 50 a page. */
function CompletedList({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const completed = useInfiniteQuery({
    queryKey: ['blocks', 'completed', filters.subjectId, filters.schoolCourseId],
    initialPageParam: 1,
    queryFn: async ({ pageParam }) =>
      data(
        await api.GET('/api/v2/blocks/completed', {
          params: { query: { limit: '50', page: String(pageParam), ...(filters.subjectId ? { subjectId: filters.subjectId } : {}), ...(filters.schoolCourseId ? { schoolCourseId: filters.schoolCourseId } : {}) } },
        }),
      ),
    getNextPageParam: (last) => (last.meta.currentPage < last.meta.totalPages ? last.meta.currentPage + 1 : undefined),
  });
  if (completed.isPending) return <Loading />;
  if (completed.isError) return <Failure error={completed.error} retry={() => void completed.refetch()} />;
  const blocks = completed.data.pages.flatMap((page) => page.data).filter((block) => matchesStudent(block.studentName, filters.student) && (!filters.employeeId || String(block.employeeId) === filters.employeeId));
  return (
    <section aria-labelledby="completed-heading">
      <h2 id="completed-heading">{t('review.views.completed')}</h2>
      <p>{t('review.shown', { count: blocks.length })}</p>
      {blocks.length === 0 && <p>{t('review.none')}</p>}
      <ul className="cards">
        {blocks.map((block) => (
          <li key={block.studentBlockId}>
            <strong>{block.studentName}</strong> · {block.subjectName} · {block.blockName} · {block.grade === null ? t('review.ungraded') : t('review.grade', { grade: formatNumber(block.grade) })}
            <p className="meta">{t('review.approvedOn', { when: block.approvedAt ? formatDateTime(block.approvedAt) : '—' })}</p>
          </li>
        ))}
      </ul>
      {completed.hasNextPage && (
        <button type="button" className="secondary" disabled={completed.isFetchingNextPage} onClick={() => void completed.fetchNextPage()}>
          {t('review.more')}
        </button>
      )}
    </section>
  );
}

/** A block's thread between its teacher and the administration: the messages, oldest first, and one more. */
function BlockThread({ studentBlockId, title }: { studentBlockId: number; title: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const path = { params: { path: { studentBlockId: String(studentBlockId) } } };
  const thread = useQuery({ queryKey: ['block-thread', studentBlockId], queryFn: async () => data(await api.GET('/api/v2/blocks/student-block/{studentBlockId}/thread', path)) });
  const [message, setMessage] = useState('');
  const messageId = useId();
  const send = useMutation({
    mutationFn: async (text: string) => data(await api.POST('/api/v2/blocks/student-block/{studentBlockId}/thread', { ...path, body: { message: text } })),
    onSuccess: () => {
      setMessage('');
      void queryClient.invalidateQueries({ queryKey: ['block-thread', studentBlockId] });
    },
  });
  return (
    <section aria-label={title} className="thread">
      {thread.isPending ? (
        <Loading />
      ) : thread.isError ? (
        <Failure error={thread.error} retry={() => void thread.refetch()} />
      ) : thread.data.messages.length === 0 ? (
        <p>{t('review.noMessages')}</p>
      ) : (
        <ol className="messages">
          {thread.data.messages.map((entry) => (
            <li key={entry.id} className={entry.kind}>
              <p className="meta">
                {entry.authorName ?? t(`review.roles.${entry.authorRole}`)} · {formatDateTime(entry.createdAt)}
                {entry.kind === 'rejection' && ` · ${t('review.rejection')}`}
              </p>
              <p>{entry.message}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (message.trim()) send.mutate(message.trim());
        }}
      >
        <label htmlFor={messageId}>{t('review.message')}</label>
        <textarea id={messageId} rows={2} maxLength={5000} value={message} onChange={(event) => setMessage(event.target.value)} />
        <button type="submit" disabled={send.isPending || message.trim() === ''}>
          {t('review.send')}
        </button>
        {send.isSuccess && <p role="status">{t('review.sent')}</p>}
        {send.isError && (
          <p role="alert" className="failure">
            {errorText(send.error)}
          </p>
        )}
      </form>
    </section>
  );
}
