// The attendance e-mails: the teacher's daily reminder of classes with no attendance taken, and the
// warning to the administration and the guardian when a student falls below the threshold.
import type { EventData } from '@academy/contracts';
import { render, v, type Part, type RenderedMail } from './templates.ts';

export const ATTENDANCE_MISSING_SUBJECT = 'Attendance to take';

const longDate = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
/**
 * "Thu, 30 April 2026, 09:00–10:00" from the academy's wall times (`2026-04-30T09:00:00+02:00`): the
 * date and the hours are read as written, so the server's own zone plays no part.
 */
export function classTime(startsAt: string, endsAt: string): string {
  const day = longDate.format(new Date(`${startsAt.slice(0, 10)}T00:00:00Z`));
  const sameDay = startsAt.slice(0, 10) === endsAt.slice(0, 10);
  return `${day}, ${startsAt.slice(11, 16)}–${sameDay ? '' : `${longDate.format(new Date(`${endsAt.slice(0, 10)}T00:00:00Z`))}, `}${endsAt.slice(11, 16)}`;
}

export function attendanceMissingTemplate(data: EventData<'attendance.missing'>, link: string): RenderedMail {
  const more = data.missingCount - data.classes.length;
  const lines: Part[][] = data.classes.map((c) => ['· ', v(c.subjectName), ' at ', v(c.centerName), ': ', v(classTime(c.startsAt, c.endsAt))]);
  return render(
    data.missingCount === 1 ? `${ATTENDANCE_MISSING_SUBJECT}: 1 class` : `${ATTENDANCE_MISSING_SUBJECT}: ${data.missingCount} classes`,
    ['Hello ', v(data.teacher.name), ','],
    [
      [data.missingCount === 1 ? 'One of your classes has no attendance taken yet:' : `${data.missingCount} of your classes have no attendance taken yet:`],
      ...lines,
      ...(more > 0 ? [[`…and ${more} more.`] as Part[]] : []),
      ['Take it in the app: ', { link }],
    ],
  );
}

/** The push of the reminder: short, the count and the oldest class. */
export function attendanceMissingPush(data: EventData<'attendance.missing'>): { title: string; body: string } {
  const oldest = data.classes[0]!;
  return {
    title: ATTENDANCE_MISSING_SUBJECT,
    body: data.missingCount === 1 ? `${oldest.subjectName}, ${classTime(oldest.startsAt, oldest.endsAt)}` : `${data.missingCount} classes, the oldest ${oldest.subjectName}, ${classTime(oldest.startsAt, oldest.endsAt)}`,
  };
}

const percent = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(2).replace(/0$/, '')}%`;

/** To an administrator or the guardian: the student's attendance in the subject is under the threshold. */
export function attendanceWarningTemplate(data: EventData<'attendance.threshold-crossed'>, recipient: { name: string; role: 'admin' | 'guardian' }): RenderedMail {
  const whose = recipient.role === 'guardian' ? [v(data.studentName), "'s attendance in ", v(data.subjectName)] : ['The attendance of ', v(data.studentName), ' in ', v(data.subjectName)];
  return render(
    `Attendance below ${percent(data.thresholdPercent)}: ${data.studentName} (${data.subjectName})`,
    ['Hello ', v(recipient.name), ','],
    [
      [...whose, ' has fallen to ', v(percent(data.percentage)), ', below the ', v(percent(data.thresholdPercent)), ' the academy asks for, over ', v(data.sessions), ' sessions.'],
      recipient.role === 'guardian' ? ['Please get in touch with the academy if there is anything we should know.'] : ['The guardian has been told as well, when the student has one with an address.'],
    ],
  );
}
