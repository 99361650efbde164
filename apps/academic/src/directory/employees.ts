// Employees publish their changes through the outbox, in the transaction of the change.
import type { InferEntity } from '@mikro-orm/postgresql';
import type { Actor } from '@academy/auth';
import type { DirectoryPageQuery, EmployeeCreateBody, EmployeeUpdateBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { afterCommit } from '@academy/service';
import type { AcademicContext } from '../shared/academic-context.ts';
import { Employee } from './directory.entities.ts';
import { SOURCE, recordEmployeeUpserted } from '../shared/events.ts';
import type { ById, EmployeeMeta, Input } from './directory.types.ts';
import { checkExists, findEmployee, pageOf, writeInTransaction } from './directory.store.ts';
import { linkUserAndEmployee } from './user-employee-link.ts';

type EmployeeRow = InferEntity<typeof Employee>;
const employeeItem = (employee: EmployeeRow) => ({
  id: employee.id,
  userId: employee.userId ?? null,
  name: employee.name,
  lastname: employee.lastname,
  email: employee.email ?? null,
  kind: employee.kind,
  taxId: employee.taxId ?? null,
  payrollCode: employee.payrollCode ?? null,
  active: employee.active,
  createdAt: employee.createdAt.toISOString(),
});

/** The 409s of an employee write, by the unique key it hit. */
const employeeConstraints = {
  unique: 'This user is already linked to another employee',
  uniqueByConstraint: {
    employees_tax_id_unique: { code: 'TAX_ID_TAKEN', message: 'Another employee has this tax id' },
    employees_payroll_code_unique: { code: 'PAYROLL_CODE_TAKEN', message: 'Another employee has this payroll code' },
  },
};

/** What an employee write's events carry: the caller's correlation id and the key of the tax id's digest. */
const metaOf = (ctx: AcademicContext, actor: Actor): EmployeeMeta => ({ correlationId: actor.correlationId, taxIdDigestKey: ctx.config.TAX_ID_DIGEST_KEY });
/** After a change has committed, the relay publishes its event now. */
const announced = (ctx: AcademicContext) => afterCommit(() => ctx.relay.nudge());

function listEmployees(ctx: AcademicContext, input: DirectoryPageQuery, _actor: Actor) {
  return pageOf(ctx.orm.em, Employee, ['name', 'lastname', 'email', 'taxId', 'payrollCode'], input, employeeItem);
}

async function readEmployee(ctx: AcademicContext, input: ById, _actor: Actor) {
  return employeeItem(await findEmployee(ctx.orm.em, input.id));
}

async function createEmployee(ctx: AcademicContext, input: Input<typeof EmployeeCreateBody>, actor: Actor) {
  const meta = metaOf(ctx, actor);
  await checkExists(ctx.orm.em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
  const item = await writeInTransaction(ctx.orm.em, async (tx) => {
    const { userId, ...fields } = input;
    const employee = tx.create(Employee, fields);
    await tx.flush();
    if (userId) await linkUserAndEmployee(tx, { userId, employeeId: employee.id }, meta);
    else recordEmployeeUpserted(tx, employee, { source: SOURCE, ...meta });
    await tx.refresh(employee);
    return employeeItem(employee);
  }, employeeConstraints);
  await announced(ctx);
  return item;
}

async function updateEmployee(ctx: AcademicContext, { id, ...input }: Input<typeof EmployeeUpdateBody> & ById, actor: Actor) {
  const meta = metaOf(ctx, actor);
  await checkExists(ctx.orm.em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
  const item = await writeInTransaction(ctx.orm.em, async (tx) => {
    const { userId, ...fields } = input;
    const employee = await findEmployee(tx, id);
    tx.assign(employee, fields);
    await tx.flush();
    let linked = new Set<number>();
    if (userId !== undefined) {
      if (userId !== null) linked = await linkUserAndEmployee(tx, { userId, employeeId: id }, meta);
      else if (employee.userId) linked = await linkUserAndEmployee(tx, { userId: employee.userId, employeeId: null }, meta);
      await tx.refresh(employee);
    }
    if (!linked.has(id)) recordEmployeeUpserted(tx, employee, { source: SOURCE, ...meta });
    return employeeItem(employee);
  }, employeeConstraints);
  await announced(ctx);
  return item;
}

/** Deactivates; `employee.deleted` tells the replicas this employee no longer works here. */
async function deactivateEmployee(ctx: AcademicContext, { id }: ById, actor: Actor) {
  const item = await writeInTransaction(ctx.orm.em, async (tx) => {
    const employee = await findEmployee(tx, id);
    employee.active = false;
    recordEvent(tx, 'employee.deleted', { id }, { source: SOURCE, correlationId: actor.correlationId });
    return employeeItem(employee);
  });
  await announced(ctx);
  return item;
}

/** Admin use cases of employees; DELETE deactivates. */
export const employees = { list: listEmployees, get: readEmployee, create: createEmployee, update: updateEmployee, remove: deactivateEmployee };
