// `npm run seed` (node apps/academic/src/seed.ts): creates the demo academy once. It does nothing
// when the database already holds users or students, so running it again is harmless.
//
// Demo logins (documented in the README):
//   admin@academy.local / admin1234, admin2@academy.local / admin1234   (role admin)
//   teacher1@academy.local … teacher6@academy.local / teacher1234     (role user, employees)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { DEV_TAX_ID_DIGEST_KEY, demoTaxId, placeholderEmail } from '@academy/contracts';
import { hashPassword } from '@academy/auth';
import { recordEvent } from '@academy/messaging';
import { withServiceOrm } from '@academy/service';
import { AttendanceSettingsSchema, readConfig } from './config.ts';
import { academicService } from './service.ts';
import { User } from './shared/entities/user.entity.ts';
import { Block, Center, Employee, Guardian, Student, Subject } from './directory/directory.entities.ts';
import { CalendarEvent, Registration, SchoolCourse, type RegistrationStatus } from './shared/entities/registration.entities.ts';
import { SOURCE, recordEmployeeUpserted, schoolCourseCreatedData } from './shared/events.ts';
import { seedDemoBlocks } from './blocks/demo-blocks.store.ts';
import { demoClassStart, seedDemoAttendance, type DemoAttendanceOptions } from './attendance/demo-attendance.ts';
import { DEMO_LOGINS } from './demo-logins.ts';
import { assignDemoClass, countPeople, lockSeed } from './seed.store.ts';

const FIRST_NAMES = ['María', 'José', 'Lucía', 'Álvaro', 'Sofía', 'Martín', 'Paula', 'Hugo', 'Inés', 'Mateo', 'Ángela', 'Jesús', 'Elena', 'Raúl', 'Noelia', 'Óscar', 'Carmen', 'Iván', 'Begoña', 'Adrián'];
const LAST_NAMES = ['García', 'Fernández', 'González', 'Rodríguez', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Martín', 'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero', 'Núñez', 'Ibáñez'];
const SUBJECTS: [string, string[]][] = [
  ['Matemáticas', ['Números y operaciones', 'Álgebra', 'Geometría', 'Funciones', 'Estadística']],
  ['Lengua Castellana', ['Comprensión lectora', 'Gramática', 'Ortografía', 'Redacción']],
  ['Inglés', ['Grammar basics', 'Listening', 'Speaking']],
  ['Física y Química', ['Materia', 'Energía', 'Reacciones químicas', 'Movimiento']],
  ['Historia', ['Prehistoria', 'Edad Antigua', 'Edad Media', 'Edad Moderna', 'Edad Contemporánea']],
];
const CENTERS = [
  ['Centro Norte', 'Calle Mayor 12, Madrid'],
  ['Centro Sur', 'Avenida de Andalucía 45, Madrid'],
  ['Centro Online', null],
] as const;
const STUDENT_COUNT = 240;

/** Deterministic pseudo-random numbers (mulberry32), so every seeded academy looks the same. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');

export interface SeedResult {
  created: boolean;
  counts?: Record<string, number>;
}

/** Creates the demo academy in one transaction unless the database already has users or students. */
/** `attendance.now` decides which demo classes are past and get their sheets (the seed's caller gives the time). */
export async function seedDemoData(orm: MikroORM, attendance: DemoAttendanceOptions = { now: new Date() }, taxIdDigestKey = DEV_TAX_ID_DIGEST_KEY): Promise<SeedResult> {
  const passwordHashes = new Map<string, string>();
  for (const password of new Set(DEMO_LOGINS.map((login) => login.password))) passwordHashes.set(password, await hashPassword(password));

  return orm.em.fork().transactional(async (em) => {
    // Two seeders started at once: the second waits, then sees the data and stops.
    await lockSeed(em);
    if ((await countPeople(em)) > 0) return { created: false };
    return { created: true, counts: await createAcademy(em, passwordHashes, attendance, taxIdDigestKey) };
  });
}

async function createAcademy(em: EntityManager, passwordHashes: Map<string, string>, attendance: DemoAttendanceOptions, taxIdDigestKey: string) {
  const next = random(20260901);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const meta = { source: SOURCE, correlationId: 'seed' };

  // People who log in: admins, and teachers who are also employees.
  for (const login of DEMO_LOGINS.filter((l) => l.role === 'admin')) em.create(User, { email: login.email, passwordHash: passwordHashes.get(login.password)!, role: 'admin' });
  const teachers = DEMO_LOGINS.filter((l) => l.role === 'user').map((login, i) => {
    const user = em.create(User, { email: login.email, passwordHash: passwordHashes.get(login.password)!, role: 'user' });
    // teacherN's tax id is demoTaxId(N): the payslips demo prints the same ids on its combined PDF.
    const employee = em.create(Employee, { name: FIRST_NAMES[(i * 7) % FIRST_NAMES.length], lastname: LAST_NAMES[(i * 3 + 5) % LAST_NAMES.length], email: login.email, kind: 'teacher', taxId: demoTaxId(i + 1) });
    return { user, employee };
  });
  const staff = em.create(Employee, { name: 'Rosa', lastname: 'Secretaría', email: 'secretaria@academy.local', kind: 'staff' });
  await em.flush();
  for (const { user, employee } of teachers) {
    user.employeeId = employee.id;
    employee.userId = user.id;
  }
  for (const employee of [...teachers.map((t) => t.employee), staff]) recordEmployeeUpserted(em, employee, { ...meta, taxIdDigestKey });

  const centers = CENTERS.map(([name, address]) => em.create(Center, { name, address }));
  const subjects = SUBJECTS.map(([name]) => em.create(Subject, { name }));
  const previous = em.create(SchoolCourse, { name: '2025-2026', startDate: '2025-09-01', endDate: '2026-06-30' });
  const latest = em.create(SchoolCourse, { name: '2026-2027', startDate: '2026-09-01', endDate: '2027-06-30' });
  await em.flush();
  SUBJECTS.forEach(([, blocks], s) => blocks.forEach((name, i) => em.create(Block, { subjectId: subjects[s].id, name, position: i + 1 })));
  recordEvent(em, 'school-course.created', schoolCourseCreatedData(previous), meta);
  recordEvent(em, 'school-course.created', schoolCourseCreatedData(latest), meta);

  // Students, oldest first; one in four has a guardian; e-mails: real, a placeholder, or none.
  const guardians = Array.from({ length: 60 }, (_, i) => {
    const name = pick(FIRST_NAMES);
    const lastname = pick(LAST_NAMES);
    return em.create(Guardian, { name, lastname, email: `${slug(name)}.${slug(lastname)}.tutor${i + 1}@example.com`, phone: `+34 6${String(10_000_000 + i * 7919).slice(0, 8)}` });
  });
  await em.flush();
  const since = Date.parse('2024-09-01T08:00:00Z');
  const students = Array.from({ length: STUDENT_COUNT }, (_, i) => {
    const name = pick(FIRST_NAMES);
    const lastname = `${pick(LAST_NAMES)} ${pick(LAST_NAMES)}`;
    const emailKind = i % 6;
    const email = emailKind === 0 ? null : emailKind === 1 ? placeholderEmail(i + 1) : `${slug(name)}.${slug(lastname)}.${i + 1}@example.com`;
    const createdAt = new Date(since + Math.floor((i / STUDENT_COUNT) * 800 * 24 * 3600 * 1000) + Math.floor(next() * 3600_000));
    return em.create(Student, {
      name,
      lastname,
      email,
      status: i % 25 === 3 ? 'inactive' : i % 40 === 7 ? 'withdrawn' : 'active',
      guardianId: i % 4 === 0 ? guardians[(i / 4) % guardians.length].id : null,
      createdAt,
      updatedAt: createdAt,
    });
  });
  await em.flush();

  // Registrations: most students of the first 2/3 took last year's course; most renew; newer students join this year.
  const registrations: { studentId: number; courseId: number; subjectId: number; centerId: number; status: RegistrationStatus }[] = [];
  students.forEach((student, i) => {
    const center = centers[i % centers.length];
    const chosen = [...subjects].sort(() => next() - 0.5).slice(0, 1 + Math.floor(next() * 2));
    const inPrevious = i < (STUDENT_COUNT * 2) / 3 && next() < 0.85;
    const inLatest = student.status === 'active' && (i >= (STUDENT_COUNT * 2) / 3 || next() < 0.7);
    for (const subject of chosen) {
      if (inPrevious) registrations.push({ studentId: student.id, courseId: previous.id, subjectId: subject.id, centerId: center.id, status: 'active' });
      if (inLatest) {
        const roll = next();
        const status = roll < 0.15 ? 'pending' : roll < 0.2 ? 'cancelled' : 'active';
        registrations.push({ studentId: student.id, courseId: latest.id, subjectId: subject.id, centerId: center.id, status });
      }
    }
  });
  const created = registrations.map((r) => em.create(Registration, { studentId: r.studentId, schoolCourseId: r.courseId, subjectId: r.subjectId, centerId: r.centerId, status: r.status }));
  await em.flush();

  // One weekly class per subject and center of the latest course, taught by a teacher, with its active students assigned:
  // Monday to Friday of the last working days before the seed's day (the academy's), from 11:00, 13:00 or 15:00.
  const timeZone = attendance.timeZone ?? AttendanceSettingsSchema.parse({}).ACADEMY_TIME_ZONE;
  let eventCount = 0;
  for (const [s, subject] of subjects.entries()) {
    for (const [c, center] of centers.entries()) {
      const teacher = teachers[(s + c) % teachers.length].employee;
      const startsAt = demoClassStart(attendance.now, timeZone, 1 + ((s + c) % 5), 11 + c * 2);
      const event = em.create(CalendarEvent, { title: `${subject.name} · ${center.name}`, subjectId: subject.id, centerId: center.id, employeeId: teacher.id, startsAt, endsAt: new Date(startsAt.getTime() + 90 * 60_000) });
      await em.flush();
      eventCount++;
      const assigned = created.filter((r) => r.schoolCourseId === latest.id && r.subjectId === subject.id && r.centerId === center.id && r.status === 'active');
      if (assigned.length === 0) continue;
      await assignDemoClass(em, { eventId: event.id, studentIds: assigned.map((r) => r.studentId), registrationIds: assigned.map((r) => r.id), employeeId: teacher.id, subjectId: subject.id });
    }
  }
  await em.flush();
  const demoAttendance = await seedDemoAttendance(em, attendance, meta);
  const studentBlocks = await seedDemoBlocks(em, subjects.map((subject) => subject.id));
  return {
    users: DEMO_LOGINS.length,
    employees: teachers.length + 1,
    guardians: guardians.length,
    students: students.length,
    subjects: subjects.length,
    centers: centers.length,
    schoolCourses: 2,
    registrations: created.length,
    pendingRegistrations: created.filter((r) => r.status === 'pending').length,
    calendarEvents: eventCount + demoAttendance.earlierClasses,
    attendanceSheets: demoAttendance.sheets,
    underAttendanceThreshold: demoAttendance.underThreshold,
    pendingBlocks: studentBlocks.pending ?? 0,
    closedBlocks: studentBlocks.closed ?? 0,
  };
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const config = readConfig();
  await withServiceOrm(academicService, config, async (orm) => {
    const result = await seedDemoData(orm, {
      now: new Date(),
      timeZone: config.ACADEMY_TIME_ZONE,
      thresholdPercent: config.ATTENDANCE_WARNING_PERCENT,
      minSessions: config.ATTENDANCE_WARNING_MIN_SESSIONS,
    }, config.TAX_ID_DIGEST_KEY);
    console.log(result.created ? `Demo academy created: ${JSON.stringify(result.counts)}` : 'The database already has data: nothing seeded.');
    console.log('Demo logins:');
    for (const login of DEMO_LOGINS) console.log(`  ${login.email} / ${login.password} (${login.role})`);
  });
}
