// The payslip e-mail: that a payslip (or a correction) is there, its label and period, and where to
// read it. Never an amount and never the file: the app shows it to its employee after login.
import { render, v, type RenderedMail } from './templates.ts';

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

export const PAYSLIP_SUBJECTS = { published: 'A new payslip is available', corrected: 'A corrected payslip is available' } as const;

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/** "2026-11-05" → "5 November 2026" (a calendar date, so read in UTC whatever the server's zone). */
export const formatDate = (isoDate: string): string => longDate.format(new Date(`${isoDate}T00:00:00Z`));
/** "1 November 2026 to 30 November 2026", or one date when the period is one day. */
export const formatPeriod = (start: string, end: string): string => (start === end ? formatDate(start) : `${formatDate(start)} to ${formatDate(end)}`);

export function payslipTemplate(facts: PayslipFacts): RenderedMail {
  const period = formatPeriod(facts.periodStart, facts.periodEnd);
  return render(
    facts.correction ? PAYSLIP_SUBJECTS.corrected : PAYSLIP_SUBJECTS.published,
    ['Hello ', v(facts.employeeName), ','],
    [
      facts.correction
        ? ['A corrected payslip is available: ', v(facts.label), ', for ', v(period), '. It replaces the earlier one, which is no longer shown.']
        : ['A new payslip is available: ', v(facts.label), ', for ', v(period), '.'],
      ['Issued on ', v(formatDate(facts.issuedOn)), '.'],
      ['Read and download it in the app: ', { link: facts.link }],
    ],
  );
}
