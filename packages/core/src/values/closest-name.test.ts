import { describe, expect, it } from 'vitest'
import { closest, editDistance } from './closest-name.js'

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'port', 4],
    ['port', '', 4],
    ['port', 'port', 0],
    ['prot', 'port', 1], // one swap
    ['pot', 'port', 1], // one insertion
    ['portt', 'port', 1], // one deletion
    ['purt', 'port', 1], // one substitution
    ['modle', 'model', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3], // optimal string alignment: a swapped pair is not edited again
  ])('%j → %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d)
    expect(editDistance(b, a)).toBe(d)
  })
})

describe('closest', () => {
  const options = ['model', 'data', 'users', 'port', 'host', 'help', 'version']
  it('finds the name a typo meant', () => {
    expect(closest('prot', options)).toBe('port')
    expect(closest('modle', options)).toBe('model')
    expect(closest('user', options)).toBe('users')
    expect(closest('verison', options)).toBe('version')
    expect(closest('serv', ['serve'])).toBe('serve')
  })

  it('suggests nothing for another word', () => {
    expect(closest('nope', options)).toBeUndefined()
    expect(closest('start', ['serve'])).toBeUndefined()
    expect(closest('x', options)).toBeUndefined()
  })

  it('prefers the closest, then the first listed', () => {
    expect(closest('hest', ['help', 'host'])).toBe('host')
    expect(closest('hos', ['host', 'hose'])).toBe('host')
  })
})
