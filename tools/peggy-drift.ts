/**
 * @module What `peggy -c peggy.config.json` writes for a package, for the drift tests that check
 * each package's checked-in parser against its grammar (core's filter grammar, 4d's language).
 *
 * The generated files are committed so tests, tsx and tsc work straight after a clone; a drift test
 * catches a grammar edit that was not followed by `npm run gen`. This replays what the peggy CLI
 * does: `generate()` with the config's options and the input path as the grammar source, and for
 * the .d.ts the CLI's template plus one `parse` overload per start rule (peggy-cli.js `writeDTS`).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { generate } from 'peggy'

interface PeggyConfig {
  readonly input: string
  readonly output: string
  readonly format: 'es'
  readonly dts: boolean
  readonly allowedStartRules: readonly string[]
  readonly returnTypes: Readonly<Record<string, string>>
}

export interface PeggyOutputs {
  /** The .js file as peggy would write it, and as it is on disk. */
  readonly parser: { readonly expected: string; readonly onDisk: string }
  /** The .d.ts file as peggy would write it, and as it is on disk (null when `dts` is off). */
  readonly declarations: { readonly expected: string; readonly onDisk: string } | null
}

/** The expected and checked-in outputs of the package whose root is `packageRoot` (a URL ending in /). */
export function peggyOutputs(packageRoot: URL): PeggyOutputs {
  const read = (relative: string) =>
    readFileSync(fileURLToPath(new URL(relative, packageRoot)), 'utf8')
  const config = JSON.parse(read('peggy.config.json')) as PeggyConfig
  const parser = generate(read(config.input), {
    output: 'source',
    format: config.format,
    allowedStartRules: [...config.allowedStartRules],
    // The CLI names the grammar by the input path as given; it only shows in grammar error messages.
    grammarSource: config.input,
  })
  return {
    parser: { expected: parser, onDisk: read(config.output) },
    declarations: config.dts
      ? {
          expected: declarations(config),
          onDisk: read(config.output.replace(/\.js$/, '.d.ts')),
        }
      : null,
  }
}

function declarations(config: PeggyConfig): string {
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
