// The data of 4D's Entity class page examples (developer.4d.com, API/EntityClass, 4D 21 R4): the
// structure of its toObject() examples (Employee with managerID/employerID, directReports,
// Company) and the employees its other examples name: Greg Wahl (413) and his reports, Natasha
// Locke (1001), Karla Marrero (636), Smiths, three H@ names (Hollis among them), 672, 716, 717, 725.
import { ManualClock } from '../../clock/clock.js'
import { createDatastore } from './datastore.js'
import type { ModelJson } from '../../schema/model-json.js'

const model = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
        { name: 'creationDate', type: 'date' },
        { name: 'revenues', type: 'number' },
        { name: 'extra', type: 'object' },
        { name: 'employees', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number' },
        { name: 'birthDate', type: 'date' },
        { name: 'woman', type: 'bool' },
        { name: 'managerID', type: 'long' },
        { name: 'employerID', type: 'long' },
        { name: 'photo', type: 'image' },
        { name: 'extra', type: 'object' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'manager', kind: 'relatedEntity', path: 'Employee', foreignKey: 'managerID' },
        { name: 'directReports', kind: 'relatedEntities', path: 'manager' },
      ],
    },
  ],
} as const satisfies ModelJson

type Row = Record<string, unknown>
const employee = (
  ID: number,
  firstName: string,
  lastName: string,
  salary: number,
  more: Row = {},
): Row => ({ ID, firstName, lastName, salary, ...more })

/** Every attribute name of the page's Employee, as the model's types must give them. */
export type EmployeeAttributeName =
  | 'ID'
  | 'firstName'
  | 'lastName'
  | 'salary'
  | 'birthDate'
  | 'woman'
  | 'managerID'
  | 'employerID'
  | 'photo'
  | 'extra'
  | 'employer'
  | 'manager'
  | 'directReports'

/** A fresh datastore with the examples' data, typed by its model, on a manual clock. */
export const entityPage = () =>
  createDatastore(model, {
    clock: new ManualClock('2024-01-01T00:00:00Z'),
    data: {
      Company: [
        { ID: 20, name: 'India Astral Secretary', creationDate: '1984-08-25', revenues: 12000000 },
        { ID: 21, name: 'Astral Lotus' },
        { ID: 117, name: 'Acme' },
        { ID: 118, name: 'Globex' },
        { ID: 121, name: 'Initech' },
      ],
      Employee: [
        employee(411, 'Ada', 'Manning', 90000, { employerID: 21 }),
        employee(412, 'Paul', 'Boss', 80000, { employerID: 20, managerID: 411 }),
        employee(413, 'Greg', 'Wahl', 0, {
          birthDate: '1963-02-01',
          woman: false,
          managerID: 412,
          employerID: 20,
        }),
        employee(418, 'Lorena', 'Boothe', 44800, {
          birthDate: '1970-10-02',
          woman: true,
          managerID: 413,
          employerID: 20,
        }),
        employee(419, 'Drew', 'Caudill', 41000, {
          birthDate: '2030-01-12',
          woman: false,
          managerID: 413,
          employerID: 20,
        }),
        employee(420, 'Nathan', 'Gomes', 46300, {
          birthDate: '2010-05-29',
          woman: false,
          managerID: 413,
          employerID: 20,
        }),
        employee(636, 'Karla', 'Marrero', 33500, { employerID: 118 }),
        employee(672, 'Mary', 'Smith', 36500, { employerID: 117 }),
        employee(673, 'John', 'Smith', 52000, { employerID: 117 }),
        employee(674, 'Tom', 'Smith', 28000, { employerID: 118 }),
        employee(701, 'Colin', 'Hetrick', 120000),
        employee(702, 'Grady', 'Harness', 48000),
        employee(716, 'Ann', 'Hollis', 39000),
        employee(717, 'Bea', 'Vance', 31000),
        employee(725, 'Carl', 'Martin', 42000),
        employee(1001, 'Natasha', 'Locke', 66600, { employerID: 20 }),
      ],
    },
  })
