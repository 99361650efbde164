import { describe, expect, test } from '@jest/globals';
import { calendarDate } from '../../src/shared/i18n.ts';
import { formatPeriod, payslipPush, payslipTemplate } from '../../src/email/payslip-mail.ts';

const EN = { locale: 'en' as const, timeZone: 'Europe/Madrid' };
const ES = { locale: 'es' as const, timeZone: 'Europe/Madrid' };

const facts = { employeeName: 'Ana', label: 'Nómina', periodStart: '2026-02-01', periodEnd: '2026-02-28', issuedOn: '2026-02-27', correction: false, link: 'https://app.test/payslips' };

describe('payslip mail', () => {
  test('dates are calendar dates, written in full whatever the server time zone', () => {
    expect(calendarDate(EN, '2026-01-01')).toBe('1 January 2026');
    expect(calendarDate(EN, '2028-02-29')).toBe('29 February 2028');
    expect(formatPeriod(EN, '2026-02-01', '2026-02-28')).toBe('1 February 2026 to 28 February 2026');
    expect(formatPeriod(EN, '2026-12-01', '2026-12-01')).toBe('1 December 2026');
  });

  test('a label from the event is escaped in the HTML, kept verbatim in the text, and on one line in no header', () => {
    const mail = payslipTemplate(EN, { ...facts, label: '<img src=x onerror=alert(1)> & "extra"\nline' });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;extra&quot; line');
    expect(mail.text).toContain('<img src=x onerror=alert(1)> & "extra" line');
    expect(mail.subject).toBe('A new payslip is available');
  });

  test('a link with quotes cannot break out of its attribute', () => {
    const mail = payslipTemplate(EN, { ...facts, link: 'https://app.test/"><script>x</script>' });
    expect(mail.html).not.toContain('<script>');
  });

  test('a correction has its own subject and says it replaces the earlier payslip', () => {
    const mail = payslipTemplate(EN, { ...facts, correction: true });
    expect(mail.subject).toBe('A corrected payslip is available');
    expect(mail.text).toContain('It replaces the earlier one, which is no longer shown.');
  });

  test('in Spanish: subject, dates and period written for a Spanish reader', () => {
    expect(formatPeriod(ES, '2026-02-01', '2026-02-28')).toBe('del 1 de febrero de 2026 al 28 de febrero de 2026');
    const mail = payslipTemplate(ES, facts);
    expect(mail.subject).toBe('Tienes una nueva nómina');
    expect(mail.text).toContain('Emitida el 27 de febrero de 2026.');
    expect(payslipPush(ES, { ...facts, correction: true })).toEqual({ title: 'Tienes una nómina corregida', body: 'Nómina, del 1 de febrero de 2026 al 28 de febrero de 2026' });
  });
});
