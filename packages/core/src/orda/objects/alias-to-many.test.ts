/**
 * Aliases whose path crosses a to-many relation, as 4D's page defines them (ORDA/ordaClasses.md,
 * "Alias attributes"): Teacher —1→N→ Course —N→1→ Student, `Alias students courses.student` in
 * TeacherEntity and `Alias teachers courses.teacher` in StudentEntity, each "an entity selection"
 * of the other side; `ds.Teacher.query("students.name = :1"; "Martin")` works.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from './datastore.js'
import type { EntitySelection } from './entity-selection.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Teacher',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'courses', kind: 'relatedEntities', path: 'teacher' },
        { name: 'students', kind: 'alias', path: 'courses.student' },
        { name: 'studentNames', kind: 'alias', path: 'courses.student.name' },
      ],
      key: [{ name: 'ID' }],
    },
    {
      name: 'Student',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'courses', kind: 'relatedEntities', path: 'student' },
        { name: 'teachers', kind: 'alias', path: 'courses.teacher' },
      ],
      key: [{ name: 'ID' }],
    },
    {
      name: 'Course',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string' },
        { name: 'teacherID', type: 'long' },
        { name: 'studentID', type: 'long' },
        { name: 'teacher', kind: 'relatedEntity', path: 'Teacher', foreignKey: 'teacherID' },
        { name: 'student', kind: 'relatedEntity', path: 'Student', foreignKey: 'studentID' },
      ],
      key: [{ name: 'ID' }],
    },
  ],
}

const data = {
  Teacher: [
    { ID: 1, name: 'Smith' },
    { ID: 2, name: 'Jones' },
  ],
  Student: [
    { ID: 10, name: 'Martin' },
    { ID: 11, name: 'Durand' },
    { ID: 12, name: 'Lopez' },
  ],
  Course: [
    { ID: 100, name: 'Math', teacherID: 1, studentID: 10 },
    { ID: 101, name: 'Physics', teacherID: 1, studentID: 11 },
    { ID: 102, name: 'Math', teacherID: 1, studentID: 10 },
    { ID: 103, name: 'Art', teacherID: 2, studentID: 12 },
  ],
}

const keys = (s: unknown): unknown[] =>
  (s as EntitySelection)
    .toArray()
    .map((e) => e.getKey())
    .sort()

describe('an alias through a to-many relation (4D ordaClasses.md, "Alias attributes")', () => {
  const ds = createDatastore(model, { data })

  it('holds the entity selection its last relation reaches, each entity once', () => {
    expect(keys(ds.dataClass('Teacher').get(1)!.get('students'))).toEqual([10, 11])
    expect(keys(ds.dataClass('Student').get(10)!.get('teachers'))).toEqual([1])
    expect(keys(ds.dataClass('Teacher').get(2)!.get('students'))).toEqual([12])
  })

  it('is typed as the selection of its target, with kind alias and its path', () => {
    const students = ds.dataClass('Teacher').def.attributesByName.get('students')!
    expect(students).toMatchObject({
      kind: 'alias',
      type: 'StudentSelection',
      path: ['courses', 'student'],
      many: true,
    })
  })

  it('ending on a value, holds the values over the selection, as selection.attribute does', () => {
    const names = ds.dataClass('Teacher').get(1)!.get('studentNames') as { length: number }
    expect([...(names as unknown as Iterable<string>)].sort()).toEqual(['Durand', 'Martin'])
  })

  it('queries as its path: ds.Teacher.query("students.name = :1"; "Martin")', () => {
    expect(keys(ds.dataClass('Teacher').query('students.name = :1', 'Martin'))).toEqual([1])
    expect(keys(ds.dataClass('Student').query('teachers.name = :1', 'Jones'))).toEqual([12])
  })

  it('is not an aggregate of one value', () => {
    expect(() => ds.dataClass('Teacher').all().sum('studentNames')).toThrow(/to-many/)
  })
})
