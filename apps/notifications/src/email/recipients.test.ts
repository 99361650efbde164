import { describe, expect, test } from '@jest/globals';
import type { EventData } from '@academy/contracts';
import { approvalMails } from './recipients.ts';
import { blockApprovedEmployeeTemplate, blockApprovedStudentTemplate, escapeHtml } from './templates.ts';

const base: EventData<'block.approved'> = {
  studentBlockId: 1,
  blockId: 2,
  blockName: 'Block 1',
  subjectId: 3,
  subjectName: 'Physics',
  studentId: 4,
  grade: null,
  nextBlock: { blockId: 5, blockName: 'Block 2' },
  subjectCompleted: false,
  teacher: { name: 'Tere', email: 'tere@school.test' },
  student: { name: 'Sam', email: 'sam@school.test' },
  guardian: null,
};

const roles = (data: EventData<'block.approved'>) => approvalMails(data).map((mail) => `${mail.role}:${mail.to}`);

describe('approvalMails: who is written to', () => {
  test('student with a real address, no guardian: teacher and student', () => {
    expect(roles(base)).toEqual(['teacher:tere@school.test', 'student:sam@school.test']);
  });
  test('guardian, student without address: teacher and guardian', () => {
    expect(roles({ ...base, student: { name: 'Sam', email: null }, guardian: { name: 'Gus', email: 'gus@school.test' } })).toEqual(['teacher:tere@school.test', 'guardian:gus@school.test']);
  });
  test('guardian and a real student address: all three', () => {
    expect(roles({ ...base, guardian: { name: 'Gus', email: 'gus@school.test' } })).toEqual(['teacher:tere@school.test', 'guardian:gus@school.test', 'student:sam@school.test']);
  });
  test('a placeholder student address counts as none', () => {
    expect(roles({ ...base, student: { name: 'Sam', email: 'sin-email-3@placeholder.invalid' } })).toEqual(['teacher:tere@school.test']);
  });
  test('no teacher: only the family', () => {
    expect(roles({ ...base, teacher: null })).toEqual(['student:sam@school.test']);
  });
  test('an address shared by guardian and student gets one mail (the guardian’s)', () => {
    expect(roles({ ...base, student: { name: 'Sam', email: 'GUS@school.test' }, guardian: { name: 'Gus', email: 'gus@school.test' } })).toEqual(['teacher:tere@school.test', 'guardian:gus@school.test']);
  });
});

describe('templates', () => {
  const facts = { studentName: 'Sam', blockName: 'Block 1', subjectName: 'Physics', grade: 9, nextBlockName: null, subjectCompleted: true };
  test('the last block congratulates the teacher and the student on the subject', () => {
    expect(blockApprovedEmployeeTemplate({ ...facts, teacherName: 'Tere' }).text).toContain('This was the last block: congratulations, Sam has completed Physics.');
    expect(blockApprovedStudentTemplate({ ...facts, audience: 'student', recipientName: 'Sam' }).text).toContain('Congratulations! You have completed Physics.');
    expect(blockApprovedStudentTemplate({ ...facts, audience: 'guardian', recipientName: 'Gus' }).text).toContain('Congratulations! Sam has completed Physics.');
  });
  test('the grade is mentioned when there is one', () => {
    expect(blockApprovedStudentTemplate({ ...facts, audience: 'student', recipientName: 'Sam' }).text).toContain('Grade: 9.');
    expect(blockApprovedStudentTemplate({ ...facts, grade: null, audience: 'student', recipientName: 'Sam' }).text).not.toContain('Grade');
  });
  test('HTML special characters are escaped; a newline in a name cannot break the subject', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const mail = blockApprovedStudentTemplate({ ...facts, blockName: 'B\r\nBcc: evil@x.test', audience: 'student', recipientName: 'Sam' });
    expect(mail.subject).toBe('Your block B Bcc: evil@x.test has been approved');
  });
});
