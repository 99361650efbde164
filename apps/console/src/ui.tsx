import { Component, type ReactNode } from 'react';
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

/** A page that failed to load or render (a lost connection while fetching its code) shows a retry, never a blank page. */
export class PageBoundary extends Component<{ children: ReactNode; page: string }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override componentDidUpdate(previous: { page: string }) {
    if (previous.page !== this.props.page && this.state.error) this.setState({ error: null });
  }
  override render() {
    return this.state.error ? <Failure error={this.state.error} retry={() => window.location.reload()} /> : this.props.children;
  }
}
