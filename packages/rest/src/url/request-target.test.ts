import { describe, expect, it } from 'vitest'
import { isHostHeader, splitTarget } from './request-target.js'

describe('splitTarget', () => {
  it.each<[string, string, string]>([
    ['/rest/Employee(1)', '/rest/Employee(1)', ''],
    ['/rest/Employee?$top=2&$skip=1', '/rest/Employee', '$top=2&$skip=1'],
    ['/rest/Employee?', '/rest/Employee', ''],
    ['/rest/Employee?a=1?b=2', '/rest/Employee', 'a=1?b=2'],
    ['/rest/Employee(1)#frag', '/rest/Employee(1)', ''],
    ['/rest/Employee?$top=1#frag?x', '/rest/Employee', '$top=1'],
    ['/rest/a#b?c', '/rest/a', ''],
    ['//elsewhere/rest/$catalog', '//elsewhere/rest/$catalog', ''],
    ['/rest/%24catalog', '/rest/%24catalog', ''],
    ['http://elsewhere/rest/Employee(1)', '/rest/Employee(1)', ''],
    ['HTTP://h:8080/rest/x?y=1', '/rest/x', 'y=1'],
    ['http://user:pw@h/rest/x', '/rest/x', ''],
    ['http://[::1]:80/rest/x', '/rest/x', ''],
    ['http://h?x=1', '/', 'x=1'],
    ['http://h', '/', ''],
    ['*', '*', ''],
  ])('reads %j as path %j and query %j', (target, path, query) => {
    expect(splitTarget(target)).toEqual({ path, query })
  })

  it.each(['http://[/rest/$catalog', 'http://a b/rest', 'http://a"b/rest', 'http://h:8o/x'])(
    'refuses the absolute-form target %j, whose authority is no host',
    (target) => {
      expect(splitTarget(target)).toBeUndefined()
    },
  )

  it('never takes a host out of an origin-form path', () => {
    // Only the request line chooses what is served: `//x` and `/http://x` are paths.
    expect(splitTarget('/http://x/rest/Doc(2)')?.path).toBe('/http://x/rest/Doc(2)')
  })
})

describe('isHostHeader', () => {
  it.each([
    'localhost',
    'localhost:8080',
    '127.0.0.1:80',
    '[::1]',
    '[::1]:8080',
    'a-b.example',
    '',
  ])('accepts %j', (host) => expect(isHostHeader(host)).toBe(true))
  it.each(['x/rest/Doc(2)#', '[::1', 'a b', 'h:80/x', 'user@h', 'h?x', 'h#', 'bücher.de', 'h:8o'])(
    'refuses %j',
    (host) => expect(isHostHeader(host)).toBe(false),
  )
})
