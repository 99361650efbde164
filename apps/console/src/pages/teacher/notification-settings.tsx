import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { getSession } from '../../api/session';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import '../../i18n/teacher';
import './teacher.css';
import type { paths } from '../../api/schema';

type PreferencesBody = paths['/api/v2/notifications/preferences']['put']['requestBody']['content']['application/json'];
type Change = NonNullable<PreferencesBody['preferences']>[number];
const CHANNELS = ['email', 'push'] as const;

/**
 * Settings' notifications: each type on each channel (critical ones shown checked and locked, the
 * service refuses to switch them off), and quiet hours for pushes in the academy's time zone.
 */
export function NotificationSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const preferences = useQuery({ queryKey: ['notification-preferences'], queryFn: async () => data(await api.GET('/api/v2/notifications/preferences')) });
  const key = ['notification-preferences'];
  type Answer = NonNullable<typeof preferences.data>;
  const save = useMutation({
    mutationFn: async (body: PreferencesBody) => data(await api.PUT('/api/v2/notifications/preferences', { body })),
    // A switched checkbox shows its new state at once; a refusal puts back what the service has.
    onMutate: (body) => {
      const changes = body.preferences ?? [];
      queryClient.setQueryData<Answer>(key, (old) =>
        old && { ...old, data: { ...old.data, preferences: old.data.preferences.map((row) => ({ ...row, enabled: changes.find((c) => c.type === row.type && c.channel === row.channel)?.enabled ?? row.enabled })) } },
      );
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
  });
  const [quiet, setQuiet] = useState<{ start: string; end: string } | null>(null);

  if (preferences.isPending) return <Loading />;
  if (preferences.isError) return <Failure error={preferences.error} retry={() => void preferences.refetch()} />;
  const { preferences: rows, quietHours } = preferences.data.data;
  const types = [...new Set(rows.map((row) => row.type))];
  const find = (type: string, channel: string) => rows.find((row) => row.type === type && row.channel === channel);
  const shownQuiet = quiet ?? { start: quietHours?.start ?? '22:00', end: quietHours?.end ?? '07:00' };
  const timeZone = quietHours?.timeZone ?? getSession()?.academy.timeZone ?? 'Europe/Madrid';

  return (
    <>
      <section aria-labelledby="notifications">
        <h2 id="notifications">{t('notifications.heading')}</h2>
        <p className="help">{t('notifications.help')}</p>
        <table className="sheet prefs">
          <thead>
            <tr>
              <th scope="col">{t('notifications.type')}</th>
              {CHANNELS.map((channel) => (
                <th scope="col" key={channel}>
                  {t(`notifications.channels.${channel}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type}>
                <th scope="row">{t(`notifications.types.${type}`, { defaultValue: type })}</th>
                {CHANNELS.map((channel) => {
                  const row = find(type, channel);
                  if (!row) return <td key={channel} />;
                  const name = `${t(`notifications.types.${type}`, { defaultValue: type })}: ${t(`notifications.channels.${channel}`)}`;
                  return (
                    <td key={channel}>
                      <label className="toggle">
                        <input
                          type="checkbox"
                          checked={row.enabled}
                          disabled={row.critical || save.isPending}
                          aria-describedby={row.critical ? 'critical-help' : undefined}
                          onChange={(event) => save.mutate({ preferences: [{ type: row.type, channel: row.channel, enabled: event.target.checked } satisfies Change] })}
                        />
                        <span className="visually-hidden">{name}</span>
                        {row.critical && <span className="locked">{t('notifications.locked')}</span>}
                      </label>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <p id="critical-help" className="help">
          {t('notifications.criticalHelp')}
        </p>
      </section>
      <section aria-labelledby="quiet">
        <h2 id="quiet">{t('notifications.quiet')}</h2>
        <p className="help">{quietHours ? t('notifications.quietOn', { start: quietHours.start, end: quietHours.end, zone: quietHours.timeZone }) : t('notifications.quietOff')}</p>
        <form
          className="inline"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ quietHours: { ...shownQuiet, timeZone } }, { onSuccess: () => setQuiet(null) });
          }}
        >
          <div>
            <label htmlFor="quiet-start">{t('notifications.from')}</label>
            <input id="quiet-start" type="time" required value={shownQuiet.start} onChange={(event) => setQuiet({ ...shownQuiet, start: event.target.value })} />
          </div>
          <div>
            <label htmlFor="quiet-end">{t('notifications.to')}</label>
            <input id="quiet-end" type="time" required value={shownQuiet.end} onChange={(event) => setQuiet({ ...shownQuiet, end: event.target.value })} />
          </div>
          <div className="actions">
            <button type="submit" disabled={save.isPending || shownQuiet.start === shownQuiet.end}>
              {t('notifications.quietSave')}
            </button>
            {quietHours && (
              <button type="button" className="outline" disabled={save.isPending} onClick={() => save.mutate({ quietHours: null }, { onSuccess: () => setQuiet(null) })}>
                {t('notifications.quietClear')}
              </button>
            )}
          </div>
        </form>
      </section>
      {save.isSuccess && <p role="status">{t('settings.saved')}</p>}
      {save.isError && (
        <p role="alert" className="failure">
          {errorText(save.error)}
        </p>
      )}
    </>
  );
}
