import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DATA_TABLES, MAX_LINES, counted, fileSizeProblems, lineCount } from './file-size.ts'

const root = new URL('..', import.meta.url).pathname
const lines = (n: number): string => 'x\n'.repeat(n)

describe('file size', () => {
  it('refuses a source file past the limit and names it', () => {
    const problems = fileSizeProblems('packages/core/src/store/big.ts', lines(MAX_LINES + 1))
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/^packages\/core\/src\/store\/big\.ts: 501 lines, more than 500/)
  })

  it('takes a file of exactly the limit', () => {
    expect(fileSizeProblems('packages/rest/src/a.ts', lines(MAX_LINES))).toEqual([])
  })

  it('counts lines as wc -l does, a last line without a newline included', () => {
    expect(lineCount('')).toBe(0)
    expect(lineCount('a\nb\n')).toBe(2)
    expect(lineCount('a\nb')).toBe(2)
  })

  it('leaves out tests, fixtures, generated code, build output and declarations', () => {
    for (const path of [
      'packages/core/src/store/table.test.ts',
      'packages/core/src/store/table.prop.test.ts',
      'packages/core/src/query/movies.fixture.ts',
      'packages/core/src/query/grammar/generated/filter-parser.ts',
      'packages/core/dist/store/table.js',
      'packages/core/dist/store/table.d.ts',
    ])
      expect(fileSizeProblems(path, lines(MAX_LINES * 3)), path).toEqual([])
  })

  it('leaves out the data tables, each one a file that exists', () => {
    expect(DATA_TABLES).toContain('packages/core/src/errors/err-codes.ts')
    for (const path of DATA_TABLES) expect(counted(path)).toBe(false)
  })

  it('counts every folder, orda/ and the command-line package among them', () => {
    expect(counted('packages/core/src/orda/objects/entity.ts')).toBe(true)
    expect(counted('packages/entistore/src/files/data-stream.ts')).toBe(true)
    expect(counted('packages/entistore/explorer/src/app.ts')).toBe(true)
    expect(counted('packages/core/src/order.ts')).toBe(true)
  })

  it('lists only data tables that exist', () => {
    for (const path of DATA_TABLES) expect(existsSync(join(root, path)), path).toBe(true)
  })
})
