/** @module For tests: a small model with every kind of attribute a write meets (not built into the package). */
import { ManualClock } from '../clock/clock.js'
import type { ModelJson } from '../schema/model-json.js'
import type { DataFile } from '../store/load-data.js'

export const writeModel = (): ModelJson => ({
  __NAME: 'shop',
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string', not_null: true },
        { name: 'code', type: 'string', unique: true },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'lastName', type: 'string', indexed: true },
        { name: 'salary', type: 'number', indexed: true },
        { name: 'email', type: 'string', unique: true },
        { name: 'hired', type: 'date' },
        { name: 'extra', type: 'object' },
        { name: 'secret', type: 'string', exposed: false },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'fullName', kind: 'calculated', type: 'string' },
        { name: 'companyName', kind: 'alias', path: 'employer.name' },
      ],
    },
    { name: 'Hidden', exposed: false, attributes: [{ name: 'ID', type: 'long' }] },
    {
      name: 'Tag',
      attributes: [
        { name: 'ID', type: 'uuid', autosequence: true },
        { name: 'label', type: 'string' },
      ],
    },
  ],
})

export const writeData = (): DataFile => ({
  Company: [
    { ID: 1, name: 'Acme', code: 'AC' },
    { ID: 2, name: 'Globex', code: 'GX' },
  ],
  Employee: [
    { ID: 1, lastName: 'Lovelace', salary: 5000, email: 'ada@acme', employerID: 1 },
    { ID: 2, lastName: 'Turing', salary: 6000, email: 'alan@acme', employerID: 1 },
    { ID: 3, lastName: 'Hopper', salary: 7000, email: 'grace@globex', employerID: 2 },
  ],
})

export const writeClock = (): ManualClock => new ManualClock(Date.UTC(2026, 0, 1))
