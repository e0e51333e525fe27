/**
 * @module Drift test: the checked-in parser must be exactly what peggy makes of filter.peggy.
 *
 * The generated files are committed so tests, tsx and tsc work straight after a clone; this test
 * catches a grammar edit that was not followed by `npm run gen`. It replays what the peggy CLI does
 * with peggy.config.json: `generate()` with the config's options and the input path as the grammar
 * source, and for the .d.ts the CLI's template plus one `parse` overload per start rule.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { generate } from 'peggy'
import { describe, expect, test } from 'vitest'

interface PeggyConfig {
  readonly input: string
  readonly output: string
  readonly format: 'es'
  readonly dts: boolean
  readonly allowedStartRules: readonly string[]
  readonly returnTypes: Readonly<Record<string, string>>
}

const packageRoot = new URL('../../../', import.meta.url)
const read = (relative: string) =>
  readFileSync(fileURLToPath(new URL(relative, packageRoot)), 'utf8')
const config = JSON.parse(read('peggy.config.json')) as PeggyConfig
const HINT = 'the generated parser is stale: run `npm run gen -w @entistore/core` and commit'

/** What `peggy -c peggy.config.json` writes to the .js file (run from the package root). */
function expectedParser(): string {
  return generate(read(config.input), {
    output: 'source',
    format: config.format,
    allowedStartRules: [...config.allowedStartRules],
    // The CLI names the grammar by the input path as given; it only shows in grammar error messages.
    grammarSource: config.input,
  })
}

/** What the CLI's `--dts` writes: its template, then the overloads (peggy-cli.js `writeDTS`). */
function expectedDeclarations(): string {
  const require = createRequire(import.meta.url)
  const template = readFileSync(require.resolve('peggy/bin/generated_template.d.ts'), 'utf8')
  const quoted = config.allowedStartRules.map((rule) => `"${rule}"`)
  let out = template
    .replace('$$$StartRules$$$', () => quoted.join(' | '))
    .replace('$$$DefaultStartRule$$$', () => quoted[0]!)
  const resultTypes = new Set<string>()
  const overload = (rules: string, type: string) => `
declare function ParseFunction<Options extends ParseOptions<${rules}>>(
  input: string,
  options?: Options,
): ${type};
`
  for (const rule of config.allowedStartRules) {
    const type = config.returnTypes[rule] ?? 'any'
    resultTypes.add(type)
    out += overload(`"${rule}"`, type)
  }
  return out + overload('StartRuleNames', [...resultTypes].join(' | '))
}

describe('generated filter parser', () => {
  test('filter-parser.js matches filter.peggy byte for byte', () => {
    const onDisk = read(config.output)
    // A boolean comparison keeps a mismatch from dumping 90 kB of diff; the hint says what to do.
    expect(expectedParser() === onDisk, HINT).toBe(true)
  })

  test('filter-parser.d.ts matches the config', () => {
    expect(config.dts).toBe(true)
    const onDisk = read(config.output.replace(/\.js$/, '.d.ts'))
    expect(expectedDeclarations() === onDisk, HINT).toBe(true)
  })
})
