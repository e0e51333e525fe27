import { describe, expect, it } from 'vitest'
import { readRequestNames } from './request-names.js'

const get = (path: string, query = '') => readRequestNames({ method: 'GET', path, query }, '/rest')
const post = (path: string, query = '') =>
  readRequestNames({ method: 'POST', path, query }, '/rest')

describe('readRequestNames', () => {
  it.each([
    ['$lock=true', true],
    ['%24lock=true', true],
    ['%24LOCK=%22true%22', true],
    ['$Lock=1', true],
    ['$lock', true],
    ['%24lock=false', false],
    ['$lock=0&$top=1', false],
  ])('reads the lock in ?%s however it is written', (query, wanted) => {
    expect(get('/rest/Employee(3)', query).lock).toEqual({
      dataClass: 'Employee',
      key: '3',
      wanted,
    })
  })

  it('reads a lock on a key written with brackets or quotes', () => {
    expect(get('/rest/Person[6F9619FF]', '%24lock=true').lock?.key).toBe('6F9619FF')
    expect(get("/rest/Person('A B')", '$lock=true').lock?.key).toBe('A B')
  })

  it('names no lock without a key, and none for a value the handler refuses', () => {
    expect(get('/rest/Employee', '$lock=true').lock).toBeUndefined()
    expect(get('/rest/Employee(3)', '$lock=maybe').lock).toBeUndefined()
  })

  it('reads the session given in the URL, encoded or quoted', () => {
    expect(get('/rest/Employee', '%244DSID=%22abc%22').sessionId).toBe('abc')
    expect(get('/rest/Employee', '$4dsid=abc').sessionId).toBe('abc')
  })

  it('reads the entity sets of the path and of $otherCollection', () => {
    expect(
      get('/rest/Employee/$entityset/S1', '%24logicOperator=AND&%24otherCollection=%22S2%22')
        .entitySets,
    ).toEqual(['S1', 'S2'])
    expect(get('/rest/Employee/%24entityset/S1').entitySets).toEqual(['S1'])
    // 4D 21 R4's POST of ids to release (REST/$entityset.md): `$release` is no set's id.
    expect(post('/rest/Employee/$entityset/$release', '')).toMatchObject({
      entitySets: [],
      writes: true,
      dataWrite: false,
    })
    // Without a dataclass (4D's quota demo), and its POST of `$info`, which only reads.
    expect(post('/rest/$entityset/$release', '')).toMatchObject({
      target: { kind: 'releaseSets' },
      writes: true,
    })
    expect(post('/rest/$info', '')).toMatchObject({ target: { kind: 'info' }, writes: false })
  })

  it('tells writes from reads by the parsed $method, in any case and encoding', () => {
    expect(post('/rest/Employee', '$method=update')).toMatchObject({
      writes: true,
      dataWrite: true,
    })
    expect(post('/rest/Employee(1)', '%24METHOD=delete')).toMatchObject({
      writes: true,
      dataWrite: true,
    })
    expect(post('/rest/Employee/raise', '')).toMatchObject({ writes: true, dataWrite: false })
    expect(post('/rest/Employee/$entityset/S1', '$method=update').dataWrite).toBe(false)
    expect(get('/rest/Employee', '%24method=entityset').writes).toBe(false)
    expect(get('/rest/Employee', '%24method=delete').writes).toBe(true)
    expect(get('/rest/Employee(1)', '$lock=true').writes).toBe(false)
  })

  it('names nothing in a URL the handler refuses, and a POST still writes', () => {
    const bad = { target: undefined, sessionId: undefined, entitySets: [], lock: undefined }
    expect(get('/rest/Employee(3)', '$lock=true&$bogus=1')).toEqual({
      ...bad,
      writes: false,
      dataWrite: false,
    })
    expect(post('/elsewhere', '$method=update')).toEqual({ ...bad, writes: true, dataWrite: false })
    expect(get('/rest/Employee', '%E0%A4%A=1').writes).toBe(false)
  })
})
