/**
 * @module The golden layer (research §8.13 b, §8.14): each `golden/<case>.4dm` is run and its result
 * (or its 4D error, where and why) and its problems compared with `golden/<case>.out`, under every
 * way the code can be generated — with and without the budget's checks, with and without line
 * tracking — which must all give the same. A case file is a method, then `// ---- class Name` and
 * `// ---- method name` sections for the classes and project methods it uses.
 *
 * `UPDATE_GOLDEN=1` writes the `.out` files instead of comparing (read the diff before committing).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { ManualClock } from '@entistore/core'
import { describe, expect, test } from 'vitest'
import { budgetOf } from '../runtime/context/budget.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { describeValue } from './golden.fixture.js'
import { run4d } from './run4d.js'
import type { EmitOptions } from './emit/context.js'
import type { Problem } from './session.js'

const dir = new URL('./golden/', import.meta.url)
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.4dm'))
  .sort()
const update = process.env.UPDATE_GOLDEN === '1'

const MODES: readonly EmitOptions[] = [
  { budget: true, lines: false },
  { budget: false, lines: false },
  { budget: true, lines: true },
  { budget: false, lines: true },
  // As a REST call runs it: generators all the way down (compile/emit/context.ts `steps`).
  { budget: true, lines: false, steps: true },
]

interface Sections {
  main: string
  classes: Record<string, string>
  methods: Record<string, string>
}

// The main method, then `// ---- class Name` / `// ---- method name` sections.
function sections(text: string): Sections {
  const out: Sections = { main: '', classes: {}, methods: {} }
  const parts = text.split(/^\/\/ ---- (class|method) (\S+)\n/m)
  out.main = parts[0]!
  for (let i = 1; i < parts.length; i += 3) {
    const target = parts[i] === 'class' ? out.classes : out.methods
    target[parts[i + 1]!] = parts[i + 2] ?? ''
  }
  return out
}

function run(text: string, emit: EmitOptions): string {
  const { main, classes, methods } = sections(text)
  const problems: string[] = []
  const report = (file: string, list: readonly Problem[]): void => {
    for (const p of list)
      problems.push(
        `${file.split('/').pop()}:${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`,
      )
  }
  // Noon UTC: the same day in every time zone the tests may run in.
  const clock = new ManualClock(Date.UTC(2024, 0, 15, 12))
  let result: string
  try {
    const value = run4d(main, [], {
      emit,
      classes,
      methods,
      problems: report,
      runtime: { clock, budget: emit.budget ? budgetOf(60_000, clock) : undefined },
    })
    result = describeValue(value)
  } catch (e) {
    if (!FourDError.is(e)) throw e
    result =
      `error ${e.errCode} ${e.componentSignature} at ${e.file?.split('/').pop()}:${e.line} ` +
      `(${e.method}): ${e.message}`
  }
  return [result, ...(problems.length > 0 ? ['--- problems', ...problems] : [])].join('\n') + '\n'
}

describe('golden 4D cases', () => {
  test('there are cases', () => {
    expect(cases.length).toBeGreaterThan(10)
  })

  for (const name of cases) {
    test(name, () => {
      const text = readFileSync(new URL(name, dir), 'utf8')
      const outputs = MODES.map((mode) => run(text, mode))
      for (const [i, output] of outputs.entries())
        expect(output, `mode ${JSON.stringify(MODES[i])}`).toBe(outputs[0])
      const outFile = new URL(name.replace(/\.4dm$/, '.out'), dir)
      if (update) writeFileSync(outFile, outputs[0]!)
      else expect(outputs[0]).toBe(readFileSync(outFile, 'utf8'))
    })
  }
})
