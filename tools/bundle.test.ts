/**
 * The library packages' bundles (bundle.ts), as `npm run build` left them (the test command builds
 * first): each export names its bundle, which exports what tsc's file of it exports, and a bundle
 * leaves the other packages to be imported, so that every importer shares one copy of each.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BUNDLED, entriesOf } from './bundle.js'

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
