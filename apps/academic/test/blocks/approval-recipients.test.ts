import { describe, expect, test } from '@jest/globals';
import { approvalRecipients, validEmail } from '../../src/blocks/approval-recipients.ts';

describe('approvalRecipients', () => {
  const teacher = { name: 'Ana Ruiz', email: 'ana@academy.test' };

  test('a valid student e-mail and a guardian: both are named', () => {
    expect(approvalRecipients({ teacher, student: { name: 'Leo Gil', email: 'leo@example.com' }, guardian: { name: 'Eva Gil', email: 'eva@example.com' } })).toEqual({
      teacher,
      student: { name: 'Leo Gil', email: 'leo@example.com' },
      guardian: { name: 'Eva Gil', email: 'eva@example.com' },
    });
  });

  test('a placeholder or missing student e-mail becomes null; no guardian stays null', () => {
    expect(approvalRecipients({ teacher, student: { name: 'Leo', email: 'sin-email-4@placeholder.invalid' }, guardian: null }).student).toEqual({ name: 'Leo', email: null });
    expect(approvalRecipients({ teacher, student: { name: 'Leo', email: null }, guardian: null })).toEqual({ teacher, student: { name: 'Leo', email: null }, guardian: null });
  });

  test('a teacher or guardian without a usable address is not a recipient', () => {
    const result = approvalRecipients({ teacher: { name: 'T', email: null }, student: { name: 'S', email: 'not an e-mail' }, guardian: { name: 'G', email: 'sin-email-1@placeholder.invalid' } });
    expect(result).toEqual({ teacher: null, student: { name: 'S', email: null }, guardian: null });
  });

  test('the teacher’s and the student’s login ride along when they have one (their notification preferences apply); a guardian has none', () => {
    const result = approvalRecipients({ teacher: { ...teacher, userId: 12 }, student: { name: 'Leo', email: 'leo@example.com', userId: 40 }, guardian: { name: 'Eva', email: 'eva@example.com', userId: 99 } });
    expect(result).toEqual({ teacher: { ...teacher, userId: 12 }, student: { name: 'Leo', email: 'leo@example.com', userId: 40 }, guardian: { name: 'Eva', email: 'eva@example.com' } });
  });

  test('validEmail trims and refuses placeholders and malformed addresses', () => {
    expect(validEmail(' a@b.test ')).toBe('a@b.test');
    expect(validEmail('SIN-EMAIL-9@placeholder.invalid')).toBeNull();
    expect(validEmail('a@')).toBeNull();
    expect(validEmail(undefined)).toBeNull();
  });
});

describe('approvalRecipients: languages', () => {
  test("a login's chosen language rides with the person; none chosen, none carried", () => {
    const people = approvalRecipients({
      teacher: { name: 'Tere', email: 'tere@school.test', userId: 3, locale: 'en' },
      student: { name: 'Sam', email: 'sam@school.test', userId: 4, locale: null },
      guardian: null,
    });
    expect(people.teacher).toEqual({ name: 'Tere', email: 'tere@school.test', userId: 3, locale: 'en' });
    expect(people.student).toEqual({ name: 'Sam', email: 'sam@school.test', userId: 4 });
  });
});
