/**
 * @module The corpus run as one table (docs/4d-projects.md, between its two markers), a row a
 * project and a row of totals, then what is left, project by project.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import type { ProjectResult, Tally } from './probe.ts'

const START = '<!-- corpus:start -->'
const END = '<!-- corpus:end -->'

// What 4D would not do either: refused by the application's rules, or failing in 4D as well.
const refusedOf = (t: Tally): number =>
  (t.refused?.length ?? 0) + (t.asIn4D?.length ?? 0) + (t.closed?.length ?? 0)

/** `worked/tried`, and what the application's own rules refused, as 4D refuses it. */
const ratio = (t: Tally): string =>
  t.tried === 0
    ? '–'
    : `${t.tried - t.failed.length - refusedOf(t)}/${t.tried}` +
      (refusedOf(t) === 0 ? '' : ` (${refusedOf(t)} refused)`)

function row(r: ProjectResult): string {
  const c = r.classes
  return [
    r.label,
    r.kind,
    String(r.tables),
    r.started ? `yes (${((r.startMs ?? 0) / 1000).toFixed(1)} s)` : '**no**',
    r.unchecked.length === 0 ? 'yes' : `**no** (${r.unchecked.length})`,
    ratio(r.catalog),
    r.started ? `${ratio(r.reads)}${r.reads.as === 'user' ? ' (user)' : ''}` : '–',
    ratio(r.creates),
    ratio(r.declared),
    c.total === 0 ? '–' : `${c.parse}/${c.total}`,
    c.total === 0 ? '–' : `${c.runnable}/${c.total}`,
  ].join(' | ')
}

export interface Totals {
  readonly projects: number
  readonly started: number
  readonly agree: number
  readonly creates: Tally
  readonly classes: number
  readonly parse: number
  readonly runnable: number
  readonly componentOnly: number
}

export function totals(results: readonly ProjectResult[]): Totals {
  const sum = (f: (r: ProjectResult) => number): number => results.reduce((n, r) => n + f(r), 0)
  return {
    projects: results.length,
    started: results.filter((r) => r.started).length,
    agree: results.filter((r) => r.unchecked.length === 0).length,
    creates: {
      tried: sum((r) => r.creates.tried),
      failed: results.flatMap((r) => r.creates.failed),
      refused: results.flatMap((r) => r.creates.refused ?? []),
      filled: results.flatMap((r) => r.creates.filled ?? []),
      asIn4D: results.flatMap((r) => r.creates.asIn4D ?? []),
      closed: results.flatMap((r) => r.creates.closed ?? []),
    },
    classes: sum((r) => r.classes.total),
    parse: sum((r) => r.classes.parse),
    runnable: sum((r) => r.classes.runnable),
    componentOnly: sum((r) => r.classes.componentOnly ?? 0),
  }
}

const pct = (n: number, of: number): string => (of === 0 ? '–' : `${Math.round((100 * n) / of)} %`)

/**
 * `entistore test` over the corpus: the projects that hold tests by the conventions, and how
 * their tests ended (most hold none: their tests, if any, are not named as tests).
 */
function testsLine(results: readonly ProjectResult[]): string {
  const withTests = results.filter((r) => (r.tests?.found ?? 0) > 0)
  const sum = (f: (t: NonNullable<ProjectResult['tests']>) => number): number =>
    withTests.reduce((n, r) => n + f(r.tests!), 0)
  const each = withTests.map(
    (r) =>
      `${r.label} ${r.tests!.passed}/${r.tests!.found}` +
      (r.tests!.failed === 0 ? '' : `, ${r.tests!.failed} failed`),
  )
  return (
    `\`entistore test\`: ${withTests.length} of the ${results.length} projects hold tests named as 4D ` +
    `teams name them (${sum((t) => t.found)} tests): ${sum((t) => t.passed)} pass, ` +
    `${sum((t) => t.failed)} fail an assertion, ${sum((t) => t.errors)} stop at an error ` +
    `(most at a command that needs a user interface or another process), ` +
    `${sum((t) => t.timedOut)} run past their budget` +
    (each.length === 0 ? '.' : ` (passed/found: ${each.join('; ')}).`)
  )
}

/** The table and the list of what is left, as markdown. */
export function reportMarkdown(results: readonly ProjectResult[], when: string): string {
  const t = totals(results)
  const refused = refusedOf(t.creates)
  const works = t.creates.tried - t.creates.failed.length - refused
  const filled = t.creates.filled?.length ?? 0
  const created =
    `${works}/${t.creates.tried} creates of a generated key work` +
    (filled === 0
      ? ''
      : `, ${filled} of them only with the fields a form fills (empty, the application's own code fails on a null)`) +
    (refused === 0
      ? ''
      : ` (${refused} more are refused: ${t.creates.refused?.length ?? 0} by the application's own rules and ${t.creates.asIn4D?.length ?? 0} by its own code, as in 4D; ${t.creates.closed?.length ?? 0} because its roles.json is not valid, which closes everything here and opens everything in 4D)`)
  const lines = [
    `Run of ${when}: ${t.projects} projects; ${t.started} start; \`check\` and \`serve\` agree on ` +
      `${t.agree}; ${created}; ${t.parse}/${t.classes} ` +
      `class files parse (${pct(t.parse, t.classes)}), ${t.runnable}/${t.classes} use nothing ` +
      `that cannot run here but a user interface (${pct(t.runnable, t.classes)}; ` +
      `${pct(t.runnable, t.classes - t.componentOnly)} of the ${t.classes - t.componentOnly} that ` +
      `use no component that 4D could not find either: neither in the repository, nor named by it, ` +
      `nor one of 4D's own).`,
    '',
    testsLine(results),
    '',
    '| project | kind | tables | starts | check agrees | $catalog | reads | creates | computed, aliases | class files parse | class files run |',
    '|---|---|--:|---|---|--:|--:|--:|--:|--:|--:|',
    ...results.map((r) => `| ${row(r)} |`),
    '',
    '### What is left, project by project',
    '',
  ]
  for (const r of results) {
    const left = [
      ...(r.startError === undefined ? [] : [`does not start: ${r.startError}`]),
      ...r.unchecked.map((u) => `said by serve, not by check: ${u}`),
      ...[r.catalog, r.reads, r.creates, r.declared].flatMap((x) => x.failed),
      ...(r.creates.refused ?? []).map((x) => `refused by its own rules, as 4D refuses it: ${x}`),
      ...(r.creates.filled ?? []).map((x) => `a create works filled, not empty: ${x}`),
      ...(r.creates.asIn4D ?? []).map((x) => `fails as in 4D: ${x}`),
      ...(r.creates.closed ?? []).map((x) => `refused by Entistore's choice: ${x}`),
    ]
    const blockers = Object.entries(r.classes.blockers)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} (${n})`)
    if (blockers.length > 0) left.push(`class files that cannot run whole: ${blockers.join(', ')}`)
    if (left.length === 0) continue
    lines.push(`- **${r.label}**`)
    for (const l of left.slice(0, 12)) lines.push(`  - ${l.replace(/\|/g, '\\|')}`)
    if (left.length > 12) lines.push(`  - and ${left.length - 12} more`)
  }
  return lines.join('\n')
}

/** Writes `markdown` between the markers of `file`. */
export function writeSection(file: string, markdown: string): void {
  const text = readFileSync(file, 'utf8')
  const from = text.indexOf(START)
  const to = text.indexOf(END)
  if (from < 0 || to < from) throw new Error(`${file} has no ${START} … ${END} section`)
  writeFileSync(file, `${text.slice(0, from + START.length)}\n${markdown}\n${text.slice(to)}`)
}
