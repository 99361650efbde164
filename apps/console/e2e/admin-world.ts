// What the administrators' journeys need from the running system, through the gateway's API as
// another client would (the second administrator, the teachers' e-mails, the mail catcher).
import { expect } from '@playwright/test';
import { system } from './world';

export const ADMIN = { email: 'admin@academy.local', password: 'admin1234' };
export const ADMIN2 = { email: 'admin2@academy.local', password: 'admin1234' };

export async function call<T = { code?: string }>(method: string, route: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const answer = await fetch(`${system().gateway}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

export async function tokenOf(credentials: { email: string; password: string }): Promise<string> {
  const answer = await call<{ accessToken: string }>('POST', '/api/v2/auth/login', undefined, credentials);
  expect(answer.status).toBe(200);
  return answer.body.accessToken;
}

export interface PendingItem {
  studentBlockId: number;
  studentName: string;
  subjectName: string;
  blockName: string;
  employeeId: number | null;
}

/** The pending blocks, oldest close first, flattened out of their students' groups. */
export async function pendingBlocks(token: string): Promise<PendingItem[]> {
  const answer = await call<{ byStudent: { studentName: string; blocks: Omit<PendingItem, 'studentName'>[] }[] }>('GET', '/api/v2/blocks/pending', token);
  expect(answer.status).toBe(200);
  return answer.body.byStudent.flatMap((group) => group.blocks.map((block) => ({ studentBlockId: block.studentBlockId, studentName: group.studentName, subjectName: block.subjectName, blockName: block.blockName, employeeId: block.employeeId })));
}

export async function pendingCount(token: string): Promise<number> {
  const answer = await call<{ count: number }>('GET', '/api/v2/blocks/pending/count', token);
  expect(answer.status).toBe(200);
  return answer.body.count;
}

/**
 * `count` pending blocks whose labels (student · subject · block) are unique in the queue, with
 * teachers that have an e-mail: the journey selects them by those labels and reads their mails.
 */
export async function distinctPending(token: string, count: number): Promise<(PendingItem & { teacherEmail: string })[]> {
  const all = await pendingBlocks(token);
  const label = (item: PendingItem) => `${item.studentName} · ${item.subjectName} · ${item.blockName}`;
  const seen = new Map<string, number>();
  for (const item of all) seen.set(label(item), (seen.get(label(item)) ?? 0) + 1);
  const picked: (PendingItem & { teacherEmail: string })[] = [];
  const emails = new Map<number, string | null>();
  for (const item of all) {
    if (picked.length === count) break;
    if (seen.get(label(item)) !== 1 || item.employeeId === null) continue;
    if (!emails.has(item.employeeId)) emails.set(item.employeeId, (await call<{ email: string | null }>('GET', `/api/v2/employees/${item.employeeId}`, token)).body.email);
    const teacherEmail = emails.get(item.employeeId);
    if (teacherEmail) picked.push({ ...item, teacherEmail });
  }
  expect(picked).toHaveLength(count);
  return picked;
}

export interface CaughtMail {
  to: { address: string }[];
  subject: string;
}

/** Every mail the catcher holds. */
export async function caughtMails(): Promise<CaughtMail[]> {
  const answer = await fetch(`${system().mailApi}/email`);
  return (await answer.json()) as CaughtMail[];
}

/**
 * The demo combined PDF, as the payslips seed writes it (`demoPdf` of apps/payslips): one page per
 * employee naming their tax id, and a company summary page naming nobody.
 */
export async function combinedPdf(employees: { name: string; taxId: string }[], label: string, period: { start: string; end: string }): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const { buffer } = await import('node:stream/consumers');
  const doc = new PDFDocument({ autoFirstPage: false, info: { Title: 'Nóminas' } });
  for (const employee of [...employees, null]) {
    doc.addPage({ size: 'A4', margin: 56 });
    doc.fontSize(18).text('Academia Demo S.L.').fontSize(10).text('CIF B00000000 · Calle Mayor 12, Madrid').moveDown(1.5);
    if (!employee) {
      doc.fontSize(14).text(`Resumen de la empresa — ${label}`).moveDown().fontSize(11).text('Totales de la remesa, sin datos de ningún trabajador.');
      continue;
    }
    doc.fontSize(14).text(label).moveDown(0.5);
    doc.fontSize(11).text(`Trabajador: ${employee.name}`).text(`NIF: ${employee.taxId}`).text(`Periodo: ${period.start} a ${period.end}`).moveDown();
    doc.fontSize(12).text('Líquido a percibir ...................... 1.487,70 €');
  }
  doc.end();
  return buffer(doc);
}

export interface Employee {
  id: number;
  name: string;
  lastname: string;
  email: string | null;
  taxId: string | null;
}

export async function employees(token: string): Promise<Employee[]> {
  const answer = await call<{ data: Employee[] }>('GET', '/api/v2/employees?limit=100', token);
  expect(answer.status).toBe(200);
  return answer.body.data;
}
