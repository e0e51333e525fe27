// The structures of 4D's DataClass class page examples (developer.4d.com, API/DataClassClass,
// 4D 21 R4): employees 167, 668 and 1720 of the companies 121 and 7 (fromCollection's examples),
// an employee's `sequenceNumber` filled by 4D (`.attributeName` example 3), invoices keyed by text
// ("DGGX20030"), a log, students for the formula queries, clients, cats and dogs.
import { ManualClock } from '../../clock/clock.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'

export const dataClassModel = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'revenues', type: 'number' },
        { name: 'employees', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string', indexed: true },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number' },
        { name: 'birthDate', type: 'date' },
        { name: 'type', type: 'string' },
        { name: 'extraInfo', type: 'object' },
        { name: 'sequenceNumber', type: 'uuid', autosequence: true, unique: true },
        { name: 'badge', type: 'string', readOnly: true },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
      ],
    },
    {
      name: 'Invoice',
      attributes: [
        { name: 'ID', type: 'string' },
        { name: 'total', type: 'number' },
      ],
    },
    {
      name: 'Log',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'info', type: 'string' },
      ],
    },
    {
      name: 'Student',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastname', type: 'string' },
        { name: 'nationality', type: 'string' },
      ],
    },
    {
      name: 'Clients',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
    {
      name: 'Cats',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
      ],
    },
    {
      name: 'Dogs',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
      ],
    },
  ],
} as const satisfies ModelJson

/** The datastore of the page's examples, on a manual clock. */
export const dataClassExamples = () =>
  createDatastore(dataClassModel, {
    clock: new ManualClock('2024-01-01T00:00:00Z'),
    calculated: {
      Employee: {
        fullName: (e) => `${String(e.get('firstName'))} ${String(e.get('lastName'))}`,
      },
    },
    data: {
      Company: [
        { ID: 7, name: 'Lima West Kilo', revenues: 5_000_000 },
        { ID: 121, name: 'Acme', revenues: 12_000_000 },
      ],
      Employee: [
        {
          ID: 167,
          firstName: 'Kim',
          lastName: 'Martin',
          salary: 42000,
          type: 'Intern',
          employer: 7,
        },
        {
          ID: 668,
          firstName: 'Paul',
          lastName: 'Smith',
          salary: 51000,
          type: 'Staff',
          employer: 7,
        },
        {
          ID: 1720,
          firstName: 'Joan',
          lastName: 'Wilson',
          salary: 63000,
          type: 'Intern',
          employer: 121,
        },
      ],
      Invoice: [
        { ID: 'DGGX20030', total: 120 },
        { ID: 'DGGX20031', total: 80 },
      ],
      Student: [
        { lastname: 'Martin-Dupont', nationality: 'French' },
        { lastname: 'Martin', nationality: 'French' },
        { lastname: 'Grey-Smith', nationality: 'English' },
      ],
      Clients: [
        { ID: 1, name: 'Ann' },
        { ID: 2, name: 'Bob' },
        { ID: 3, name: 'Cid' },
      ],
      Cats: [{ name: 'Felix' }],
      Dogs: [{ name: 'Rex' }, { name: 'Felix' }],
    },
  })
