import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { currentTraceCarrier, type Clock } from '@academy/kit';
import { deliverableEmail, type EventData } from '@academy/contracts';
import type { EventHandler, EventHandlers } from '@academy/messaging';
import type { PushProvider } from '../shared/push-provider.ts';
import { sendPush } from '../shared/send-push.ts';
import { attendanceMissingPush, attendanceMissingTemplate, attendanceWarningTemplate } from './attendance-mail.ts';
import { languageOf, type Language } from '../shared/i18n.ts';
import type { GuardianLink } from './recipients.ts';
import type { RenderedMail } from './templates.ts';

export interface AttendanceNoticeDeps {
  orm: MikroORM;
  push: PushProvider;
  /** Wakes the mail worker after a mail was queued. */
  wake: () => void;
  /** The app's address; the reminder links to `<appUrl>/attendance`. */
  appUrl: string;
  /** The academy's language and time zone: the guardian's and admins' mails, and a teacher whose login chose none. */
  academy: Language;
  /** The service clock: a push during the teacher's quiet hours is held until they end. */
  clock: Clock;
  /** The guardian's unsubscribe link, in the footer of their warning. */
  unsubscribeLink?: GuardianLink;
}

interface QueuedMail {
  to: string;
  userId: number | null;
  role: string;
  template: string;
  mail: RenderedMail;
}

/**
 * `deliveries` rows written in the event's transaction (with its inbox row), unique per (event,
 * address, channel): a redelivered event writes nothing new, and the mail worker sends, retries and
 * parks them like the approval mails. Addresses are deduplicated (an admin who is also the guardian gets one).
 */
async function queueMails(em: EntityManager, event: { id: string; type: string }, mails: QueuedMail[]): Promise<void> {
  const unique = [...new Map(mails.map((mail) => [mail.to.toLowerCase(), mail])).values()];
  if (unique.length === 0) return;
  await em.getConnection().execute(
    `insert into deliveries (event_id, event_type, channel, recipient, user_id, template, subject, payload, status, attempts, next_attempt_at, created_at, updated_at)
     values ${unique.map(() => `(?, ?, 'email', ?, ?, ?, ?, ?, 'pending', 0, now(), now(), now())`).join(', ')}
     on conflict (event_id, recipient, channel) do nothing`,
    unique.flatMap((mail) => [
      event.id,
      event.type,
      mail.to.toLowerCase(),
      mail.userId,
      mail.template,
      mail.mail.subject,
      JSON.stringify({ to: mail.to, role: mail.role, subject: mail.mail.subject, html: mail.mail.html, text: mail.mail.text, unsubscribe: mail.mail.unsubscribe , trace: currentTraceCarrier() ?? undefined }),
    ]),
    'run',
    em.getTransactionContext(),
  );
}

/** `attendance.missing`: the teacher's reminder, by e-mail and on their devices, once per event. */
export function onAttendanceMissing(deps: AttendanceNoticeDeps): EventHandler<'attendance.missing'> {
  return async (em, event) => {
    const data: EventData<'attendance.missing'> = event.data;
    const lang = languageOf(data.teacher.locale, deps.academy);
    const to = deliverableEmail(data.teacher.email);
    if (to) {
      const mail = attendanceMissingTemplate(lang, data, `${deps.appUrl.replace(/\/+$/, '')}/attendance`);
      await queueMails(em, event, [{ to, userId: data.teacher.userId, role: 'teacher', template: 'attendanceMissingTemplate', mail }]);
      deps.wake();
    }
    if (data.teacher.userId) {
      // Keyed by the event: a redelivered or retried event pushes nothing twice.
      // On the handler's own transaction: a second connection per handler would let a burst of events
      // (the consumer's prefetch above the pool) take every connection and wait for one more, for ever.
      await sendPush(
        em,
        deps.push,
        {
          userIds: [data.teacher.userId],
          ...attendanceMissingPush(lang, data),
          data: { type: 'attendance_missing', day: data.day, missingCount: String(data.missingCount) },
          idempotencyKey: `attendance-missing:${event.id}`,
        },
        { eventType: event.type, now: deps.clock.now() },
      );
    }
  };
}

/** `attendance.threshold-crossed`: one e-mail to each administrator and to the guardian (the event is once per crossing). */
export function onAttendanceThresholdCrossed(deps: AttendanceNoticeDeps): EventHandler<'attendance.threshold-crossed'> {
  return async (em, event) => {
    const data: EventData<'attendance.threshold-crossed'> = event.data;
    const mails: QueuedMail[] = [];
    const guardianTo = deliverableEmail(data.guardian?.email);
    if (data.guardian && guardianTo) {
      mails.push({ to: guardianTo, userId: null, role: 'guardian', template: 'attendanceWarningGuardianTemplate', mail: attendanceWarningTemplate(deps.academy, data, { name: data.guardian.name, role: 'guardian', unsubscribe: deps.unsubscribeLink?.('attendance_warning', guardianTo) }) });
    }
    for (const admin of data.admins) {
      const to = deliverableEmail(admin.email);
      if (to) mails.push({ to, userId: null, role: 'admin', template: 'attendanceWarningAdminTemplate', mail: attendanceWarningTemplate(languageOf(admin.locale, deps.academy), data, { name: admin.name, role: 'admin' }) });
    }
    if (mails.length === 0) return;
    await queueMails(em, event, mails);
    deps.wake();
  };
}

/** Both handlers, for the e-mail queue's bindings. */
export const attendanceHandlers = (deps: AttendanceNoticeDeps): EventHandlers => ({
  'attendance.missing': onAttendanceMissing(deps),
  'attendance.threshold-crossed': onAttendanceThresholdCrossed(deps),
});
