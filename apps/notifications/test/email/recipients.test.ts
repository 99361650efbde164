import { describe, expect, test } from '@jest/globals';
import type { EventData } from '@academy/contracts';
import { approvalMails } from '../../src/email/recipients.ts';
import { blockApprovedEmployeeTemplate, blockApprovedStudentTemplate, escapeHtml } from '../../src/email/templates.ts';

const EN = { locale: 'en' as const, timeZone: 'Europe/Madrid' };
const ES = { locale: 'es' as const, timeZone: 'Europe/Madrid' };

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

const roles = (data: EventData<'block.approved'>) => approvalMails(data, EN).map((mail) => `${mail.role}:${mail.to}`);

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
    expect(blockApprovedEmployeeTemplate(EN, { ...facts, teacherName: 'Tere' }).text).toContain('This was the last block: congratulations, Sam has completed Physics.');
    expect(blockApprovedStudentTemplate(EN, { ...facts, audience: 'student', recipientName: 'Sam' }).text).toContain('Congratulations! You have completed Physics.');
    expect(blockApprovedStudentTemplate(EN, { ...facts, audience: 'guardian', recipientName: 'Gus' }).text).toContain('Congratulations! Sam has completed Physics.');
  });
  test('the grade is mentioned when there is one', () => {
    expect(blockApprovedStudentTemplate(EN, { ...facts, audience: 'student', recipientName: 'Sam' }).text).toContain('Grade: 9.');
    expect(blockApprovedStudentTemplate(EN, { ...facts, grade: null, audience: 'student', recipientName: 'Sam' }).text).not.toContain('Grade');
  });
  test('HTML special characters are escaped; a newline in a name cannot break the subject', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const mail = blockApprovedStudentTemplate(EN, { ...facts, blockName: 'B\r\nBcc: evil@x.test', audience: 'student', recipientName: 'Sam' });
    expect(mail.subject).toBe('Your block B Bcc: evil@x.test has been approved');
  });
});

describe('language', () => {
  const data = { ...base, grade: 7.5, teacher: { name: 'Tere', email: 'tere@school.test', locale: 'en' as const }, guardian: { name: 'Gus', email: 'gus@school.test' } };
  test("each reads their login's language; the guardian and a login with none read the academy's", () => {
    const [teacher, guardian, student] = approvalMails(data, ES);
    expect(teacher!.subject).toBe('Block approved: Block 1 (Sam)');
    expect(teacher!.text).toContain('Grade: 7.5.');
    expect(guardian!.subject).toBe('Sam: bloque Block 1 aprobado');
    expect(guardian!.text).toContain('Hola, Gus:');
    expect(student!.text).toContain('Tu siguiente bloque, Block 2, ya está disponible.');
    expect(student!.text).toContain('Nota: 7,5.');
    expect(student!.html).toContain('<html lang="es">');
    expect(approvalMails({ ...data, student: { ...data.student, locale: 'en' } }, ES)[2]!.subject).toBe('Your block Block 1 has been approved');
  });
  test('values stay escaped in Spanish too', () => {
    const mail = blockApprovedStudentTemplate(ES, { studentName: '<b>Sam</b>', blockName: 'B & "C"', subjectName: 'Física', grade: null, nextBlockName: null, subjectCompleted: true, audience: 'guardian', recipientName: 'Gus' });
    expect(mail.html).toContain('¡Enhorabuena! <strong>&lt;b&gt;Sam&lt;/b&gt;</strong> ha completado <strong>Física</strong>.');
    expect(mail.html).not.toContain('<b>');
  });
});
