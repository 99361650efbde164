import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import { getSession, setSession } from '../api/session';
import { errorText } from '../i18n';
import { DeviceSettings } from './teacher/devices';
import { NotificationSettings } from './teacher/notification-settings';

export default function SettingsPage() {
  const { t } = useTranslation();
  const session = getSession();
  const save = useMutation({
    mutationFn: async (locale: 'es' | 'en' | null) => data(await api.PATCH('/api/v2/auth/me', { body: { locale } })),
    onSuccess: ({ user }) => {
      const current = getSession();
      if (current) setSession({ ...current, user });
    },
  });
  const value = session?.user.locale ?? '';
  return (
    <>
      <h1>{t('settings.heading')}</h1>
      <label htmlFor="language">{t('settings.language')}</label>
      <select id="language" value={value} disabled={save.isPending} onChange={(event) => save.mutate(event.target.value === '' ? null : (event.target.value as 'es' | 'en'))}>
        <option value="">{t('settings.academy')}</option>
        <option value="es">Español</option>
        <option value="en">English</option>
      </select>
      {save.isSuccess && <p role="status">{t('settings.saved')}</p>}
      {save.isError && (
        <p role="alert" className="failure">
          {errorText(save.error)}
        </p>
      )}
      <NotificationSettings />
      <DeviceSettings />
    </>
  );
}
