import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import { formatDateTime } from '../format';
import { Failure, Loading } from '../ui';

export default function IncidentsPage() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['incidents', 'mine'], queryFn: async () => data(await api.GET('/api/v2/incident/my', { params: { query: {} } })) });
  return (
    <>
      <h1>{t('incidents.heading')}</h1>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <Failure error={list.error} retry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <p>{t('incidents.none')}</p>
      ) : (
        <ul className="cards">
          {list.data.data.map((incident) => (
            <li key={incident.id}>
              <Link to={`/incidents/${incident.id}`}>
                <strong>{t(`incidents.kinds.${incident.kind}`)}</strong>
              </Link>{' '}
              · {t(`incidents.status.${incident.status}`)} · {formatDateTime(incident.createdAt)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
