import { deliverableEmail, type EventData, type NotificationType } from '@academy/contracts';
import { languageOf, type Language } from '../shared/i18n.ts';
import { blockApprovedEmployeeTemplate, blockApprovedStudentTemplate, type BlockApprovedFacts, type RenderedMail } from './templates.ts';

/** The unsubscribe link of a guardian's mail about `type` (guardians have no login, so no preferences: the link is theirs). */
export type GuardianLink = (type: NotificationType, address: string) => string;

export interface ApprovalMail extends RenderedMail {
  to: string;
  role: 'teacher' | 'student' | 'guardian';
  /** The recipient's login, when the event names one: their preferences apply to this mail. */
  userId: number | null;
  template: 'blockApprovedEmployeeTemplate' | 'blockApprovedStudentTemplate';
}

/**
 * Who hears of an approval (spec, Events 1): the teacher; the guardian when there is one; the
 * student when their address is real (not missing, not a placeholder); both when both. An address
 * that two roles share gets one mail (the first role's). Each is written in its reader's language: the
 * teacher's and the student's own when their login chose one, the academy's for the guardian.
 */
export function approvalMails(data: EventData<'block.approved'>, academy: Language, unsubscribeLink?: GuardianLink): ApprovalMail[] {
  const facts: BlockApprovedFacts = {
    studentName: data.student.name,
    blockName: data.blockName,
    subjectName: data.subjectName,
    grade: data.grade,
    nextBlockName: data.nextBlock?.blockName ?? null,
    subjectCompleted: data.subjectCompleted,
  };
  const mails: ApprovalMail[] = [];
  const teacherEmail = deliverableEmail(data.teacher?.email);
  if (data.teacher && teacherEmail) {
    mails.push({ to: teacherEmail, role: 'teacher', userId: data.teacher.userId ?? null, template: 'blockApprovedEmployeeTemplate', ...blockApprovedEmployeeTemplate(languageOf(data.teacher.locale, academy), { ...facts, teacherName: data.teacher.name }) });
  }
  const guardianEmail = deliverableEmail(data.guardian?.email);
  if (data.guardian && guardianEmail) {
    mails.push({ to: guardianEmail, role: 'guardian', userId: null, template: 'blockApprovedStudentTemplate', ...blockApprovedStudentTemplate(academy, { ...facts, audience: 'guardian', recipientName: data.guardian.name, unsubscribe: unsubscribeLink?.('block_approved', guardianEmail) }) });
  }
  const studentEmail = deliverableEmail(data.student.email);
  if (studentEmail) {
    mails.push({ to: studentEmail, role: 'student', userId: data.student.userId ?? null, template: 'blockApprovedStudentTemplate', ...blockApprovedStudentTemplate(languageOf(data.student.locale, academy), { ...facts, audience: 'student', recipientName: data.student.name }) });
  }
  const seen = new Set<string>();
  return mails.filter((mail) => {
    const key = mail.to.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
