import { deliverableEmail, type EventData } from '@academy/contracts';
import type { EventHandler, EventHandlers } from '@academy/messaging';
import type { SendPush } from '../shared/push-message.ts';
import { queueMails, type QueuedMail } from './email.store.ts';
import { attendanceMissingPush, attendanceMissingTemplate, attendanceWarningTemplate } from './attendance-mail.ts';
import { languageOf, type Language } from '../shared/i18n.ts';
import type { GuardianLink } from './recipients.ts';

export interface AttendanceNoticeDeps {
  /** The one way a push goes out (bound to the context by subscriptions.ts; on the handler's transaction; quiet hours at the service's clock). */
  sendPush: SendPush;
  /** Wakes the mail worker after a mail was queued. */
  wake: () => void;
  /** The app's address; the reminder links to `<appUrl>/attendance`. */
  appUrl: string;
  /** The academy's language and time zone: the guardian's and admins' mails, and a teacher whose login chose none. */
  academy: Language;
  /** The guardian's unsubscribe link, in the footer of their warning. */
  unsubscribeLink?: GuardianLink;
}

/** `attendance.missing`: the teacher's reminder, by e-mail and on their devices, once per event. */
export function onAttendanceMissing(deps: AttendanceNoticeDeps): EventHandler<'attendance.missing'> {
  return async (em, event) => {
    const data: EventData<'attendance.missing'> = event.data;
    const lang = languageOf(data.teacher.locale, deps.academy);
    const to = deliverableEmail(data.teacher.email);
    if (to) {
      const mail = attendanceMissingTemplate(lang, data, `${deps.appUrl.replace(/\/+$/, '')}/attendance`);
      await queueMails(em, event, [{ to, userId: data.teacher.userId, role: 'teacher', template: 'attendanceMissingTemplate', ...mail }]);
      deps.wake();
    }
    if (data.teacher.userId) {
      // Keyed by the event: a redelivered or retried event pushes nothing twice.
      // On the handler's own transaction: a second connection per handler would let a burst of events
      // (the consumer's prefetch above the pool) take every connection and wait for one more, for ever.
      await deps.sendPush({
        message: {
          userIds: [data.teacher.userId],
          ...attendanceMissingPush(lang, data),
          data: { type: 'attendance_missing', day: data.day, missingCount: String(data.missingCount) },
          idempotencyKey: `attendance-missing:${event.id}`,
        },
        eventType: event.type,
      });
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
      mails.push({ to: guardianTo, userId: null, role: 'guardian', template: 'attendanceWarningGuardianTemplate', ...attendanceWarningTemplate(deps.academy, data, { name: data.guardian.name, role: 'guardian', unsubscribe: deps.unsubscribeLink?.('attendance_warning', guardianTo) }) });
    }
    for (const admin of data.admins) {
      const to = deliverableEmail(admin.email);
      if (to) mails.push({ to, userId: null, role: 'admin', template: 'attendanceWarningAdminTemplate', ...attendanceWarningTemplate(languageOf(admin.locale, deps.academy), data, { name: admin.name, role: 'admin' }) });
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
