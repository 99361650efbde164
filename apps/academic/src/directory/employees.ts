// Employees publish their changes through the outbox, in the transaction of the change.
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery, EmployeeCreateBody, EmployeeUpdateBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { Employee } from './directory.entities.ts';
import { SOURCE, recordEmployeeUpserted } from '../shared/events.ts';
import { findOr404, guardConstraints, mustExist } from '../shared/records.store.ts';
import { paged, type EmployeeMeta, type Input, type Meta } from './directory-page.ts';
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

export const employees = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, Employee, ['name', 'lastname', 'email', 'taxId', 'payrollCode'], query, employeeItem),
  get: (em: EntityManager, id: number) => findOr404(em, Employee, id, 'EMPLOYEE_NOT_FOUND', 'Employee not found'),
  item: employeeItem,
  async create(em: EntityManager, input: Input<typeof EmployeeCreateBody>, meta: EmployeeMeta) {
    await mustExist(em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const { userId, ...fields } = input;
          const employee = tx.create(Employee, fields);
          await tx.flush();
          if (userId) await linkUserAndEmployee(tx, { userId, employeeId: employee.id }, meta);
          else recordEmployeeUpserted(tx, employee, { source: SOURCE, ...meta });
          await tx.refresh(employee);
          return employeeItem(employee);
        }),
      employeeConstraints,
    );
  },
  async update(em: EntityManager, id: number, input: Input<typeof EmployeeUpdateBody>, meta: EmployeeMeta) {
    await mustExist(em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const { userId, ...fields } = input;
          const employee = await employees.get(tx, id);
          tx.assign(employee, fields);
          await tx.flush();
          let announced = new Set<number>();
          if (userId !== undefined) {
            if (userId !== null) announced = await linkUserAndEmployee(tx, { userId, employeeId: id }, meta);
            else if (employee.userId) announced = await linkUserAndEmployee(tx, { userId: employee.userId, employeeId: null }, meta);
            await tx.refresh(employee);
          }
          if (!announced.has(id)) recordEmployeeUpserted(tx, employee, { source: SOURCE, ...meta });
          return employeeItem(employee);
        }),
      employeeConstraints,
    );
  },
  /** Deactivates; `employee.deleted` tells the replicas this employee no longer works here. */
  async deactivate(em: EntityManager, id: number, meta: Meta) {
    return em.transactional(async (tx) => {
      const employee = await employees.get(tx, id);
      employee.active = false;
      recordEvent(tx, 'employee.deleted', { id }, { source: SOURCE, ...meta });
      return employeeItem(employee);
    });
  },
};
