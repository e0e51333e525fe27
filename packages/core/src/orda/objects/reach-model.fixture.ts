/**
 * @module For tests: companies in countries and their employees, with aliases through the
 * relations: what the paths of a query reach (query/classes-reached.test.ts, reached-steps.test.ts).
 */
import type { ModelJson } from '../../schema/model-json.js'

export const REACH_MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Company',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'open', type: 'bool' },
        { name: 'countryID', type: 'long' },
        { name: 'country', kind: 'relatedEntity', path: 'Country', foreignKey: 'countryID' },
        { name: 'staff', kind: 'relatedEntities', path: 'employer' },
      ],
    },
    {
      name: 'Country',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
      ],
    },
    {
      name: 'Employee',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'lastName', type: 'string' },
        { name: 'extra', type: 'object' },
        { name: 'employerID', type: 'long' },
        { name: 'employer', kind: 'relatedEntity', path: 'Company', foreignKey: 'employerID' },
        { name: 'employerName', kind: 'alias', path: 'employer.name' },
        { name: 'countryName', kind: 'alias', path: 'employer.country.name' },
      ],
    },
  ],
}
