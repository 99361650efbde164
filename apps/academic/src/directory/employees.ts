// Employees publish their changes through the outbox, in the transaction of the change.
import type { EntityManager, InferEntity } from '@mikro-orm/postgresql';
import type { DirectoryPageQuery, EmployeeCreateBody, EmployeeUpdateBody } from '@academy/contracts';
import { recordEvent } from '@academy/messaging';
import { Employee } from '../shared/entities/directory.entities.ts';
import { SOURCE, employeeUpsertedData } from '../shared/events.ts';
import { findOr404, guardConstraints, mustExist } from '../shared/sql.ts';
import { paged, type Input, type Meta } from './directory-page.ts';
import { linkUserAndEmployee } from './user-employee-link.ts';

type EmployeeRow = InferEntity<typeof Employee>;
const employeeItem = (employee: EmployeeRow) => ({
  id: employee.id,
  userId: employee.userId ?? null,
  name: employee.name,
  lastname: employee.lastname,
  email: employee.email ?? null,
  kind: employee.kind,
  active: employee.active,
  createdAt: employee.createdAt.toISOString(),
});

export const employees = {
  list: (em: EntityManager, query: DirectoryPageQuery) => paged(em, Employee, ['name', 'lastname', 'email'], query, employeeItem),
  get: (em: EntityManager, id: number) => findOr404(em, Employee, id, 'EMPLOYEE_NOT_FOUND', 'Employee not found'),
  item: employeeItem,
  async create(em: EntityManager, input: Input<typeof EmployeeCreateBody>, meta: Meta) {
    await mustExist(em, ['users', input.userId, 'USER_NOT_FOUND', 'User not found']);
    return guardConstraints(
      () =>
        em.transactional(async (tx) => {
          const { userId, ...fields } = input;
          const employee = tx.create(Employee, fields);
          await tx.flush();
          if (userId) await linkUserAndEmployee(tx, { userId, employeeId: employee.id }, meta);
          else recordEvent(tx, 'employee.upserted', employeeUpsertedData(employee), { source: SOURCE, ...meta });
          await tx.refresh(employee);
          return employeeItem(employee);
        }),
      { unique: 'This user is already linked to another employee' },
    );
  },
  async update(em: EntityManager, id: number, input: Input<typeof EmployeeUpdateBody>, meta: Meta) {
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
          if (!announced.has(id)) recordEvent(tx, 'employee.upserted', employeeUpsertedData(employee), { source: SOURCE, ...meta });
          return employeeItem(employee);
        }),
      { unique: 'This user is already linked to another employee' },
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
