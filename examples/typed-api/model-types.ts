// The types of the model "company-demo", written by `entistore types --model examples/company/model.json`.
// Do not edit: run the command again when the model changes. See docs/typed-models.md.
import type * as entistore from '@entistore/core'

/** Each dataclass with what its attributes read as. */
export interface Model {
  Company: {
    ID: number
    name: string | null
    city: string | null
    country: string | null
    revenues: number | null
    founded: string | null
    logo: entistore.BinaryValue | null
    staff: entistore.RelatedEntities<'Employee'>
  }
  Employee: {
    ID: number
    firstName: string | null
    lastName: string | null
    salary: number | null
    birthDate: string | null
    active: boolean | null
    extra: entistore.ObjectValue | null
    employerID: number | null
    employer: entistore.RelatedEntity<'Company'>
    manager: entistore.RelatedEntity<'Employee'>
    reports: entistore.RelatedEntities<'Employee'>
    employerName: entistore.Computed<string | null>
  }
  Project: {
    ID: string
    title: string | null
    budget: number | null
    company: entistore.RelatedEntity<'Company'>
  }
}

/** What `createDatastore<Model>(model, options)` returns: `ds.Employee`, typed. */
export type TypedDatastore = entistore.DatastoreOf<Model>

export type Company = entistore.Entity<Model, 'Company'>
export type CompanySelection = entistore.EntitySelection<Model, 'Company'>

export type Employee = entistore.Entity<Model, 'Employee'>
export type EmployeeSelection = entistore.EntitySelection<Model, 'Employee'>

export type Project = entistore.Entity<Model, 'Project'>
export type ProjectSelection = entistore.EntitySelection<Model, 'Project'>
