// Helpers of the block tests: an academy built through the API where it matters (subjects and
// registrations, which create the student blocks) and straight in the database elsewhere.
import request from 'supertest';
import type { RunningService } from '@academy/service';
import { bearer } from '@academy/testing';
import type { Fixtures } from '../support.ts';
import { admin } from '../support.ts';

export interface StudentBlockRow {
  id: number;
  blockId: number;
  position: number;
  status: string;
  grade: number | null;
  employeeId: number | null;
}

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}-${Math.random().toString(36).slice(2, 8)}`;

export function blockWorld(service: () => RunningService, f: Fixtures) {
  const api = () => request(service().url);
  let place: Promise<{ courseId: number; centerId: number }> | undefined;
  /** One latest course and one center for the whole file. */
  const coursePlace = () => (place ??= (async () => ({ courseId: await f.course('2026-09-01'), centerId: await f.center() }))());

  const world = {
    api,
    async subject(blocks = ['Block 1', 'Block 2', 'Block 3']) {
      const created = await api().post('/api/v2/subjects').set(admin).send({ name: unique('Subject'), blocks });
      if (created.status !== 201) throw new Error(`subject: ${created.status} ${JSON.stringify(created.body)}`);
      return { subjectId: created.body.id as number, blockIds: (created.body.blocks as { id: number }[]).map((block) => block.id) };
    },
    /** A teacher (employee with an e-mail, or none) and the headers of their login. */
    async teacher(email: string | null = `${unique('teacher').replace(/\W+/g, '.')}@academy.test`, name = 'Ana') {
      const employeeId = await f.employee(name);
      await f.query(`update employees set email = ?, lastname = 'Ruiz' where id = ?`, [email, employeeId]);
      return { employeeId, headers: bearer({ role: 'user', sub: String(1000 + employeeId), employeeId }), email };
    },
    /** A student, with an e-mail (real, placeholder, or none) and maybe a guardian. */
    async student(options: { email?: string | null; guardian?: { name: string; email: string } | null; name?: string } = {}) {
      const studentId = await f.student(options.name ?? 'Leo', unique('Gil'));
      let guardianId: number | null = null;
      if (options.guardian) {
        [{ id: guardianId }] = await f.query<{ id: number }>(`insert into guardians (name, lastname, email, active, created_at, updated_at) values (?, 'Tutor', ?, true, now(), now()) returning id`, [
          options.guardian.name,
          options.guardian.email,
        ]);
      }
      await f.query(`update students set email = ?, guardian_id = ? where id = ?`, [options.email ?? null, guardianId, studentId]);
      return studentId;
    },
    /** Registers the student in the subject through the API (which creates their blocks). */
    async enrol(studentId: number, subjectId: number, employeeId: number | null) {
      const { courseId, centerId } = await coursePlace();
      const created = await api().post('/api/v2/registrations').set(admin).send({ studentId, subjectId, schoolCourseId: courseId, centerId, employeeId, status: 'active' });
      if (created.status !== 201) throw new Error(`registration: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body.id as number;
    },
    coursePlace,
    studentBlocks: (studentId: number, subjectId: number) =>
      f.query<StudentBlockRow>(
        `select sb.id, sb.block_id as "blockId", b.position, sb.status, sb.grade::float8 as grade, sb.employee_id as "employeeId"
           from student_blocks sb join blocks b on b.id = sb.block_id where sb.student_id = ? and b.subject_id = ? order by b.position`,
        [studentId, subjectId],
      ),
    statuses: async (studentId: number, subjectId: number) => (await world.studentBlocks(studentId, subjectId)).map((row) => row.status),
    close: (blockId: number, body: Record<string, unknown>, headers: Record<string, string> = admin) => api().post(`/api/v2/blocks/${blockId}/close`).set(headers).send(body),
    review: (studentBlockId: number | string, body: Record<string, unknown>, headers: Record<string, string> = admin) =>
      api().post(`/api/v2/blocks/student-block/${studentBlockId}/review`).set(headers).send(body),
    /** Sets a student block's state straight in the database. */
    setStatus: (studentBlockId: number, status: string) => f.query(`update student_blocks set status = ?, closed_at = case when ? = 'pending' then now() else closed_at end where id = ?`, [status, status, studentBlockId]),
    outbox: (type: string, studentBlockId?: number) =>
      f.query<{ envelope: { data: Record<string, unknown>; type: string } }>(
        `select envelope from outbox where type = ? ${studentBlockId === undefined ? '' : `and (envelope->'data'->>'studentBlockId')::int = ${Number(studentBlockId)}`} order by id`,
        [type],
      ),
    /** A student registered with the teacher, whose first block is closed by the teacher (pending): its student blocks. */
    async pendingFirstBlock(subject: { subjectId: number; blockIds: number[] }, teacher: { employeeId: number; headers: Record<string, string> }, studentOptions = {}) {
      const studentId = await world.student(studentOptions);
      await world.enrol(studentId, subject.subjectId, teacher.employeeId);
      const closed = await world.close(subject.blockIds[0]!, { studentId, grade: 8.5 }, teacher.headers);
      if (closed.status !== 200) throw new Error(`close: ${closed.status} ${JSON.stringify(closed.body)}`);
      return { studentId, rows: await world.studentBlocks(studentId, subject.subjectId) };
    },
  };
  return world;
}
