import { useTranslation } from 'react-i18next';
import { errorText } from './i18n';

/** An error of a read, in the user's language, with a retry (a lost connection is never a blank page). */
export function Failure({ error, retry }: { error: unknown; retry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="failure">
      <p>{errorText(error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          {t('app.retry')}
        </button>
      )}
    </div>
  );
}

export function Loading() {
  const { t } = useTranslation();
  return <p className="loading">{t('app.loading')}</p>;
}
