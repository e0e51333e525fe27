/**
 * @module The 4D language (issue 62): 4D code compiled by `@entistore/4d` against the same logic
 * written in TypeScript, in one process, on the same engine (the sources `@entistore/4d` imports,
 * core's among them: both sides through tsx).
 *
 * - CPU-bound code (goal ≤ 3× TypeScript, stretch 1.5×): a `For` loop of 5M passes (research
 *   language-models.md §6; its variants without the budget's checks, with line tracking and with
 *   undeclared variables are shown beside it, not held to the goal), the Collection class's
 *   `filter`, `map`, `sum` and `orderBy` over 100k numbers, and a text built by 100k `+`.
 * - ORDA-heavy code (goal ≤ 1.2× TypeScript on core's API): see 4d-language-orda.ts.
 * - A computed attribute's getter read for 100k rows (goal ≤ 1.5× the getter in TypeScript): see
 *   4d-language-computed.ts.
 * - Parsing and compiling the car-rental example's class files (goal < 100 ms): every file parsed,
 *   compiled into a class store and each function's code made, cold (the first time in the
 *   process, as a server's start pays it) and warm (the median of the next ones).
 *
 * The 4D side runs as `entistore serve` runs it: the default emit options (the budget's checks),
 * a new Runtime a call with a budget of a minute.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ms } from '../report.ts'
import { median, timeOnce } from '../timing.ts'
import type { Case } from '../timing.ts'
import type { Group } from './query.bench.ts'
import { fourD, type FourD } from '../4d-code.ts'
import { ordaGroups } from '../4d-language-orda.ts'
import { restrictGroup } from '../4d-language-restrict.ts'
import { computedGroup } from '../4d-language-computed.ts'

export interface FourDOptions {
  /** Passes of the loop. @default 5M */
  readonly loop: number
  /** Elements of the collections and appends of the text. @default 100k */
  readonly elements: number
  /** Employees of the ORDA groups (half of them match the query). @default 20k */
  readonly employees: number
  /** Saves a call of the save group. @default 1000 */
  readonly saves: number
  /** Parses and compiles of the car-rental classes after the cold one. @default 15 */
  readonly compileReps: number
  /** Rows of the restricted dataclass of the restrict group. @default 100k */
  readonly restrictRows: number
}

export const FOUR_D_DEFAULTS: FourDOptions = {
  loop: 5_000_000,
  elements: 100_000,
  employees: 20_000,
  saves: 1000,
  compileReps: 15,
  restrictRows: 100_000,
}

/** The groups, for `--only` (the compile measure is `4d-compile`). */
export const FOUR_D_OPS = [
  '4d-loop',
  '4d-filter',
  '4d-map',
  '4d-sum',
  '4d-orderby',
  '4d-text',
  '4d-orda-foreach',
  '4d-orda-aggregates',
  '4d-orda-save',
  '4d-restrict',
  '4d-computed-read',
  '4d-compile',
]

export const CPU_TARGET = { max: 3, label: '≤3× TS (stretch 1.5×)' }
export const COMPILE_GOAL_MS = 100

const fourDCase = (impl: string, run: () => number, targeted = false, note?: string): Case => ({
  kind: 'entistore',
  impl,
  run,
  targeted,
  note,
})

function loopGroup(fd: FourD, n: number): Group {
  const body = 'For ($i;1;$1)\n\t$sum:=$sum+(($i%7)*2)\nEnd for\nreturn $sum'
  const declared = `var $i; $sum : Integer\n${body}`
  const undeclared = `$sum:=0\n${body}`
  const args = () => [n]
  return {
    id: '4d-loop',
    title: `a For loop of ${n.toLocaleString('en')} passes, $sum:=$sum+(($i%7)*2)`,
    target: CPU_TARGET,
    notes: [
      'baseline: the same loop in TypeScript, its sum kept an int32 (| 0) as 4D’s Integer',
      '4D as served: $i and $sum declared Integer, the budget’s checks (the default emit options)',
      'the other 4D rows: without the checks, with line tracking, undeclared: not held to the goal',
    ],
    cases: [
      {
        kind: 'baseline',
        impl: 'TypeScript',
        run: () => {
          let sum = 0
          for (let i = 1; i <= n; i++) sum = (sum + (i % 7) * 2) | 0
          return sum
        },
      },
      fourDCase('4D Integer, budget (as served)', fourD(fd, declared, args), true),
      fourDCase('4D Integer, no checks', fourD(fd, declared, args, { emit: { budget: false } })),
      fourDCase('4D Integer, budget + lines', fourD(fd, declared, args, { emit: { lines: true } })),
      fourDCase('4D undeclared, budget', fourD(fd, undeclared, args)),
    ],
  }
}

/** The same numbers as a JS array and as a 4D Collection (a new one each call: 4D copies none). */
function numbers(
  fd: FourD,
  n: number,
): { array: number[]; collection: () => InstanceType<FourD['Collection']> } {
  const array = Array.from({ length: n }, (_, i) => ((i + 1) * 7919) % 1000)
  return { array, collection: () => new fd.Collection([...array]) }
}

function collectionGroups(fd: FourD, n: number): Group[] {
  const { array, collection } = numbers(fd, n)
  const size = n.toLocaleString('en')
  const group = (id: string, what: string, ts: () => number, code: string): Group => ({
    id,
    title: `Collection ${what} over ${size} numbers`,
    target: CPU_TARGET,
    notes: ['both sides copy the input first (4D’s collection, the JS array): the copy is timed'],
    cases: [
      { kind: 'baseline', impl: 'TypeScript', run: ts },
      fourDCase(
        '4D',
        fourD(fd, `#DECLARE($c : Collection) -> $r : Real\n${code}`, () => [collection()]),
        true,
      ),
    ],
  })
  return [
    group(
      '4d-filter',
      '.filter(Formula($1.value>=500))',
      () => [...array].filter((x) => x >= 500).length,
      '$r:=$c.filter(Formula($1.value>=500)).length',
    ),
    group(
      '4d-map',
      '.map(Formula($1.value*2))',
      () => [...array].map((x) => x * 2).length,
      '$r:=$c.map(Formula($1.value*2)).length',
    ),
    group('4d-sum', '.sum()', () => [...array].reduce((s, x) => s + x, 0), '$r:=$c.sum()'),
    group(
      '4d-orderby',
      '.orderBy(ck descending)',
      () => {
        const s = [...array].sort((a, b) => b - a)
        return s[0]! * 1000 + s[n >> 1]!
      },
      'var $s : Collection\n$s:=$c.orderBy(ck descending)\n$r:=$s[0]*1000+$s[$c.length\\2]',
    ),
  ]
}

function textGroup(fd: FourD, n: number): Group {
  return {
    id: '4d-text',
    title: `a text built by ${n.toLocaleString('en')} appends, $t:=$t+String($i)+","`,
    target: CPU_TARGET,
    notes: ['check: the text’s length'],
    cases: [
      {
        kind: 'baseline',
        impl: 'TypeScript',
        run: () => {
          let t = ''
          for (let i = 1; i <= n; i++) t = t + String(i) + ','
          return t.length
        },
      },
      fourDCase(
        '4D',
        fourD(
          fd,
          'var $t : Text\nvar $i : Integer\nFor ($i;1;$1)\n\t$t:=$t+String($i)+","\nEnd for\nreturn Length($t)',
          () => [n],
        ),
        true,
      ),
    ],
  }
}

/** The in-process groups, those `wanted` says. */
export function fourDGroups(fd: FourD, o: FourDOptions, wanted: (op: string) => boolean): Group[] {
  const groups: Group[] = []
  if (wanted('4d-loop')) groups.push(loopGroup(fd, o.loop))
  groups.push(...collectionGroups(fd, o.elements).filter((g) => wanted(g.id)))
  if (wanted('4d-text')) groups.push(textGroup(fd, o.elements))
  groups.push(...ordaGroups(fd, o.employees, o.saves).filter((g) => wanted(g.id)))
  if (wanted('4d-restrict')) groups.push(restrictGroup(fd, o.restrictRows))
  if (wanted('4d-computed-read')) groups.push(computedGroup(fd, o.elements))
  return groups
}

const root = fileURLToPath(new URL('../../', import.meta.url))
export const CAR_RENTAL_CLASSES = 'examples/car-rental/Project/Sources/Classes'

export interface CompileMeasure {
  readonly files: number
  readonly lines: number
  readonly functions: number
  readonly coldMs: number
  readonly warmMs: number
}

/** Parses and compiles the car-rental classes: the first time, then the median of `reps`. */
export function measureCompile(fd: FourD, reps: number): CompileMeasure {
  const dir = join(root, CAR_RENTAL_CLASSES)
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.4dm'))
    .map((f) => ({
      file: `Project/Sources/Classes/${f}`,
      text: readFileSync(join(dir, f), 'utf8'),
    }))
  const once = (): number => {
    const store = new fd.ClassStore()
    let functions = 0
    for (const { file, text } of files)
      for (const fn of fd.compileClass(text, store, { file }).code()) {
        fn.make()
        functions++
      }
    return functions
  }
  const cold = timeOnce(once)
  const warm = Array.from({ length: reps }, () => timeOnce(once).ms)
  return {
    files: files.length,
    lines: files.reduce((n, f) => n + f.text.split('\n').length, 0),
    functions: cold.value,
    coldMs: cold.ms,
    warmMs: median(warm),
  }
}

/** The compile measure's line, and its goal row (`size, op, implementation, value, goal, verdict`). */
export function compileReport(m: CompileMeasure): { line: string; goal: string[] } {
  return {
    line:
      `\n### Parsing and compiling the car-rental classes (${m.files} files, ${m.lines} lines, ` +
      `${m.functions} functions made): ${ms(m.coldMs)} ms cold, ${ms(m.warmMs)} ms warm (median)`,
    goal: [
      `${m.files} files`,
      '4d-compile',
      '@entistore/4d parse + compile, cold',
      `${ms(m.coldMs)} ms`,
      `< ${COMPILE_GOAL_MS} ms`,
      m.coldMs < COMPILE_GOAL_MS ? 'PASS' : 'MISS',
    ],
  }
}
