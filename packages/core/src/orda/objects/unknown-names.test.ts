import { describe, expect, it } from 'vitest'
import { thrown } from '../../errors/thrown.fixture.js'
import { pageExamples } from './entity-selection.fixture.js'

// Issue 52, item 7: an unknown name's error ends with the close names ("did you mean"), wherever
// the name was typed; errCode, componentSignature and category stay as they were.

// The examples' Company (ID, name, staff) and Employee (ID, firstName, lastName, salary, …).
const ds = pageExamples()

const notFound = (name: string, dc: string, meant: string) => ({
  name: 'AttributeNotFound',
  errCode: 1500,
  componentSignature: 'dbmg',
  category: 'notFound',
  message: `The "${name}" attribute cannot be found in The "${dc}" dataclass (did you mean ${meant}?)`,
})

describe('an unknown name suggests the close ones', () => {
  it('in a query, its placeholders and its order, a path included', () => {
    expect(thrown(() => ds.Employee.query('nmae = :1', 'x'))).toMatchObject(
      // `name` is Company's: a query of Employee suggests Employee's names.
      {
        errCode: 1500,
        message: 'The "nmae" attribute cannot be found in The "Employee" dataclass',
      },
    )
    expect(thrown(() => ds.Employee.query('lastname = :1', 'x'))).toMatchObject(
      notFound('lastname', 'Employee', '"lastName"'),
    )
    expect(thrown(() => ds.Employee.query('employer.nmae = :1', 'x'))).toMatchObject(
      notFound('nmae', 'Company', '"name"'),
    )
    expect(thrown(() => ds.Employee.query(':1 = :2', 'first name', 'x'))).toMatchObject(
      notFound('first name', 'Employee', '"firstName"'),
    )
    expect(thrown(() => ds.Employee.query('fistName = :1', 'x'))).toMatchObject(
      notFound('fistName', 'Employee', '"firstName" or "lastName"'),
    )
    expect(thrown(() => ds.Employee.all().orderBy('salry desc'))).toMatchObject({
      errCode: 1810,
      message:
        'Wrong list of attributes to order by "salry": "salry" is not an attribute of Employee (did you mean "salary"?)',
    })
  })

  it('in a read, an aggregate and a write', () => {
    const ada = ds.Employee.get(610)!
    expect(thrown(() => ada.get('salry' as 'salary'))).toMatchObject(
      notFound('salry', 'Employee', '"salary"'),
    )
    expect(thrown(() => ds.Employee.attribute('lastNam'))).toMatchObject(
      notFound('lastNam', 'Employee', '"lastName"'),
    )
    expect(thrown(() => ds.Employee.all().sum('salray'))).toMatchObject(
      notFound('salray', 'Employee', '"salary"'),
    )
    expect(thrown(() => ds.Employee.all().distinct('lastNme'))).toMatchObject(
      notFound('lastNme', 'Employee', '"lastName"'),
    )
    expect(
      thrown(() => ds.Employee.new({ ID: 2, lastNme: 'x' } as { ID: number }).save()),
    ).toMatchObject({
      ...notFound('lastNme', 'Employee', '"lastName"'),
      name: 'UnknownAttribute',
      category: 'badRequest',
    })
  })

  it('of a dataclass, among the datastore', () => {
    expect(thrown(() => ds.dataClass('Employe' as 'Employee'))).toMatchObject({
      name: 'DataClassNotFound',
      errCode: 1800,
      componentSignature: 'dbmg',
      message: 'The "Employe" dataclass cannot be found (did you mean "Employee"?)',
    })
    expect(thrown(() => ds.changes({ dataClasses: ['company'] }))).toMatchObject({
      errCode: 1800,
      message: 'The "company" dataclass cannot be found (did you mean "Company"?)',
    })
    expect(thrown(() => ds.dataClass('Nothing' as 'Company')).message).toBe(
      'The "Nothing" dataclass cannot be found',
    )
  })
})
