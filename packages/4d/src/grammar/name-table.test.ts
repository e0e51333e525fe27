import { describe, expect, it } from 'vitest'
import { NameTable } from './name-table.js'

describe('NameTable', () => {
  const table = new NameTable([
    ['SEND REPORT', 1],
    ['SEND REPORT NOW', 2],
    ['Prix unitaire réel', 3],
  ])

  it('matches the longest name at a point, without case, ending where a word ends', () => {
    expect(table.match('x:=send report now(1)', 3)).toEqual({ length: 15, value: 2 })
    expect(table.match('SEND REPORT NOWADAYS', 0)).toEqual({ length: 11, value: 1 })
    expect(table.match('SEND REPORTS', 0)).toBeNull()
    expect(table.match('SEND  REPORT', 0)).toBeNull()
  })

  it('reads words of accented letters as the grammar does', () => {
    expect(table.match('Prix unitaire réel+1', 0)).toEqual({ length: 18, value: 3 })
  })

  it('keeps the first of a name listed twice and says so', () => {
    const twice: string[] = []
    const t = new NameTable(
      [
        ['A b', 1],
        ['a B', 2],
      ],
      (n) => twice.push(n),
    )
    expect(t.get('A B')).toBe(1)
    expect(twice).toEqual(['a B'])
  })
})
