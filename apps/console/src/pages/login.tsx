import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logIn } from '../api/session';
import { ApiError } from '../api/client';
import { errorText } from '../i18n';

/** Where to go after logging in: the page the user was sent from, on this site only. */
const safeNext = (next: string | null) => (next && next.startsWith('/') && !next.startsWith('//') ? next : '/');

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const outcome = await logIn(String(form.get('email')), String(form.get('password')));
      if (outcome.ok) navigate(safeNext(params.get('next')), { replace: true });
      else setError(errorText(new ApiError(outcome.status, outcome.code ?? `HTTP_${outcome.status}`)));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="login">
      <h1>{t('login.heading')}</h1>
      <form onSubmit={(event) => void submit(event)} aria-describedby={error ? 'login-error' : undefined}>
        <label htmlFor="email">{t('login.email')}</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">{t('login.password')}</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        {error && (
          <p id="login-error" role="alert" className="failure">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
      </form>
    </main>
  );
}
