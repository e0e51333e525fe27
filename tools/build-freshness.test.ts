/**
 * The build check (`staleIn`) counts only the files a build compiles: a package's tests and
 * fixtures, which its tsconfig leaves out of dist, can never be older than an output they do not
 * have (issue 33: the check cried wolf on every fresh install). And a bundled package is current
 * only once its bundles were made after tsc's last output: the bench and the tests that start the
 * built CLI would otherwise run bundles of older sources.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { BUNDLED_STAMP, staleIn } from './build-freshness.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'entistore-stale-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const write = (path: string, seconds: number): void => {
  mkdirSync(join(dir, path, '..'), { recursive: true })
  writeFileSync(join(dir, path), '')
  utimesSync(join(dir, path), seconds, seconds)
}

describe('staleIn', () => {
  it('counts the files the tsconfig compiles, not its excluded tests and fixtures', () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ exclude: ['src/**/*.test.ts', 'src/**/*.fixture.ts'] }),
    )
    write('dist/a.js', 2000)
    write('src/a.ts', 1000)
    write('src/b.fixture.ts', 3000)
    write('src/a.test.ts', 3000)
    write('src/types.d.ts', 3000)
    expect(staleIn(dir)).toEqual([])
    write('src/a.ts', 4000)
    write('src/c.ts', 1000)
    expect(staleIn(dir).sort()).toEqual(
      [join(dir, 'src/a.ts'), join(dir, 'src/c.ts')].map((p) => relative(root, p)),
    )
  })

  it('finds bundles stale until a bundling stamped them after tsc’s newest output', () => {
    const pkg = join(dir, 'bundled')
    const at = (path: string, seconds: number): void => {
      mkdirSync(join(pkg, path, '..'), { recursive: true })
      writeFileSync(join(pkg, path), '')
      utimesSync(join(pkg, path), seconds, seconds)
    }
    mkdirSync(pkg, { recursive: true })
    writeFileSync(join(pkg, 'tsconfig.json'), '{}')
    at('src/a.ts', 1000)
    at('dist/a.js', 2000)
    at('dist/bundle/index.js', 2000)
    const bundles = relative(root, join(pkg, 'dist/bundle'))
    expect(staleIn(pkg)).toEqual([bundles]) // never stamped
    at(BUNDLED_STAMP, 3000)
    expect(staleIn(pkg)).toEqual([])
    at('dist/a.js', 4000) // tsc wrote again after the last bundling
    expect(staleIn(pkg)).toEqual([bundles])
    at(BUNDLED_STAMP, 4000)
    expect(staleIn(pkg)).toEqual([])
  })
})
