// Warnings: a student whose weighted attendance in a subject drops below the threshold (after the
// minimum number of counted sessions) gets one `attendance.threshold-crossed`, and no other until it
// has risen to the threshold or above and dropped again. The state per (student, subject) is a row
// of attendance_standings; callers hold the subject's attendance lock, so two saves cannot both see
// the same crossing. Only the warnings are recorded here: a save records its own event.
import type { EntityManager } from '@mikro-orm/postgresql';
import { deliverableEmail, type EventData } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { z } from 'zod';
import { SOURCE } from '../shared/events.ts';
import { selectActiveAdmins, selectWarnedStudents, writeStandings } from './attendance.store.ts';

export interface WarningSettings {
  timeZone: string;
  thresholdPercent: number;
  minSessions: number;
}

const anEmail = z.email();
export const validEmail = (address: string | null | undefined): string | null => {
  const candidate = deliverableEmail(address?.trim());
  return candidate && anEmail.safeParse(candidate).success ? candidate : null;
};

/** Updates the standings of the students after a change of their marks and records a warning for each new crossing. Answers how many. */
export async function recordThresholdWarnings(
  tx: EntityManager,
  change: { subjectId: number; eventId: number; studentIds: number[]; at: Date; correlationId: string },
  settings: WarningSettings,
): Promise<number> {
  if (change.studentIds.length === 0) return 0;
  const standings = await writeStandings(tx, change, settings);
  const crossed = standings.filter((row) => row.below && !row.wasBelow);
  if (crossed.length === 0) return 0;

  const people = await selectWarnedStudents(tx, change.subjectId, crossed.map((row) => row.studentId));
  const admins = (await selectActiveAdmins(tx)).flatMap((admin) => {
    const email = validEmail(admin.email);
    return email ? [{ name: admin.name, email, locale: admin.locale }] : [];
  });
  const byStudent = new Map(people.map((person) => [person.studentId, person]));
  for (const row of crossed) {
    const person = byStudent.get(row.studentId);
    if (!person) continue;
    const guardianEmail = validEmail(person.guardianEmail);
    const data: EventData<'attendance.threshold-crossed'> = {
      studentId: row.studentId,
      studentName: person.studentName,
      subjectId: change.subjectId,
      subjectName: person.subjectName,
      percentage: row.percentage,
      thresholdPercent: settings.thresholdPercent,
      sessions: row.counted,
      eventId: change.eventId,
      crossedAt: change.at.toISOString(),
      guardian: person.guardianName !== null && guardianEmail ? { name: person.guardianName, email: guardianEmail } : null,
      admins,
    };
    recordEvent(tx, 'attendance.threshold-crossed', data, { source: SOURCE, correlationId: change.correlationId });
  }
  return crossed.length;
}
