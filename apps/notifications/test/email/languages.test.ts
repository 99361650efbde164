import { describe, expect, test } from '@jest/globals';
import type { ParsedMail } from 'mailparser';
import type { EventData } from '@academy/contracts';
import { envelope, payslipPublished, sleep, until, useNotificationsWithSmtp } from '../support.ts';

let nextId = 900;

function approval(tag: string, overrides: Partial<EventData<'block.approved'>> = {}): EventData<'block.approved'> {
  const id = nextId++;
  return {
    studentBlockId: id,
    blockId: 30 + id,
    blockName: 'Bloque 3: Fracciones',
    subjectId: 7,
    subjectName: 'Matemáticas',
    studentId: 500 + id,
    grade: 8.5,
    nextBlock: { blockId: 31 + id, blockName: 'Bloque 4: <Decimales>' },
    subjectCompleted: false,
    teacher: { name: 'Marta Ruiz', email: `teacher.${tag}@school.test`, userId: 70 + id, locale: 'en' },
    student: { name: 'Leo Gil', email: `student.${tag}@school.test`, userId: 80 + id },
    guardian: { name: 'Eva Gil', email: `guardian.${tag}@school.test` },
    ...overrides,
  };
}

describe('the language of each mail, read back from a real SMTP server', () => {
  // The academy's language is Spanish (the default); the teacher's login chose English.
  const { publish, mailsTo } = useNotificationsWithSmtp();

  const mailTo = (address: string): ParsedMail | undefined => mailsTo(address)[0];
  async function deliver<T extends 'block.approved' | 'payslip.published'>(type: T, data: EventData<T>, addresses: string[]): Promise<ParsedMail[]> {
    await publish(envelope(type, data));
    await until(async () => addresses.every((address) => mailTo(address)), 10_000, `mails to ${addresses.join(', ')}`);
    await sleep(200);
    return addresses.map((address) => mailTo(address)!);
  }

  test('block.approved: the teacher who chose English reads English; the student (none chosen) and the guardian read Spanish', async () => {
    const [teacher, student, guardian] = await deliver('block.approved', approval('lang'), ['teacher.lang@school.test', 'student.lang@school.test', 'guardian.lang@school.test']);
    expect(teacher!.subject).toBe('Block approved: Bloque 3: Fracciones (Leo Gil)');
    expect(teacher!.text).toContain('Hello Marta Ruiz,');
    expect(teacher!.text).toContain('Grade: 8.5.');
    expect(student!.subject).toBe('Tu bloque Bloque 3: Fracciones ha sido aprobado');
    expect(student!.text).toContain('Hola, Leo Gil:');
    expect(student!.text).toContain('Nota: 8,5.');
    expect(student!.text).toContain('Tu siguiente bloque, Bloque 4: <Decimales>, ya está disponible.');
    expect(student!.text).toContain('— La academia');
    // Escaped in the HTML whatever the language.
    expect(student!.html).toContain('<strong>Bloque 4: &lt;Decimales&gt;</strong>');
    expect(student!.html).not.toContain('<Decimales>');
    expect(guardian!.subject).toBe('Leo Gil: bloque Bloque 3: Fracciones aprobado');
  });

  test('payslip.published: dates written for the reader, in Spanish or in English', async () => {
    const payslip = (tag: string, locale?: 'en' | 'es') => payslipPublished(tag, { employee: { name: 'Ana Pérez', userId: null, ...(locale ? { locale } : {}) } });
    const [spanish] = await deliver('payslip.published', payslip('es'), ['employee.es@school.test']);
    expect(spanish!.subject).toBe('Tienes una nueva nómina');
    expect(spanish!.text).toContain('Nómina noviembre, del 1 de noviembre de 2026 al 30 de noviembre de 2026.');
    expect(spanish!.text).toContain('Emitida el 28 de noviembre de 2026.');
    const [english] = await deliver('payslip.published', payslip('en', 'en'), ['employee.en@school.test']);
    expect(english!.subject).toBe('A new payslip is available');
    expect(english!.text).toContain('for 1 November 2026 to 30 November 2026.');
  });
});
