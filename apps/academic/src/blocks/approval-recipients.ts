import { z } from 'zod';
import { deliverableEmail, type EventData, type Locale } from '@academy/contracts';

export interface PersonRecord {
  name: string | null;
  email: string | null;
  /** Their login, when they have one: notifications applies its preferences to their mails. */
  userId?: number | null;
  /** The language their login chose, when it chose one. */
  locale?: Locale | null;
}

const withLogin = (person: PersonRecord) => ({ ...(person.userId ? { userId: person.userId } : {}), ...(person.locale ? { locale: person.locale } : {}) });

const anEmail = z.email();

/** The address to write to: present, not a reserved placeholder, and a valid e-mail; null otherwise. */
export function validEmail(address: string | null | undefined): string | null {
  const candidate = deliverableEmail(address?.trim());
  return candidate && anEmail.safeParse(candidate).success ? candidate : null;
}

/**
 * The people `block.approved` names, from what the database holds: the teacher when they have a
 * valid address; the student always (their e-mail only when valid); the guardian when the
 * student has one with a valid address.
 */
export function approvalRecipients(people: { teacher: PersonRecord | null; student: PersonRecord; guardian: PersonRecord | null }): Pick<
  EventData<'block.approved'>,
  'teacher' | 'student' | 'guardian'
> {
  const teacherEmail = validEmail(people.teacher?.email);
  const guardianEmail = validEmail(people.guardian?.email);
  return {
    teacher: people.teacher && teacherEmail ? { name: people.teacher.name ?? '', email: teacherEmail, ...withLogin(people.teacher) } : null,
    student: { name: people.student.name ?? '', email: validEmail(people.student.email), ...withLogin(people.student) },
    guardian: people.guardian && guardianEmail ? { name: people.guardian.name ?? '', email: guardianEmail } : null,
  };
}
