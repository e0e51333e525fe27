import { describe, expect, it } from 'vitest'
import { closest, closestNames, didYouMean, editDistance } from './closest-name.js'

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

describe('editDistance with a limit', () => {
  it('stops past it, at once for lengths too far apart', () => {
    expect(editDistance('kitten', 'sitting', 1)).toBe(2)
    expect(editDistance('kitten', 'sitting', 3)).toBe(3)
    expect(editDistance('x'.repeat(100_000), 'salary', 2)).toBe(3)
    expect(editDistance('salary'.repeat(10_000), 'salary', 2)).toBe(3)
  })
})

const EMPLOYEE = ['ID', 'firstName', 'lastName', 'salary', 'birthDate', 'employer', 'manager']

describe('closestNames', () => {
  it('suggests the close names, case ignored, closest first', () => {
    expect(closestNames('lastname', EMPLOYEE)).toEqual(['lastName'])
    expect(closestNames('nmae', ['name', 'age'])).toEqual(['name'])
    expect(closestNames('salry', EMPLOYEE)).toEqual(['salary'])
    expect(closestNames('fistName', EMPLOYEE)).toEqual(['firstName', 'lastName'])
    expect(closestNames('id', EMPLOYEE)).toEqual(['ID'])
  })

  it('suggests nothing when nothing is close, nor anything for an empty name', () => {
    expect(closestNames('wage', EMPLOYEE)).toEqual([])
    expect(closestNames('x', EMPLOYEE)).toEqual([])
    expect(closestNames('', ['a'])).toEqual([])
    expect(closestNames('salary', [])).toEqual([])
  })

  it('allows a third of the known name in edits, one at least, two at most', () => {
    expect(closestNames('nxmx', ['name'])).toEqual([])
    expect(closestNames('nxme', ['name'])).toEqual(['name'])
    expect(closestNames('sly', ['salary'])).toEqual([])
    expect(closestNames('slaryy', ['salary'])).toEqual(['salary'])
    expect(closestNames('lstNme', ['lastName'])).toEqual(['lastName'])
    expect(closestNames('abcdefghiXYZ', ['abcdefghijkl'])).toEqual([])
  })

  it('gives three at most (or as many as asked), in the order given among equals', () => {
    expect(closestNames('ab', ['aX', 'Xb', 'ba', 'a', 'abc'])).toEqual(['aX', 'Xb', 'ba'])
    expect(closestNames('ab', ['aX', 'Xb'], 1)).toEqual(['aX'])
    expect(closestNames('ab', ['aX', 'aX', 'Xb'])).toEqual(['aX', 'Xb'])
  })
})

describe('didYouMean', () => {
  it('ends a message with one, two or three names, or with nothing', () => {
    expect(didYouMean('salry', EMPLOYEE)).toBe(' (did you mean "salary"?)')
    expect(didYouMean('fistName', EMPLOYEE)).toBe(' (did you mean "firstName" or "lastName"?)')
    expect(didYouMean('ab', ['aX', 'Xb', 'ba'])).toBe(' (did you mean "aX", "Xb" or "ba"?)')
    expect(didYouMean('wage', EMPLOYEE)).toBe('')
  })
})
