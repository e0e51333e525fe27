/**
 * The loop of research language-models.md §6, compiled from 4D against the same loop written in
 * TypeScript, in one process (issue 62's goal: within 3× of TypeScript, stretch 1.5×):
 *
 *   For ($i;1;5000000)
 *     $sum:=$sum+(($i%7)*2)
 *   End for
 *
 * with `$i` and `$sum` declared Integer (as modern 4D code declares them) and undeclared, each with
 * and without the budget's checks and line tracking. Interleaved runs, medians of 7 after 3 warm-ups.
 * Run: `npx tsx --conditions=source bench/4d-loop.ts`.
 */
import { compileMethod } from '../packages/4d/src/compile/index.js'
import { Runtime } from '../packages/4d/src/runtime/context/runtime.js'
import { budgetOf } from '../packages/4d/src/runtime/context/budget.js'
import { systemClock } from '../packages/core/src/index.js'

const N = 5_000_000
const REPS = 7
const WARMUP = 3

function plain(n: number): number {
  let sum = 0
  for (let i = 1; i <= n; i++) sum = (sum + (i % 7) * 2) | 0
  return sum
}

const body = 'For ($i;1;$1)\n\t$sum:=$sum+(($i%7)*2)\nEnd for\nreturn $sum'
const declared = `var $i; $sum : Integer\n${body}`
const undeclared = `$sum:=0\n${body}`

interface Case {
  readonly name: string
  readonly run: () => number
}

function compiled(name: string, text: string, budget: boolean, lines: boolean): Case {
  const method = compileMethod(text, { emit: { budget, lines } })
  return {
    name,
    run: () => {
      const rt = new Runtime({ budget: budget ? budgetOf(60_000, systemClock) : undefined })
      return method.call(rt, [N]) as number
    },
  }
}

const cases: Case[] = [
  { name: 'TypeScript', run: () => plain(N) },
  compiled('4D Integer, no checks', declared, false, false),
  compiled('4D Integer, budget', declared, true, false),
  compiled('4D Integer, budget + lines', declared, true, true),
  compiled('4D undeclared, no checks', undeclared, false, false),
  compiled('4D undeclared, budget', undeclared, true, false),
]

const expected = plain(N)
const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]))
for (let rep = 0; rep < WARMUP + REPS; rep++)
  for (const c of cases) {
    const start = performance.now()
    const result = c.run()
    const ms = performance.now() - start
    if (result !== expected) throw new Error(`${c.name}: ${result}, expected ${expected}`)
    if (rep >= WARMUP) samples.get(c.name)!.push(ms)
  }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const base = median(samples.get('TypeScript')!)
console.log(`${N.toLocaleString('en')} passes, median of ${REPS}, Node ${process.version}`)
for (const c of cases) {
  const m = median(samples.get(c.name)!)
  console.log(`${c.name.padEnd(30)} ${m.toFixed(1).padStart(7)} ms  ${(m / base).toFixed(2)}×`)
}
