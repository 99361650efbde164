// The attendance e-mails: the teacher's daily reminder of classes with no attendance taken, and the
// warning to the administration and the guardian when a student falls below the threshold.
import type { EventData } from '@academy/contracts';
import { calendarDate, percent, phrase, say, type Language } from '../shared/i18n.ts';
import { render, type Part, type RenderedMail } from './templates.ts';

/**
 * "Thu, 30 April 2026, 09:00–10:00" from the academy's wall times (`2026-04-30T09:00:00+02:00`): the
 * date and the hours are read as written, so the server's own zone plays no part.
 */
export function classTime(lang: Language, startsAt: string, endsAt: string): string {
  const day = calendarDate(lang, startsAt, true);
  const sameDay = startsAt.slice(0, 10) === endsAt.slice(0, 10);
  return `${day}, ${startsAt.slice(11, 16)}–${sameDay ? '' : `${calendarDate(lang, endsAt, true)}, `}${endsAt.slice(11, 16)}`;
}

export function attendanceMissingTemplate(lang: Language, data: EventData<'attendance.missing'>, link: string): RenderedMail {
  const more = data.missingCount - data.classes.length;
  const lines: Part[][] = data.classes.map((c) => phrase(lang, 'attendanceMissing.line', { subject: c.subjectName, center: c.centerName, time: classTime(lang, c.startsAt, c.endsAt) }));
  return render(lang, say(lang, 'attendanceMissing.subject', { count: data.missingCount }), data.teacher.name, [
    phrase(lang, 'attendanceMissing.intro', {}, data.missingCount),
    ...lines,
    ...(more > 0 ? [phrase(lang, 'attendanceMissing.more', {}, more)] : []),
    phrase(lang, 'attendanceMissing.link', { link: { link } }),
  ]);
}

/** The push of the reminder: short, the count and the oldest class. */
export function attendanceMissingPush(lang: Language, data: EventData<'attendance.missing'>): { title: string; body: string } {
  const oldest = data.classes[0]!;
  const values = { subject: oldest.subjectName, time: classTime(lang, oldest.startsAt, oldest.endsAt), count: data.missingCount };
  return { title: say(lang, 'attendanceMissing.title'), body: say(lang, data.missingCount === 1 ? 'attendanceMissing.pushOne' : 'attendanceMissing.pushMany', values) };
}

/** To an administrator or the guardian: the student's attendance in the subject is under the threshold. */
export function attendanceWarningTemplate(lang: Language, data: EventData<'attendance.threshold-crossed'>, recipient: { name: string; role: 'admin' | 'guardian'; unsubscribe?: string }): RenderedMail {
  const values = { student: data.studentName, subject: data.subjectName, percentage: percent(lang, data.percentage), threshold: percent(lang, data.thresholdPercent), sessions: data.sessions };
  const guardian = recipient.role === 'guardian';
  return render(lang, say(lang, 'attendanceWarning.subject', { student: data.studentName, subject: data.subjectName, threshold: percent(lang, data.thresholdPercent) }), recipient.name, [
    phrase(lang, guardian ? 'attendanceWarning.guardian' : 'attendanceWarning.admin', values),
    phrase(lang, guardian ? 'attendanceWarning.guardianClosing' : 'attendanceWarning.adminClosing'),
  ], { unsubscribe: recipient.unsubscribe });
}
