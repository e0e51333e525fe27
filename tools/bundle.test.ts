/**
 * The library packages' bundles (bundle.ts), as `npm run build` left them (the test command builds
 * first): each export names its bundle, which exports what tsc's file of it exports, and a bundle
 * leaves the other packages to be imported, so that every importer shares one copy of each.
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BUNDLED, entriesOf, writeChanged } from './bundle.js'

const root = fileURLToPath(new URL('../', import.meta.url))

/** The names `file` exports, read by a plain node (no test runner's resolution in the way). */
function exportedNames(file: string): string[] {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(Object.keys(m).sort()))`
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root }).toString(),
  ) as string[]
}

describe.each(BUNDLED)('the bundles of @entistore/%s', (name) => {
  const dir = join(root, 'packages', name)
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    main: string
    exports: Record<string, { default?: string } | string>
  }

  it('are what each export and the main name, and export what tsc’s files export', () => {
    const entries = entriesOf(dir)
    expect(entries.length).toBeGreaterThan(0)
    for (const e of entries) {
      expect((pkg.exports[e.name] as { default: string }).default).toBe(e.output)
      expect(existsSync(join(dir, e.output)), `${e.output}: run npm run build`).toBe(true)
      expect(exportedNames(join(dir, e.output))).toEqual(exportedNames(join(dir, e.input)))
    }
    expect(pkg.main).toBe(entries.find((e) => e.name === '.')!.output)
  })

  it('import the other packages rather than carry a copy of them', () => {
    const files = readdirSync(join(dir, 'dist/bundle'), { recursive: true, encoding: 'utf8' })
    const text = files
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, 'dist/bundle', f), 'utf8'))
      .join('\n')
    // core's error class is defined once, in core; rest and 4d import it.
    const defines = /\bDatastoreError = class\b/.test(text)
    expect(defines).toBe(name === 'core')
    if (name !== 'core') expect(text).toMatch(/from "@entistore\/core"/)
  })
})

describe('a build beside processes that load the bundles', () => {
  it('writes only the files whose bytes change, and removes the ones no longer made', () => {
    const out = mkdtempSync(join(tmpdir(), 'entistore-bundle-'))
    try {
      const file = (name: string, text: string) => ({
        path: join(out, name),
        contents: new TextEncoder().encode(text),
      })
      writeChanged(out, [file('index.js', 'a'), file('chunk-1.js', 'b'), file('x/y.js', 'c')])
      const inode = (name: string) => statSync(join(out, name)).ino
      const before = { index: inode('index.js'), y: inode('x/y.js') }
      // The same bytes: untouched. New bytes: a new file put in place. A chunk gone: removed.
      writeChanged(out, [file('index.js', 'a'), file('chunk-2.js', 'd'), file('x/y.js', 'e')])
      expect(inode('index.js')).toBe(before.index)
      expect(inode('x/y.js')).not.toBe(before.y)
      expect(readFileSync(join(out, 'x/y.js'), 'utf8')).toBe('e')
      expect(readdirSync(out, { recursive: true, encoding: 'utf8' }).sort()).toEqual([
        'chunk-2.js',
        'index.js',
        'x',
        'x/y.js',
      ])
      writeFileSync(join(out, 'left.js'), '')
      writeChanged(out, [file('index.js', 'a'), file('chunk-2.js', 'd'), file('x/y.js', 'e')])
      expect(existsSync(join(out, 'left.js'))).toBe(false)
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
})
