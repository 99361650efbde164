import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { formatDate, formatDateTime, formatNumber } from '../../format';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import '../../i18n/teacher';
import './teacher.css';
import { ATTACHMENTS, attachmentProblem, downloadIncidentFile } from './files';

type IncidentFile = { id: number; fileName: string; sizeBytes: number };

/** One of my incidents: what happened, its thread with attachments, and a reply (a justification) with files. */
export default function IncidentPage() {
  const { t } = useTranslation();
  const id = useParams().id ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery({ queryKey: ['incidents', 'detail', id], queryFn: async () => data(await api.GET('/api/v2/incident/{id}', { params: { path: { id } } })) });
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const problem = attachmentProblem(files);
  const reply = useMutation({
    mutationFn: async () => {
      // Files go as multipart/form-data (the browser sets the boundary); text alone as JSON.
      if (files.length === 0) return data(await api.POST('/api/v2/incident/{id}/thread', { params: { path: { id } }, body: { message } }));
      const form = new FormData();
      form.append('message', message);
      for (const file of files) form.append('files', file, file.name);
      return data(await api.POST('/api/v2/incident/{id}/thread', { params: { path: { id } }, body: form as unknown as { message: string }, bodySerializer: (body) => body as unknown as FormData }));
    },
    onSuccess: () => {
      setMessage('');
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
      void queryClient.invalidateQueries({ queryKey: ['incidents'] });
    },
  });

  if (detail.isPending) return <Loading />;
  if (detail.isError) return <Failure error={detail.error} retry={() => void detail.refetch()} />;
  const incident = detail.data.data;
  const download = async (file: IncidentFile) => {
    setFailure(null);
    try {
      await downloadIncidentFile(incident.id, file);
    } catch (error) {
      setFailure(errorText(error));
    }
  };
  const fileList = (list: IncidentFile[]) =>
    list.length > 0 && (
      <ul className="files">
        {list.map((file) => (
          <li key={file.id}>
            <button type="button" className="link" onClick={() => void download(file)}>
              {t('incident.download', { name: file.fileName, size: formatNumber(Math.ceil(file.sizeBytes / 1024)) })}
            </button>
          </li>
        ))}
      </ul>
    );

  return (
    <>
      <p>
        <Link to="/incidents">{t('incident.back')}</Link>
      </p>
      <h1>{t(`incidents.kinds.${incident.kind}`)}</h1>
      <dl className="facts">
        <dt>{t('incident.status')}</dt>
        <dd>{t(`incidents.status.${incident.status}`)}</dd>
        <dt>{t('incident.raised')}</dt>
        <dd>{formatDateTime(incident.createdAt)}</dd>
        {incident.day && (
          <>
            <dt>{t('incident.day')}</dt>
            <dd>{formatDate(`${incident.day}T12:00:00Z`)}</dd>
          </>
        )}
        {incident.closedAt && (
          <>
            <dt>{t('incident.closed')}</dt>
            <dd>{formatDateTime(incident.closedAt)}</dd>
          </>
        )}
      </dl>
      <p className="plain">{incident.description}</p>
      {failure && (
        <p role="alert" className="failure">
          {failure}
        </p>
      )}
      <section aria-labelledby="thread">
        <h2 id="thread">{t('incident.thread')}</h2>
        {incident.messages.length === 0 ? (
          <p>{t('incident.noMessages')}</p>
        ) : (
          <ol className="conversation">
            {incident.messages.map((entry) => (
              <li key={entry.id} className={entry.authorRole}>
                <p className="meta">
                  <strong>{t(`incident.author.${entry.authorRole}`)}</strong> · {formatDateTime(entry.createdAt)}
                </p>
                <p className="plain">{entry.message}</p>
                {fileList(entry.files)}
              </li>
            ))}
          </ol>
        )}
      </section>
      {incident.status === 'open' ? (
        <section aria-labelledby="reply">
          <h2 id="reply">{t('incident.reply')}</h2>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!problem) reply.mutate();
            }}
          >
            <label htmlFor="message">{t('incident.message')}</label>
            <textarea id="message" required maxLength={5000} rows={4} value={message} onChange={(event) => setMessage(event.target.value)} />
            <label htmlFor="files">{t('incident.files')}</label>
            <input
              id="files"
              ref={fileInput}
              type="file"
              multiple
              accept={ATTACHMENTS.types.join(',')}
              aria-describedby="files-help"
              onChange={(event) => setFiles(Array.from(event.target.files ?? []))}
            />
            <p id="files-help" className="help">
              {t('incident.filesHelp', { count: ATTACHMENTS.perMessage, mb: ATTACHMENTS.maxBytes / 1024 / 1024 })}
            </p>
            {problem && (
              <p role="alert" className="failure">
                {t(problem.key, problem.values ?? {})}
              </p>
            )}
            <div className="actions">
              <button type="submit" disabled={reply.isPending || !!problem || message.trim() === ''}>
                {reply.isPending ? t('incident.sending') : t('incident.send')}
              </button>
            </div>
            {reply.isSuccess && <p role="status">{t('incident.sent')}</p>}
            {reply.isError && (
              <p role="alert" className="failure">
                {errorText(reply.error)}
              </p>
            )}
          </form>
        </section>
      ) : (
        <p>{t('incident.closedNote')}</p>
      )}
    </>
  );
}
