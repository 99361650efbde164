import type { PrivacyProvider } from '@academy/privacy';
import { recordEvent } from '@academy/messaging';
import type { AcademicContext } from '../shared/academic-context.ts';
import { SOURCE } from '../shared/events.ts';
import {
  attendanceRecords,
  countStudentBlocks,
  eraseAttendanceRemarks,
  eraseEmployee,
  eraseGuardian,
  eraseLogins,
  eraseStudent,
  eraseThreadMessages,
  eraseUnapprovedBlocks,
  employeeRecords,
  guardianRecords,
  studentBlockRecords,
  studentRecords,
} from './academic-providers.store.ts';
import { withdrawStudentFromClasses } from './kept-records.store.ts';

const field = (personal: boolean, description: string) => ({ personal, description });
const LOGIN_FIELDS = { email: field(true, 'login e-mail'), role: field(false, 'admin or user'), locale: field(true, 'chosen language'), active: field(false, 'may log in') };

/** The day `years` after `now` (the academy's records are removed then). */
const yearsAfter = (now: Date, years: number) => new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);

/**
 * Academic's part (academic owns the people directory): the person's record and login, a student's
 * blocks, threads, marks and attendance. Erasure anonymizes the record, makes the login unusable and
 * ends its sessions; what the academy declares as academic records (marks, attendance) is kept,
 * restricted (the student anonymized and withdrawn, no guardian link: no lists by name, no mails),
 * until `ACADEMIC_RECORDS_RETENTION_YEARS` after the erasure.
 */
export function academicPrivacyProviders(ctx: AcademicContext): PrivacyProvider[] {
  const kept = (what: string, now: Date) => ({ what, legalBasis: ctx.config.ACADEMIC_RECORDS_LEGAL_BASIS, until: yearsAfter(now, ctx.config.ACADEMIC_RECORDS_RETENTION_YEARS) });
  const endSessions = async (em: Parameters<PrivacyProvider['erase']>[0]['em'], userIds: number[]) => {
    for (const userId of userIds) await ctx.sessions.endUserSessions(em, userId);
  };

  const employees: PrivacyProvider = {
    feature: 'employees',
    subjects: ['employee'],
    declares: [
      {
        record: 'employees',
        purpose: 'The employee record of a teacher or member of staff.',
        category: 'employment',
        fields: { name: field(true, 'first name'), lastname: field(true, 'last name'), email: field(true, 'e-mail'), taxId: field(true, 'DNI or NIE'), payrollCode: field(true, 'payroll code'), kind: field(false, 'teacher or staff') },
      },
      { record: 'users', purpose: 'Their login.', category: 'credentials', fields: LOGIN_FIELDS },
      { record: 'employee_subjects, calendar_events', purpose: 'The subjects and classes they teach.', category: 'employment', fields: { subjectId: field(false, 'subject'), startsAt: field(false, 'class start') } },
    ],
    async export({ em, subject }) {
      return employeeRecords(em, subject.id).then((data) => (data ? { data } : null));
    },
    async erase({ em, subject, now }) {
      const userIds = await eraseLogins(em, 'employee_id', subject.id, now);
      await endSessions(em, userIds);
      const records = await eraseEmployee(em, subject.id, now);
      // The replicas of hours-bank, incidents and payslips erase their own copy; this keeps a missed one inactive.
      if (records > 0) recordEvent(em, 'employee.deleted', { id: subject.id }, { source: SOURCE });
      return { erased: [{ what: 'employee record (anonymized)', count: records }, { what: 'login (disabled, sessions ended)', count: userIds.length }], kept: [] };
    },
  };

  const students: PrivacyProvider = {
    feature: 'students',
    subjects: ['student'],
    declares: [
      {
        record: 'students',
        purpose: 'The student record.',
        category: 'identity',
        fields: { name: field(true, 'first name'), lastname: field(true, 'last name'), email: field(true, 'e-mail'), status: field(false, 'active, inactive or withdrawn'), guardianId: field(false, 'their guardian') },
      },
      { record: 'users', purpose: 'Their login.', category: 'credentials', fields: LOGIN_FIELDS },
      { record: 'registrations', purpose: 'What they are enrolled in.', category: 'academic', fields: { subjectId: field(false, 'subject'), status: field(false, 'registration status') } },
    ],
    async export({ em, subject }) {
      return studentRecords(em, subject.id).then((data) => (data ? { data } : null));
    },
    async erase({ em, subject, now }) {
      const userIds = await eraseLogins(em, 'student_id', subject.id, now);
      await endSessions(em, userIds);
      const records = await eraseStudent(em, subject.id, now);
      const withdrawn = await withdrawStudentFromClasses(em, subject.id, now);
      return {
        erased: [
          { what: 'student record (anonymized, withdrawn, guardian unlinked)', count: records },
          { what: 'login (disabled, sessions ended)', count: userIds.length },
          ...(withdrawn.classes ? [{ what: 'places in classes not yet given', count: withdrawn.classes }] : []),
          ...(withdrawn.registrations ? [{ what: 'registrations (cancelled)', count: withdrawn.registrations }] : []),
        ],
        kept: [],
      };
    },
  };

  const blocks: PrivacyProvider = {
    feature: 'blocks',
    subjects: ['student'],
    declares: [
      { record: 'student_blocks', purpose: "The student's progress through each subject's blocks and their marks.", category: 'academic', retention: 'academic records', fields: { grade: field(true, 'mark'), status: field(false, 'block status') } },
      { record: 'student_block_messages', purpose: "Teachers' and admins' messages about the student's work.", category: 'communications', fields: { body: field(true, 'message text') } },
    ],
    async export({ em, subject }) {
      return studentBlockRecords(em, subject.id).then((data) => (data ? { data } : null));
    },
    async erase({ em, subject, now }) {
      const messages = await eraseThreadMessages(em, subject.id);
      const unapproved = await eraseUnapprovedBlocks(em, subject.id);
      const marks = await countStudentBlocks(em, subject.id);
      return {
        erased: [{ what: 'block thread messages', count: messages }, ...(unapproved ? [{ what: 'blocks not completed (no approved mark)', count: unapproved }] : [])],
        kept: marks > 0 ? [kept(`blocks and marks (${marks})`, now)] : [],
      };
    },
  };

  const attendance: PrivacyProvider = {
    feature: 'attendance',
    subjects: ['student'],
    declares: [
      {
        record: 'attendance_marks, attendance_mark_changes',
        purpose: "The student's attendance at each class.",
        category: 'attendance',
        retention: 'academic records',
        fields: { status: field(true, 'present, late, excused or absent'), minutesLate: field(true, 'minutes late'), remark: field(true, "the teacher's remark") },
      },
    ],
    async export({ em, subject }) {
      return attendanceRecords(em, subject.id).then((data) => (data ? { data } : null));
    },
    async erase({ em, subject, now }) {
      const { remarks, marks } = await eraseAttendanceRemarks(em, subject.id);
      return { erased: [{ what: 'attendance remarks', count: remarks }], kept: marks > 0 ? [kept(`attendance marks (${marks})`, now)] : [] };
    },
  };

  const guardians: PrivacyProvider = {
    feature: 'guardians',
    subjects: ['guardian'],
    declares: [
      {
        record: 'guardians',
        purpose: 'The guardian of one or more students, who is written to on their behalf.',
        category: 'contact',
        fields: { name: field(true, 'first name'), lastname: field(true, 'last name'), email: field(true, 'e-mail'), phone: field(true, 'phone number') },
      },
    ],
    async export({ em, subject }) {
      return guardianRecords(em, subject.id).then((data) => (data ? { data } : null));
    },
    async erase({ em, subject, now }) {
      const { guardian, links } = await eraseGuardian(em, subject.id, now);
      return { erased: [{ what: 'guardian record (anonymized)', count: guardian }, { what: 'links to students', count: links }], kept: [] };
    },
  };

  return [employees, students, blocks, attendance, guardians];
}
