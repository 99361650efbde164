import { useEffect, useState } from 'react';
import type { Socket } from 'socket.io-client';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { getSession } from './api/session';
import { isAdmin } from './admin';

interface Notice {
  eventId: string;
  text: string;
  href: string;
}

/** What the notification says happened: an incident's change, its kind when it tells it. */
interface IncidentNotification {
  eventId: string;
  incidentId: number;
  employeeId: number;
  change: string;
  kind?: string;
}

/**
 * Where a notice leads: the user's own incident to their incident screen, anyone else's (only
 * administrators are told of those) to the administrators' incident screen; a deleted one to the list.
 */
function linkOf(event: IncidentNotification): string {
  const session = getSession();
  const own = session?.user.employeeId === event.employeeId;
  const base = !own && isAdmin(session) ? '/admin/incidents' : '/incidents';
  return event.change === 'deleted' ? base : `${base}/${event.incidentId}`;
}

/**
 * Incident notifications over the gateway's Socket.IO (the token in the handshake's auth), shown as
 * a notice with a link, announced to screen readers. Today's and My incidents' lists refresh.
 */
export function IncidentNotices({ token }: { token: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => {
    // socket.io-client loads after the first paint: it is not needed to show the page.
    let socket: Socket | null = null;
    let closed = false;
    void import('socket.io-client').then(({ io }) => {
      if (closed) return;
      socket = io({ path: '/socket.io', auth: { token }, transports: ['websocket'] });
      socket.on('incident_notification', (event: IncidentNotification) => {
        const text = event.kind ? t(`incidents.kinds.${event.kind}`, { defaultValue: event.kind }) : t('notice.changed');
        setNotices((list) => (list.some((n) => n.eventId === event.eventId) ? list : [...list, { eventId: event.eventId, text, href: linkOf(event) }]));
        void queryClient.invalidateQueries({ queryKey: ['incidents'] });
      });
    });
    return () => {
      closed = true;
      socket?.close();
    };
  }, [token, queryClient, t]);
  return (
    <div aria-live="polite" className="notices">
      {notices.map((notice) => (
        <div key={notice.eventId} className="notice" role="status">
          <span>{t('notice.incident', { text: notice.text })}</span> <Link to={notice.href}>{t('notice.open')}</Link>{' '}
          <button type="button" className="link" aria-label={t('notice.dismiss')} onClick={() => setNotices((list) => list.filter((n) => n !== notice))}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
