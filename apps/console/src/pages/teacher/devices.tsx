import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { formatDateTime } from '../../format';
import { errorText } from '../../i18n';
import { Failure, Loading } from '../../ui';
import '../../i18n/teacher';
import './teacher.css';

/** Settings' devices: the phones that get the caller's push notices (the app registers them), each removable. */
export function DeviceSettings() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const devices = useQuery({ queryKey: ['devices'], queryFn: async () => data(await api.GET('/api/v2/notifications/token')).data });
  const remove = useMutation({
    mutationFn: async (deviceId: string) => data(await api.DELETE('/api/v2/notifications/token/{deviceId}', { params: { path: { deviceId } } })),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['devices'] }),
  });
  return (
    <section aria-labelledby="devices">
      <h2 id="devices">{t('devices.heading')}</h2>
      <p className="help">{t('devices.help')}</p>
      {devices.isPending ? (
        <Loading />
      ) : devices.isError ? (
        <Failure error={devices.error} retry={() => void devices.refetch()} />
      ) : devices.data.length === 0 ? (
        <p>{t('devices.none')}</p>
      ) : (
        <ul className="cards">
          {devices.data.map((device) => (
            <li key={device.deviceId} className="block-row">
              <div className="what">
                <strong className="plain">{device.deviceId}</strong> · {t(`devices.platforms.${device.platform}`)}
                <p className="help">{t('devices.seen', { when: formatDateTime(device.lastSeenAt), since: formatDateTime(device.createdAt) })}</p>
              </div>
              <button type="button" className="outline" disabled={remove.isPending} aria-label={t('devices.removeOf', { device: device.deviceId })} onClick={() => remove.mutate(device.deviceId)}>
                {t('devices.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {remove.isSuccess && <p role="status">{t('devices.removed')}</p>}
      {remove.isError && (
        <p role="alert" className="failure">
          {errorText(remove.error)}
        </p>
      )}
    </section>
  );
}
