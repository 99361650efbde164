import { deliverableEmail, type EventData } from '@academy/contracts';
import type { EventHandler, EventHandlers } from '@academy/messaging';
import type { SendPush } from '../shared/push-message.ts';
import { languageOf, type Language } from '../shared/i18n.ts';
import { queueMails } from './email.store.ts';
import { payslipPush, payslipTemplate } from './payslip-mail.ts';

export interface PayslipNoticeDeps {
  /** The one way a push goes out (bound to the context by subscriptions.ts; on the handler's transaction). */
  sendPush: SendPush;
  /** Wakes the mail worker after a mail was queued. */
  wake: () => void;
  /** The app's address; the mail links to `<appUrl>/payslips`. */
  appUrl: string;
  /** The academy's language and time zone, for an employee whose login chose no language. */
  academy: Language;
}

type PayslipEventType = 'payslip.published' | 'payslip.corrected';

/**
 * `payslip.published` / `payslip.corrected`: the employee hears of it once, by e-mail and on their
 * devices. The mail is a `deliveries` row written in the event's transaction (with its inbox row),
 * unique per (event, address, channel), sent, retried and parked by the mail worker like the
 * approval mails. The push goes through `sendPush` keyed by the event id, in the event's transaction
 * (its records commit with the inbox row), so a redelivered event pushes nothing twice. No amount, no file, no tax id: the event has none.
 */
function onPayslip(type: PayslipEventType, deps: PayslipNoticeDeps): EventHandler<PayslipEventType> {
  const correction = type === 'payslip.corrected';
  return async (em, event) => {
    const data: EventData<PayslipEventType> = event.data;
    const lang = languageOf(data.employee.locale, deps.academy);
    const to = deliverableEmail(data.employee.email);
    if (to) {
      const mail = payslipTemplate(lang, {
        employeeName: data.employee.name,
        label: data.label,
        periodStart: data.periodStart,
        periodEnd: data.periodEnd,
        issuedOn: data.issuedOn,
        correction,
        link: `${deps.appUrl.replace(/\/+$/, '')}/payslips`,
      });
      await queueMails(em, event, [{ to, userId: data.employee.userId, role: 'employee', template: correction ? 'payslipCorrectedTemplate' : 'payslipPublishedTemplate', ...mail }]);
      deps.wake();
    }
    if (data.employee.userId) {
      // On the handler's own transaction: a second connection per handler would let a burst of events
      // (the consumer's prefetch above the pool) take every connection and wait for one more, for ever.
      await deps.sendPush({
        message: {
          userIds: [data.employee.userId],
          ...payslipPush(lang, { label: data.label, periodStart: data.periodStart, periodEnd: data.periodEnd, correction }),
          data: { type: correction ? 'payslip_corrected' : 'payslip_published', payslipId: String(data.payslipId) },
          idempotencyKey: `payslip:${event.id}`,
        },
        eventType: event.type,
      });
    }
  };
}

export const onPayslipPublished = (deps: PayslipNoticeDeps) => onPayslip('payslip.published', deps);
export const onPayslipCorrected = (deps: PayslipNoticeDeps) => onPayslip('payslip.corrected', deps);

/** Both handlers, for the e-mail queue's bindings. */
export const payslipHandlers = (deps: PayslipNoticeDeps): EventHandlers => ({
  'payslip.published': onPayslipPublished(deps),
  'payslip.corrected': onPayslipCorrected(deps),
});
