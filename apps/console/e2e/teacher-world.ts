// What the teacher journeys of teacher.spec.ts need from the running system, through the gateway's
// API as an administrator's (or the teacher's own) client would.
import { expect } from '@playwright/test';
import { bearerLogin, system } from './world';

const ADMIN = { email: 'admin@academy.local', password: 'admin1234' };

async function call<T>(method: string, route: string, token: string, body?: unknown): Promise<{ status: number; body: T }> {
  const answer = await fetch(`${system().gateway}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

export interface BlockPlace {
  subjectName: string;
  blockNames: string[];
  students: { id: number; name: string }[];
}

/**
 * A subject of its own (unique name, blocks B1–B3) with `count` students registered in the latest
 * school course with the teacher, so their first blocks are open and the teacher's to close.
 */
export async function subjectWithStudents(teacher: { email: string; password: string }, count: number): Promise<BlockPlace> {
  const admin = (await bearerLogin(ADMIN)).accessToken;
  const { user } = await bearerLogin(teacher);
  const courses = await call<{ latestSchoolCourseId: number | null }>('GET', '/api/v2/school-courses', admin);
  const centers = await call<{ data: { id: number }[] }>('GET', '/api/v2/centers?limit=1', admin);
  const students = await call<{ data: { id: number; name: string; lastname: string }[] }>('GET', `/api/v2/students?limit=${count}`, admin);
  const subjectName = `Consola ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const blockNames = ['B1', 'B2', 'B3'];
  const subject = await call<{ id: number }>('POST', '/api/v2/subjects', admin, { name: subjectName, blocks: blockNames });
  expect(subject.status).toBe(201);
  for (const student of students.body.data) {
    const registered = await call('POST', '/api/v2/registrations', admin, {
      studentId: student.id,
      subjectId: subject.body.id,
      schoolCourseId: courses.body.latestSchoolCourseId,
      centerId: centers.body.data[0]!.id,
      employeeId: user.employeeId,
      status: 'active',
    });
    expect(registered.status).toBe(201);
  }
  return { subjectName, blockNames, students: students.body.data.map((s) => ({ id: s.id, name: `${s.name} ${s.lastname}`.trim() })) };
}

interface MyBlock {
  studentBlockId: number;
  blockId: number;
  studentId: number;
  subjectName: string;
  state: string;
}

async function myBlock(token: string, place: BlockPlace, studentId: number): Promise<MyBlock> {
  const mine = await call<{ blocks: MyBlock[] }>('GET', '/api/v2/blocks/mine', token);
  const block = mine.body.blocks.find((b) => b.subjectName === place.subjectName && b.studentId === studentId);
  if (!block) throw new Error(`no block of student ${studentId} in ${place.subjectName}`);
  return block;
}

/** The teacher closes the student's open block (through the API); the administrator approves or rejects it. */
export async function closeAndReview(teacher: { email: string; password: string }, place: BlockPlace, studentId: number, review: { action: 'approve' } | { action: 'reject'; reason: string }): Promise<void> {
  const token = (await bearerLogin(teacher)).accessToken;
  const block = await myBlock(token, place, studentId);
  expect((await call('POST', `/api/v2/blocks/${block.blockId}/close`, token, { studentId, grade: 6 })).status).toBe(200);
  const admin = (await bearerLogin(ADMIN)).accessToken;
  expect((await call('POST', `/api/v2/blocks/student-block/${block.studentBlockId}/review`, admin, review)).status).toBe(200);
}

/** An incident of the teacher's: a second clock-in over an open record (then the record is closed). Its id. */
export async function clockInTwice(teacher: { email: string; password: string }): Promise<number> {
  const token = (await bearerLogin(teacher)).accessToken;
  await call('POST', '/api/v2/timerecord/clock-in', token, { source: 'Web' });
  const second = await call<{ code: string }>('POST', '/api/v2/timerecord/clock-in', token, { source: 'Web' });
  expect(second.body.code).toBe('TIME_RECORD_ALREADY_OPEN');
  expect((await call('POST', '/api/v2/timerecord/clock-out', token, { source: 'Web' })).status).toBe(200);
  const mine = await call<{ data: { id: number; kind: string }[] }>('GET', '/api/v2/incident/my', token);
  const incident = mine.body.data.find((i) => i.kind === 'CLOCK_IN_WHILE_OPEN');
  if (!incident) throw new Error('no CLOCK_IN_WHILE_OPEN incident');
  return incident.id;
}

/** The mails the catcher holds for an address whose subject contains the text, waiting up to 30 s for one. */
export async function mailTo(address: string, subjectPart: string): Promise<{ subject: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const all = (await (await fetch(`${system().mailApi}/email`)).json()) as { to: { address: string }[]; subject: string }[];
    const found = all.find((mail) => mail.to.some((to) => to.address === address) && mail.subject.includes(subjectPart));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} about ${subjectPart}; subjects: ${all.filter((m) => m.to.some((to) => to.address === address)).map((m) => m.subject).join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
