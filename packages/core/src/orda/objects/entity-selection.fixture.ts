// The data of 4D's EntitySelection class page examples (developer.4d.com, API/EntitySelectionClass,
// 4D 21 R4): employees named there (Colin Hetrick, Grady Harness, Sherlock Holmes with key 710,
// Mary Smith 686, Cath Kidston 610), teachers and addresses, invoices, students, products.
import { createDatastore } from './datastore.js'
import type { ModelJson } from '../../schema/model-json.js'

const model = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'firstName', type: 'string' },
        { name: 'lastName', type: 'string' },
        { name: 'salary', type: 'number' },
        { name: 'gender', type: 'string' },
        { name: 'city', type: 'string' },
        { name: 'jobName', type: 'string' },
        { name: 'fullData', type: 'object' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company' },
        { name: 'manager', kind: 'relatedEntity', type: 'Employee' },
        { name: 'directReports', kind: 'relatedEntities', path: 'manager' },
      ],
    },
    {
      name: 'Address',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'city', type: 'string' },
        { name: 'teachers', kind: 'relatedEntities', path: 'address' },
      ],
    },
    {
      name: 'Teacher',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'firstname', type: 'string' },
        { name: 'lastname', type: 'string' },
        { name: 'address', kind: 'relatedEntity', path: 'Address' },
      ],
    },
    {
      name: 'Invoice',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'payment', type: 'string' },
      ],
    },
    {
      name: 'Student',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastname', type: 'string' },
        { name: 'nationality', type: 'string' },
        { name: 'marks', type: 'object' },
      ],
    },
    {
      name: 'Product',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
  ],
} as const satisfies ModelJson

const employee = (
  ID: number,
  firstName: string,
  lastName: string,
  salary: number,
  gender: string,
  city: string,
  jobName: string | null,
  employer: number,
  more: Record<string, unknown> = {},
) => ({ ID, firstName, lastName, salary, gender, city, jobName, employer, ...more })

/** A fresh datastore with the examples' data, typed by its model. */
export const pageExamples = () =>
  createDatastore(model, {
    data: {
      Company: [
        { ID: 1, name: 'Acme, Inc' },
        { ID: 2, name: 'Baker Street' },
      ],
      Employee: [
        employee(610, 'Cath', 'Kidston', 98000, 'female', 'New York', 'Developer', 1),
        employee(686, 'Mary', 'Smith', 45000, 'female', 'New York', 'Office manager', 2, {
          manager: 710,
        }),
        employee(701, 'Colin', 'Hetrick', 120000, 'male', 'New York', 'Developer', 1, {
          fullData: {
            age: 41,
            Children: [
              { age: 3, name: 'Tim' },
              { age: 7, name: 'Ana' },
            ],
          },
        }),
        employee(702, 'Grady', 'Harness', 48000, 'male', 'Boston', 'Developer', 1, {
          manager: 701,
          fullData: { age: 30, telephone: ['555-0101'] },
        }),
        employee(710, 'Sherlock', 'Holmes', 150000, 'male', 'London', 'Accountant', 2),
        employee(714, 'Jane', 'Jones', 60000, 'female', 'New York', null, 1),
        employee(715, 'Bob', 'Jones', 30000, 'male', 'Paris', 'Developer', 1, { manager: 701 }),
      ],
      Address: [
        { ID: 1, city: 'Paris' },
        { ID: 2, city: 'Lyon' },
      ],
      Teacher: [
        { ID: 1, firstname: 'Ann', lastname: 'Archer', address: 1 },
        { ID: 2, firstname: 'Bea', lastname: 'Brook', address: 2 },
        { ID: 3, firstname: 'Cid', lastname: 'Cole' },
      ],
      Invoice: [
        'Cash',
        'Credit Card',
        'Check',
        'Cash',
        'Credit Card',
        'Check',
        'Cash',
        'Credit Card',
      ].map((payment, i) => ({ ID: i + 1, payment })),
      Student: [
        {
          ID: 1,
          lastname: 'Martin',
          nationality: 'French',
          marks: { english: 10, math: 18, history: 9 },
        },
        {
          ID: 2,
          lastname: 'Li',
          nationality: 'French',
          marks: { english: 16, math: 8, history: 14 },
        },
        {
          ID: 3,
          lastname: 'Bernardin',
          nationality: 'French',
          marks: { english: 12, math: 12, history: 12 },
        },
        {
          ID: 4,
          lastname: 'Smith',
          nationality: 'British',
          marks: { english: 20, math: 5, history: 5 },
        },
      ],
      Product: [10, 11, 12, 51, 52].map((ID) => ({ ID, name: `P${ID}` })),
    },
  })

/** The keys of a selection's live entities, in order. */
export const keysOf = (sel: Iterable<{ getKey(): unknown }>): unknown[] =>
  Array.from(sel, (e) => e.getKey())
