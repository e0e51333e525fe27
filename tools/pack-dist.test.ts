import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import ts from 'typescript'
import { LOCK_STALE_MS, lock, prune, restore, strip, typeEntries, unlock } from './pack-dist.ts'
import { packedJs } from './packed-js.ts'

const ORIGINAL =
  '/** Doc. */\nexport function f() {\n    // why\n    return 1;\n}\n//# sourceMappingURL=f.js.map'
const TYPES = '/** Doc. */\nexport declare function f(): number;\n'

let scratch: string
let dist: string
let stash: string

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'pack-dist-'))
  dist = join(scratch, 'dist')
  stash = join(scratch, 'stash')
  mkdirSync(join(dist, 'sub'), { recursive: true })
  writeFileSync(join(dist, 'sub/f.js'), ORIGINAL)
  writeFileSync(join(dist, 'sub/f.d.ts'), TYPES)
})

afterEach(() => rmSync(scratch, { recursive: true, force: true }))

const read = (file: string): string => readFileSync(join(dist, file), 'utf8')
const mtime = (file: string): number => statSync(join(dist, file)).mtimeMs

describe('pack-dist', () => {
  it('strips the JavaScript for the pack, then puts back the same bytes and time', () => {
    const before = mtime('sub/f.js')
    const { before: bytes, after } = strip(dist, stash, packedJs)
    expect(read('sub/f.js')).toBe('export function f() {\n\treturn 1;\n}\n')
    expect(after).toBeLessThan(bytes)
    expect(read('sub/f.d.ts')).toBe(TYPES) // the types keep their doc comments
    expect(restore(dist, stash)).toEqual({ restored: 1, kept: 0 })
    expect(read('sub/f.js')).toBe(ORIGINAL)
    expect(mtime('sub/f.js')).toBeCloseTo(before, 2)
    expect(existsSync(stash)).toBe(false)
  })

  it('keeps the first stash when a second strip runs before the restore', () => {
    strip(dist, stash, packedJs)
    strip(dist, stash, packedJs) // a pack beside, or one after a pack that stopped halfway
    expect(restore(dist, stash)).toEqual({ restored: 1, kept: 0 })
    expect(read('sub/f.js')).toBe(ORIGINAL)
  })

  it('leaves a file a build rewrote since the strip', () => {
    strip(dist, stash, packedJs)
    writeFileSync(join(dist, 'sub/f.js'), 'export const rebuilt = 1;\n')
    expect(restore(dist, stash)).toEqual({ restored: 0, kept: 1 })
    expect(read('sub/f.js')).toBe('export const rebuilt = 1;\n')
    expect(existsSync(stash)).toBe(false)
  })

  it('restores nothing when nothing was stripped', () => {
    expect(restore(dist, stash)).toEqual({ restored: 0, kept: 0 })
    expect(read('sub/f.js')).toBe(ORIGINAL)
  })

  describe('prune', () => {
    const specifiers = (text: string): string[] =>
      ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName)
    const declare = (file: string, text: string): void => {
      mkdirSync(join(dist, file, '..'), { recursive: true })
      writeFileSync(join(dist, file), text)
    }

    beforeEach(() => {
      declare('index.d.ts', "export * from './sub/f.js';\nexport type { T } from './t/index.js';\n")
      declare('t/index.d.ts', "export type T = import('../u.js').U;\n")
      declare('u.d.ts', "import type { X } from 'other-package';\nexport type U = X;\n")
      // Named only in a comment, and by no public declaration: left out.
      declare('internal.d.ts', "/** Not `from './u.js'`. */\nexport declare const i: 1;\n")
      declare('deep/hidden.d.ts', 'export declare const h: 2;\n')
    })

    it('packs the declarations the entries reach, and puts the others back after', () => {
      const before = mtime('internal.d.ts')
      expect(prune(dist, stash, ['index.d.ts'], specifiers)).toEqual({ kept: 4, pruned: 2 })
      for (const f of ['index.d.ts', 'sub/f.d.ts', 't/index.d.ts', 'u.d.ts'])
        expect(existsSync(join(dist, f))).toBe(true)
      expect(existsSync(join(dist, 'internal.d.ts'))).toBe(false)
      expect(existsSync(join(dist, 'deep/hidden.d.ts'))).toBe(false)
      expect(restore(dist, stash)).toEqual({ restored: 2, kept: 0 })
      expect(read('internal.d.ts')).toContain('export declare const i')
      expect(mtime('internal.d.ts')).toBeCloseTo(before, 2)
      expect(existsSync(stash)).toBe(false)
    })

    it('leaves a declaration a build wrote again since the prune', () => {
      prune(dist, stash, ['index.d.ts'], specifiers)
      declare('internal.d.ts', 'export declare const rebuilt: 3;\n')
      expect(restore(dist, stash)).toEqual({ restored: 1, kept: 1 })
      expect(read('internal.d.ts')).toBe('export declare const rebuilt: 3;\n')
    })

    it('reads the entries from the exports and types of a package.json', () => {
      const manifest = {
        types: './dist/index.d.ts',
        exports: {
          '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/x.js' },
          './node': { types: './dist/node/index.d.ts', default: './dist/node.js' },
          './package.json': './package.json',
        },
      }
      expect(typeEntries(manifest).sort()).toEqual(['dist/index.d.ts', 'dist/node/index.d.ts'])
    })
  })

  it('lets one pack of a package hold its dist at a time, and takes over a stale lock', () => {
    const dir = join(scratch, 'stash.lock')
    lock(dir)
    expect(existsSync(dir)).toBe(true)
    // Held: a second pack waits until the lock is stale on its clock, then takes it over.
    let asked = 0
    const clock = () => (++asked > 3 ? Date.now() + LOCK_STALE_MS + 1 : Date.now())
    lock(dir, clock)
    expect(asked).toBeGreaterThan(3)
    expect(existsSync(dir)).toBe(true)
    unlock(dir)
    expect(existsSync(dir)).toBe(false)
    lock(dir) // free again: taken at once
    unlock(dir)
  })
})
