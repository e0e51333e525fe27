import { DatastoreError } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { parseRestUrl, type RestTarget } from './parse-rest-url.js'

const parse = (pathname: string, search = '', basePath = '/rest') =>
  parseRestUrl(pathname, search, basePath)

function parseError(pathname: string, search = ''): DatastoreError {
  try {
    parse(pathname, search)
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error(`expected ${pathname} to be refused`)
}

describe('parseRestUrl', () => {
  it.each<[string, RestTarget]>([
    ['/rest/$catalog', { kind: 'catalog', which: 'short' }],
    ['/rest/$catalog/', { kind: 'catalog', which: 'short' }],
    ['/rest/$catalog/$all', { kind: 'catalog', which: 'all' }],
    ['/rest/$catalog/Employee', { kind: 'catalogDataClass', name: 'Employee' }],
    ['/rest/$catalog/%24all', { kind: 'catalog', which: 'all' }],
    ['/rest/Employee', { kind: 'dataClass', dataClass: 'Employee' }],
    ['/rest/Employee/', { kind: 'dataClass', dataClass: 'Employee' }],
    ['/rest//Employee', { kind: 'dataClass', dataClass: 'Employee' }],
    ['/rest/Employee(3)', { kind: 'dataClass', dataClass: 'Employee', key: '3' }],
    ['/rest/Employee[3]', { kind: 'dataClass', dataClass: 'Employee', key: '3' }],
    ['/rest/Employee(%203%20)', { kind: 'dataClass', dataClass: 'Employee', key: '3' }],
    ['/rest/Company(%22IT09%22)', { kind: 'dataClass', dataClass: 'Company', key: 'IT09' }],
    ["/rest/Company('IT09')", { kind: 'dataClass', dataClass: 'Company', key: 'IT09' }],
    ['/rest/Company("IT09\')', { kind: 'dataClass', dataClass: 'Company', key: '"IT09\'' }],
    ['/rest/Company(""IT09"")', { kind: 'dataClass', dataClass: 'Company', key: '"IT09"' }],
    ['/rest/Tag(a%20b%2Fc)', { kind: 'dataClass', dataClass: 'Tag', key: 'a b/c' }],
    ['/rest/Tag(a+b)', { kind: 'dataClass', dataClass: 'Tag', key: 'a+b' }],
    ['/rest/Tag(%2B)', { kind: 'dataClass', dataClass: 'Tag', key: '+' }],
    ['/rest/Tag((x))', { kind: 'dataClass', dataClass: 'Tag', key: '(x)' }],
    ['/rest/Tag[(x)]', { kind: 'dataClass', dataClass: 'Tag', key: '(x)' }],
    ['/rest/%C3%89l%C3%A8ve(1)', { kind: 'dataClass', dataClass: 'Élève', key: '1' }],
    ['/rest/_x1', { kind: 'dataClass', dataClass: '_x1' }],
    [
      '/rest/Employee:lastName(Jones)',
      {
        kind: 'dataClass',
        dataClass: 'Employee',
        lookup: { attribute: 'lastName', value: 'Jones' },
      },
    ],
    [
      '/rest/Employee:lastName("O\'Leary")',
      {
        kind: 'dataClass',
        dataClass: 'Employee',
        lookup: { attribute: 'lastName', value: "O'Leary" },
      },
    ],
    [
      '/rest/Employee:lastName()',
      { kind: 'dataClass', dataClass: 'Employee', lookup: { attribute: 'lastName', value: '' } },
    ],
    [
      '/rest/Employee/lastName,firstName',
      { kind: 'dataClass', dataClass: 'Employee', attributes: ['lastName', 'firstName'] },
    ],
    [
      '/rest/Employee/%20lastName%20,,firstName,',
      { kind: 'dataClass', dataClass: 'Employee', attributes: ['lastName', 'firstName'] },
    ],
    [
      '/rest/Employee(3)/reports',
      { kind: 'dataClass', dataClass: 'Employee', key: '3', attributes: ['reports'] },
    ],
    [
      '/rest/Employee/$entityset/ABC',
      { kind: 'dataClass', dataClass: 'Employee', entitySet: 'ABC' },
    ],
  ])('reads %s', (pathname, target) => {
    expect(parse(pathname)).toEqual({ target, search: '' })
  })

  it('reads the attribute list before the entity set', () => {
    expect(parse('/rest/Employee/lastName/$entityset/ABC')?.target).toEqual({
      kind: 'dataClass',
      dataClass: 'Employee',
      attributes: ['lastName'],
      entitySet: 'ABC',
    })
  })

  it('returns undefined for a path that is not below the base path', () => {
    for (const p of ['/', '/restaurant', '/api/rest/Employee', '/Rest/Employee', '']) {
      expect(parse(p)).toBeUndefined()
    }
    expect(parse('/api/Employee', '', '/api')?.target).toEqual({
      kind: 'dataClass',
      dataClass: 'Employee',
    })
    expect(parse('/rest/Employee', '', '/api')).toBeUndefined()
  })

  it('passes the query string through untouched', () => {
    expect(parse('/rest/Employee', '$top=2&x=%20')?.search).toBe('$top=2&x=%20')
  })

  it('moves a query written as a path segment into the query string, before the real one', () => {
    expect(parse('/rest/Employee/$filter="ID=1"&$top=2')).toEqual({
      target: { kind: 'dataClass', dataClass: 'Employee' },
      search: '$filter="ID=1"&$top=2',
    })
    expect(parse('/rest/Employee/$top=2/x', '$skip=1')).toEqual({
      target: { kind: 'dataClass', dataClass: 'Employee' },
      search: '$top=2/x&$skip=1',
    })
    expect(parse('/rest/$catalog/$4DSID=X')).toEqual({
      target: { kind: 'catalog', which: 'short' },
      search: '$4DSID=X',
    })
    // Without `=`, a `$` segment is a path segment.
    expect(parse('/rest/$catalog/$all')?.search).toBe('')
  })

  it.each([
    ['/rest', 'expected a dataclass or $catalog after /rest'],
    ['/rest/', 'expected a dataclass or $catalog after /rest'],
    ['/rest/$top=1', 'expected a dataclass or $catalog after /rest'],
    ['/rest/Employee()', 'the key between the brackets is empty'],
    ['/rest/Employee[]', 'the key between the brackets is empty'],
    ['/rest/Employee(%20)', 'the key between the brackets is empty'],
    ["/rest/Employee('')", 'the key between the brackets is empty'],
    ['/rest/Employee(1', '"Employee(1" is not a dataclass name'],
    ['/rest/Employee(1]', '"Employee(1]" is not a dataclass name'],
    ['/rest/Employee[1)', '"Employee[1)" is not a dataclass name'],
    ['/rest/Employee:(1)', '"Employee:(1)" is not a dataclass name'],
    ['/rest/Employee:x', '"Employee:x" is not a dataclass name'],
    ['/rest/(1)', '"(1)" is not a dataclass name'],
    ['/rest/9lives', '"9lives" is not a dataclass name'],
    ['/rest/a-b', '"a-b" is not a dataclass name'],
    ['/rest/a%2Fb', '"a/b" is not a dataclass name'],
    ['/rest/%zz', '"%zz" is not a dataclass name'],
    ['/rest/$catalog/Employee/ID', '$catalog takes at most one more segment'],
    ['/rest/Employee/$entityset', '$entityset must follow a dataclass'],
    ['/rest/Employee(1)/$entityset/X', '$entityset must follow a dataclass'],
    ['/rest/Employee:a(1)/$entityset/X', '$entityset must follow a dataclass'],
    ['/rest/Employee/a/b', 'unexpected segment "b"'],
    // The attribute list comes before the entity set, not after.
    ['/rest/Employee/$entityset/ABC/payroll/more', 'unexpected segment "payroll"'],
    ['/rest/Employee/a,b/$entityset/ABC/payroll', 'unexpected segment "payroll"'],
    ['/rest/$singleton/Stats', 'expected /$singleton/{singleton}/{function}'],
    ['/rest/$singleton/Stats/status/x', 'expected /$singleton/{singleton}/{function}'],
    ['/rest/Employee/,', 'an empty list of attributes'],
    ['/rest/%C3%28', 'is not valid percent-encoded UTF-8'],
  ])('refuses %s with 1806', (pathname, why) => {
    const e = parseError(pathname)
    expect([e.name, e.errCode]).toEqual(['UrlMalformed', 1806])
    expect(e.message).toContain(why)
    expect(e.message).toContain(`The URL "${pathname}`)
  })

  it('names the whole URL, query included, in a malformed-URL message', () => {
    expect(parseError('/rest/', '$top=1').message).toBe(
      'The URL "/rest/?$top=1" is malformed: expected a dataclass or $catalog after /rest',
    )
  })

  it('reads the URLs of class functions', () => {
    const target = (path: string) => parseRestUrl(path, '', '/rest')!.target
    expect(target('/rest/$singleton/Stats/status')).toEqual({
      kind: 'singleton',
      singleton: 'Stats',
      function: 'status',
    })
    expect(target('/rest/$catalog/authentify')).toEqual({
      kind: 'catalogDataClass',
      name: 'authentify',
    })
    expect(target('/rest/Employee(3)/raise')).toEqual({
      kind: 'dataClass',
      dataClass: 'Employee',
      key: '3',
      attributes: ['raise'],
    })
    // A selection function, after a set or before it; 4D's own `…/{fn}/$entityset/?$filter=`.
    for (const path of [
      '/rest/Employee/$entityset/ABC/payroll',
      '/rest/Employee/payroll/$entityset/ABC',
    ])
      expect(target(path)).toEqual({
        kind: 'dataClass',
        dataClass: 'Employee',
        entitySet: 'ABC',
        attributes: ['payroll'],
      })
    expect(target('/rest/Employee/payroll/$entityset/')).toEqual({
      kind: 'dataClass',
      dataClass: 'Employee',
      attributes: ['payroll'],
    })
  })

  it('reads $upload, which takes no more segments', () => {
    expect(parseRestUrl('/rest/$upload', '$rawPict=true', '/rest')).toEqual({
      target: { kind: 'upload' },
      search: '$rawPict=true',
    })
    expect(parseRestUrl('/rest/$upload/$binary=true', '', '/rest')?.search).toBe('$binary=true')
    expect(parseError('/rest/$upload/x').errCode).toBe(1806)
  })

  it('answers a real server resource this version lacks with 501 9010', () => {
    for (const r of ['$getWebForm']) {
      const e = parseError(`/rest/${r}/x`)
      expect([e.name, e.errCode, e.message]).toEqual([
        'NotImplemented',
        9010,
        `The ${r} resource is not supported by this version of Entistore`,
      ])
    }
  })

  it('reads the four $directory actions; anything else there is 9031', () => {
    for (const action of ['login', 'logout', 'currentUser', 'currentUserBelongsTo'])
      expect(parseRestUrl(`/rest/$directory/${action}`, '', '/rest')?.target).toEqual({
        kind: 'directory',
        action,
      })
    for (const p of ['/rest/$directory', '/rest/$directory/nope', '/rest/$directory/login/x'])
      expect(parseError(p).errCode).toBe(9031)
  })

  it('refuses an unknown $ resource with 9031', () => {
    for (const p of ['/rest/$nothing', '/rest/$all', '/rest/$entityset/X', '/rest/$entityset']) {
      const e = parseError(p)
      expect([e.name, e.errCode, e.message]).toEqual([
        'UnknownResource',
        9031,
        `Nothing is served at "${p}"`,
      ])
    }
  })

  it('takes Object.prototype names as plain names', () => {
    expect(parse('/rest/__proto__')?.target).toEqual({ kind: 'dataClass', dataClass: '__proto__' })
    expect(parse('/rest/constructor(1)')?.target).toEqual({
      kind: 'dataClass',
      dataClass: 'constructor',
      key: '1',
    })
    expect(parse('/rest/$catalog/__proto__')?.target).toEqual({
      kind: 'catalogDataClass',
      name: '__proto__',
    })
    const lookup = parse('/rest/T:__proto__(__proto__)')?.target
    expect(lookup).toEqual({
      kind: 'dataClass',
      dataClass: 'T',
      lookup: { attribute: '__proto__', value: '__proto__' },
    })
    expect(Object.getPrototypeOf(lookup)).toBe(Object.prototype)
  })
})
