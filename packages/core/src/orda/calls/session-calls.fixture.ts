/**
 * @module For tests of 4D's session calls (a fixture: not part of the built package): a model
 * whose salaries only the `payroll` privilege reads, the roles file that says so (`boss` includes
 * `payroll`; the datastore function `statically` promotes it), and two employees.
 */
import type { RolesJson } from '../../roles/roles.js'
import type { ModelJson } from '../../schema/model-json.js'

export const payrollModel = {
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'salary', type: 'number' },
      ],
    },
  ],
} as const satisfies ModelJson

export const payrollRoles: RolesJson = {
  privileges: [{ privilege: 'payroll' }, { privilege: 'boss', includes: ['payroll'] }],
  roles: [],
  permissions: {
    allowed: [
      { applyTo: 'Employee.salary', type: 'attribute', read: ['payroll'] },
      { applyTo: 'ds.statically', type: 'method', promote: ['payroll'] },
    ],
  },
}

/** Two employees: 100 and 200 of salary. */
export const payrollData = () => ({
  Employee: [
    { ID: 1, name: 'Ada', salary: 100 },
    { ID: 2, name: 'Alan', salary: 200 },
  ],
})
