// The payslip e-mail: that a payslip (or a correction) is there, its label and period, and where to
// read it. Never an amount and never the file: the app shows it to its employee after login.
import { calendarDate, phrase, say, type Language } from '../shared/i18n.ts';
import { render, type RenderedMail } from './templates.ts';

export interface PayslipFacts {
  employeeName: string;
  label: string;
  periodStart: string;
  periodEnd: string;
  issuedOn: string;
  /** A correction replaces an earlier payslip of the same employee. */
  correction: boolean;
  /** Where the employee reads their payslips. */
  link: string;
}

/** "1 November 2026 to 30 November 2026" / "del 1 de noviembre de 2026 al 30 de noviembre de 2026", or one date when the period is one day. */
export const formatPeriod = (lang: Language, start: string, end: string): string =>
  start === end ? calendarDate(lang, start) : say(lang, 'common.periodRange', { start: calendarDate(lang, start), end: calendarDate(lang, end) });

export const payslipSubject = (lang: Language, correction: boolean): string => say(lang, correction ? 'payslip.subjectCorrected' : 'payslip.subjectPublished');

export function payslipTemplate(lang: Language, facts: PayslipFacts): RenderedMail {
  const period = formatPeriod(lang, facts.periodStart, facts.periodEnd);
  return render(lang, payslipSubject(lang, facts.correction), facts.employeeName, [
    phrase(lang, facts.correction ? 'payslip.corrected' : 'payslip.published', { label: facts.label, period }),
    phrase(lang, 'payslip.issued', { date: calendarDate(lang, facts.issuedOn) }),
    phrase(lang, 'payslip.link', { link: { link: facts.link } }),
  ]);
}

/** The push of the same notice. */
export const payslipPush = (lang: Language, facts: Pick<PayslipFacts, 'label' | 'periodStart' | 'periodEnd' | 'correction'>): { title: string; body: string } => ({
  title: payslipSubject(lang, facts.correction),
  body: say(lang, 'payslip.pushBody', { label: facts.label, period: formatPeriod(lang, facts.periodStart, facts.periodEnd) }),
});
