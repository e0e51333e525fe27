import { describe, expect, it } from 'vitest'
import { DatastoreError, datastoreError, fail } from './datastore-error.js'
import { ERRORS, type ErrorName } from './err-codes.js'

describe('datastoreError', () => {
  it("builds an error with the table's code, signature, category and message", () => {
    const e = datastoreError('EntityNotFound', ['99', 'Employee'])
    expect(e).toBeInstanceOf(Error)
    expect(e).toBeInstanceOf(DatastoreError)
    expect(e).toMatchObject({
      name: 'EntityNotFound',
      errCode: 1542,
      componentSignature: 'dbmg',
      category: 'notFound',
      message: 'Cannot find entity with "99" key in the "Employee" dataclass',
      details: undefined,
    })
  })

  it('keeps the details and the cause, and has no cause when none is given', () => {
    const cause = new Error('low level')
    const e = datastoreError('InvalidData', ['Employee[3]', 'bad'], { cause, details: { row: 3 } })
    expect(e.cause).toBe(cause)
    expect(e.details).toEqual({ row: 3 })
    expect('cause' in datastoreError('Internal', ['x'])).toBe(false)
  })

  it("keeps 4D's wording, quirks included", () => {
    expect(datastoreError('AttributeNotFound', ['nope', 'Employee']).message).toBe(
      'The "nope" attribute cannot be found in The "Employee" dataclass',
    )
    expect(datastoreError('DataClassNotFound', ['Nope']).message).toBe(
      'The "Nope" dataclass cannot be found',
    )
    expect(datastoreError('InvalidModel', ['dataclass "A"', 'why']).message).toBe(
      'Invalid model: dataclass "A": why',
    )
  })
})

describe('fail', () => {
  it('throws the error datastoreError would build', () => {
    expect(() => fail('DataClassNotFound', ['Nope'])).toThrow(
      expect.objectContaining({ errCode: 1800, message: 'The "Nope" dataclass cannot be found' }),
    )
  })
})

describe('DatastoreError.is', () => {
  it('recognises DatastoreErrors and refuses other values', () => {
    expect(DatastoreError.is(datastoreError('Internal', ['x']))).toBe(true)
    expect(DatastoreError.is(new Error('x'))).toBe(false)
    expect(DatastoreError.is({ errCode: 1800 })).toBe(false)
    expect(DatastoreError.is(null)).toBe(false)
    expect(DatastoreError.is('DatastoreError')).toBe(false)
  })

  it('recognises an error from another copy of the package by its registry symbol', () => {
    // A second copy has another class, so instanceof fails; the Symbol.for footprint is shared.
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@entistore/core:DatastoreError')]: true,
    })
    expect(foreign instanceof DatastoreError).toBe(false)
    expect(DatastoreError.is(foreign)).toBe(true)
  })
})

describe('stack4D', () => {
  it('lists the error and its DatastoreError causes, stopping at the first other cause', () => {
    const root = datastoreError('InvalidKey', ['x', 'Company', 'not a number'], {
      cause: new TypeError('deep'),
    })
    const mid = datastoreError('InvalidData', ['Employee[0].employer', 'bad key'], { cause: root })
    const top = datastoreError('BadRequestBody', ['bad'], { cause: mid })
    expect(top.stack4D()).toEqual([top, mid, root])
    expect(root.stack4D()).toEqual([root])
  })

  it('stops after 16 errors on a cyclic cause chain', () => {
    const a = datastoreError('Internal', ['a'])
    const b = datastoreError('Internal', ['b'], { cause: a })
    ;(a as { cause?: unknown }).cause = b
    expect(a.stack4D()).toHaveLength(16)
  })
})

describe('the error table', () => {
  const entries = Object.entries(ERRORS) as [ErrorName, (typeof ERRORS)[ErrorName]][]

  it("uses Entistore's own 9000 range exactly for the codes signed 'enti'", () => {
    for (const [name, spec] of entries) {
      expect({ name, enti: spec.errCode >= 9000 }).toEqual({
        name,
        enti: spec.componentSignature === 'enti',
      })
    }
  })

  it('gives every error a distinct code, except where 4D shares one', () => {
    // 4D reports both a malformed URL and a bad $ parameter as 1806, and an unknown attribute as
    // 1500 wherever it is named (a path is 404, a write body 400).
    const byCode = new Map<number, string[]>()
    for (const [name, spec] of entries)
      byCode.set(spec.errCode, [...(byCode.get(spec.errCode) ?? []), name])
    const shared = [...byCode.values()].filter((names) => names.length > 1)
    expect(shared).toEqual([
      ['AttributeNotFound', 'UnknownAttribute'],
      ['UrlMalformed', 'InvalidParameter'],
      // 401 for a guest that must log in first, 403 for a session `authorize` refuses.
      ['NoPermissionToRead', 'ReadRefused'],
      // …and for an upload from a session that may store no file anywhere.
      ['NoPermissionToUpdate', 'UpdateRefused', 'UploadForbidden'],
      // An HTTP handler's function or class not found: the REST call's codes, in 4D's words.
      ['FunctionNotFound', 'HandlerFunctionNotFound'],
      ['SingletonNotFound', 'HandlerSingletonNotFound'],
    ])
  })

  it('reserves the internal category for Internal', () => {
    expect(entries.filter(([, s]) => s.category === 'internal').map(([n]) => n)).toEqual([
      'Internal',
    ])
  })
})
