/** Formatting: aligned pipe tables (readable in a terminal, pasteable as Markdown) and numbers. */

export type Align = 'l' | 'r'

/** A Markdown table whose columns are padded to the same width. */
export function table(headers: readonly string[], rows: readonly string[][], align: Align[] = []) {
  const width = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const cell = (s: string, i: number): string =>
    align[i] === 'r' ? s.padStart(width[i]!) : s.padEnd(width[i]!)
  const line = (cells: readonly string[]): string =>
    '| ' + cells.map((c, i) => cell(c, i)).join(' | ') + ' |'
  const rule =
    '|' +
    width
      .map((w, i) => (align[i] === 'r' ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2)))
      .join('|') +
    '|'
  return [line(headers), rule, ...rows.map(line)].join('\n')
}

/** Milliseconds with 3 significant digits (`0.0123`, `1.23`, `123`, `1,234`). */
export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a'
  if (x >= 1000) return Math.round(x).toLocaleString('en')
  if (x >= 100) return x.toFixed(0)
  if (x >= 10) return x.toFixed(1)
  if (x >= 1) return x.toFixed(2)
  return x.toPrecision(3)
}

/** A duration in ms as µs or ms, whichever reads best. */
export function perOp(x: number): string {
  if (!Number.isFinite(x)) return 'n/a'
  if (x < 1) return `${ms(x * 1000)} µs`
  return `${ms(x)} ms`
}

export function ratio(x: number): string {
  if (!Number.isFinite(x)) return 'n/a'
  return x >= 100 ? `${Math.round(x).toLocaleString('en')}×` : `${x.toFixed(2)}×`
}

export const mb = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : 'n/a')

export const count = (x: number): string => (Number.isFinite(x) ? x.toLocaleString('en') : 'n/a')

/** `100k`, `1M`, `10k` */
export function sizeLabel(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`
  return String(n)
}

/** `10k` → 10000, `1m` → 1000000, `2500` → 2500. */
export function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(s.trim())
  if (!m) throw new Error(`not a size: ${s} (try 10k, 100k, 1m)`)
  const mult = m[2]!.toLowerCase() === 'k' ? 1e3 : m[2]!.toLowerCase() === 'm' ? 1e6 : 1
  return Math.round(Number(m[1]) * mult)
}

/** Indents every line of `text`. */
export const indent = (text: string, by = '    '): string =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n')

/**
 * The table of single writes the journal and cluster suites print: per case, writes, time,
 * writes per second and how much slower than in memory (rows in that order).
 */
export function printWriteRates(rows: readonly string[][]): void {
  console.log('\n### Single writes (Item.update by key, one commit each)')
  console.log(
    table(['case', 'writes', 'time', 'writes/s', 'slower than memory'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
    ]),
  )
}
