import { describe, expect, it } from 'vitest'
import { usersAuthenticate } from './users.js'

describe('usersAuthenticate', () => {
  const auth = usersAuthenticate({
    ada: { password: 'secret', groups: ['Sales'] },
    bob: { password: '' },
  })
  const check = (user: string, password: string) => auth({ user, password, headers: {} })

  it('returns the user for the right password, null otherwise or for an unknown user', () => {
    expect(check('ada', 'secret')).toEqual({ name: 'ada', groups: ['Sales'] })
    expect(check('bob', '')).toEqual({ name: 'bob', groups: [] })
    expect(check('ada', 'Secret')).toBeNull()
    expect(check('eve', 'secret')).toBeNull()
    expect(check('eve', '')).toBeNull()
  })

  it('says what is wrong with a users file', () => {
    expect(() => usersAuthenticate([])).toThrow('expected an object')
    expect(() => usersAuthenticate({ a: { password: 1 } })).toThrow('user "a": expected')
    expect(() => usersAuthenticate({ a: { password: 'p', groups: 'x' } })).toThrow(
      'user "a": "groups" must be an array of names',
    )
  })
})
