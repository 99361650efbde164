import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { formatDateTime, formatNumber } from '../../format';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import type { paths } from '../../api/schema';
import '../../i18n/teacher';
import './teacher.css';

type MyBlock = paths['/api/v2/blocks/mine']['get']['responses'][200]['content']['application/json']['blocks'][number];

/** A grade as the API takes it: empty is "no grade"; else 0–10 with two decimals at most (a comma works too). */
function parseGrade(text: string): number | null | 'invalid' {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(trimmed)) return 'invalid';
  const value = Number(trimmed);
  return value >= 0 && value <= 10 ? value : 'invalid';
}

/** The thread of one student block: its messages (a rejection's reason marked as such) and a reply. */
function BlockThread({ block }: { block: MyBlock }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const path = { params: { path: { studentBlockId: String(block.studentBlockId) } } };
  const thread = useQuery({ queryKey: ['block-thread', block.studentBlockId], queryFn: async () => data(await api.GET('/api/v2/blocks/student-block/{studentBlockId}/thread', path)) });
  const [message, setMessage] = useState('');
  const send = useMutation({
    mutationFn: async () => data(await api.POST('/api/v2/blocks/student-block/{studentBlockId}/thread', { ...path, body: { message } })),
    onSuccess: () => {
      setMessage('');
      void queryClient.invalidateQueries({ queryKey: ['block-thread', block.studentBlockId] });
    },
  });
  const id = `thread-${block.studentBlockId}`;
  return (
    <div className="block-thread" role="region" aria-label={t('blocks.threadOf', { block: block.blockName, student: block.studentName })}>
      {thread.isPending ? (
        <Loading />
      ) : thread.isError ? (
        <Failure error={thread.error} retry={() => void thread.refetch()} />
      ) : thread.data.messages.length === 0 ? (
        <p>{t('blocks.noMessages')}</p>
      ) : (
        <ol className="conversation">
          {thread.data.messages.map((entry) => (
            <li key={entry.id} className={entry.kind === 'rejection' ? 'rejection' : entry.authorRole}>
              <p className="meta">
                <strong>{entry.kind === 'rejection' ? t('blocks.rejection') : (entry.authorName ?? t(`blocks.author.${entry.authorRole}`))}</strong> · {formatDateTime(entry.createdAt)}
              </p>
              <p className="plain">{entry.message}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate();
        }}
      >
        <label htmlFor={`${id}-message`}>{t('blocks.message')}</label>
        <textarea id={`${id}-message`} required maxLength={5000} rows={2} value={message} onChange={(event) => setMessage(event.target.value)} />
        <div className="actions">
          <button type="submit" disabled={send.isPending || message.trim() === ''}>
            {t('blocks.send')}
          </button>
        </div>
        {send.isError && (
          <p role="alert" className="failure">
            {errorText(send.error)}
          </p>
        )}
      </form>
    </div>
  );
}

/** One student block: its state, a grade and "close" while open, the rejection's reason, the thread on demand. */
function BlockRow({ block, onClosed }: { block: MyBlock; onClosed: (text: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [grade, setGrade] = useState(block.grade === null ? '' : formatNumber(block.grade));
  const [open, setOpen] = useState(false);
  const parsed = parseGrade(grade);
  const names = { block: block.blockName, student: block.studentName };
  const close = useMutation({
    mutationFn: async () =>
      data(await api.POST('/api/v2/blocks/{blockId}/close', { params: { path: { blockId: String(block.blockId) } }, body: { studentId: block.studentId, grade: parsed === 'invalid' ? null : parsed } })),
    onSuccess: () => {
      onClosed(t('blocks.closed', names));
      void queryClient.invalidateQueries({ queryKey: ['my-blocks'] });
    },
  });
  const gradeId = `grade-${block.studentBlockId}`;
  return (
    <li className="block-row">
      <div className="what">
        <strong>{block.studentName}</strong> · {block.blockName} <span className={`state ${block.state}`}>{t(`blocks.states.${block.state}`)}</span>
        {block.state === 'pending' && block.grade !== null && <> · {t('blocks.gradeShown', { grade: formatNumber(block.grade) })}</>}
        {block.state === 'rejected' && block.rejectedAt && (
          <p className="help">{t('blocks.rejectedBecause', { when: formatDateTime(block.rejectedAt), reason: block.rejectionReason ?? '—' })}</p>
        )}
      </div>
      {block.status === 'open' && (
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault();
            if (parsed !== 'invalid') close.mutate();
          }}
        >
          <div>
            <label htmlFor={gradeId}>
              {t('blocks.grade')}
              <span className="visually-hidden"> {t('blocks.gradeOf', names)}</span>
            </label>
            <input id={gradeId} type="text" inputMode="decimal" aria-invalid={parsed === 'invalid'} value={grade} onChange={(event) => setGrade(event.target.value)} />
          </div>
          <button type="submit" disabled={close.isPending || parsed === 'invalid'} aria-label={t('blocks.closeOf', names)}>
            {t('blocks.close')}
          </button>
        </form>
      )}
      <button type="button" className="outline" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? t('blocks.closeThread') : t('blocks.thread')}
        <span className="visually-hidden"> {t('blocks.threadOf', names)}</span>
      </button>
      {close.isError && (
        <p role="alert" className="failure">
          {errorText(close.error)}
        </p>
      )}
      {open && <BlockThread block={block} />}
    </li>
  );
}

/** My students' blocks per subject: open ones to close with a grade, pending ones, rejected ones with the admin's reason. */
export default function BlocksPage() {
  const { t } = useTranslation();
  const mine = useQuery({ queryKey: ['my-blocks'], queryFn: async () => data(await api.GET('/api/v2/blocks/mine', { params: { query: {} } })) });
  const [closed, setClosed] = useState<string | null>(null);
  if (mine.isPending) return <Loading />;
  if (mine.isError) return <Failure error={mine.error} retry={() => void mine.refetch()} />;
  const subjects = new Map<number, { name: string; blocks: MyBlock[] }>();
  for (const block of mine.data.blocks) {
    const subject = subjects.get(block.subjectId) ?? { name: block.subjectName, blocks: [] };
    subject.blocks.push(block);
    subjects.set(block.subjectId, subject);
  }
  return (
    <>
      <h1>{t('blocks.heading')}</h1>
      <p role="status">{closed}</p>
      {subjects.size === 0 ? (
        <p>{t('blocks.none')}</p>
      ) : (
        [...subjects].map(([subjectId, subject]) => (
          <section key={subjectId} aria-labelledby={`subject-${subjectId}`}>
            <h2 id={`subject-${subjectId}`}>{subject.name}</h2>
            <ul className="cards">
              {subject.blocks.map((block) => (
                <BlockRow key={block.studentBlockId} block={block} onClosed={setClosed} />
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}
