/**
 * @module The public benchmark's charts (issue 22), drawn as SVG text by this code: no chart
 * library and no service, so that `npm run bench -- --report` regenerates them anywhere and a diff
 * shows what moved. Two kinds:
 * - `barChart`: horizontal bars of ratios to a baseline (1× = as fast as it), on a log scale since
 *   they run from below 1× to thousands; an operation a peer cannot do is written, not drawn.
 * - `lineChart`: growth of a figure with the number of rows, both axes log-scaled, one line per
 *   implementation.
 * Colours come from a fixed palette by series name, so a peer has one colour in every chart.
 */

export interface Bar {
  readonly series: string
  /** The ratio; undefined: no bar, `text` says why. */
  readonly value?: number
  readonly text?: string
}

export interface BarGroup {
  readonly label: string
  readonly bars: readonly Bar[]
}

export interface Series {
  readonly name: string
  /** One value per x; undefined where there is none. */
  readonly values: readonly (number | undefined)[]
}

const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
]
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"'

/** XML text: the five characters that must be escaped. */
export const esc = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  )

/** A colour per series name, stable across charts (the order of `names`). */
export function colours(names: readonly string[]): Map<string, string> {
  return new Map(names.map((n, i) => [n, PALETTE[i % PALETTE.length]!]))
}

const n2 = (x: number): string => (Math.round(x * 10) / 10).toString()

/** Powers of ten covering [lo, hi] (at least one decade). */
function decades(lo: number, hi: number): number[] {
  const a = Math.floor(Math.log10(lo))
  const b = Math.max(a + 1, Math.ceil(Math.log10(hi)))
  return Array.from({ length: b - a + 1 }, (_, i) => 10 ** (a + i))
}

const tickLabel = (x: number, unit: string): string => {
  if (x >= 1e6) return `${x / 1e6}M${unit}`
  if (x >= 1e3) return `${x / 1e3}k${unit}`
  return `${+x.toPrecision(3)}${unit}`
}

/** Room for the legend: a swatch and the longest name (≈6.5 px a character at 12 px). */
const legendWidth = (names: readonly string[]): number =>
  30 + Math.ceil(6.5 * Math.max(0, ...names.map((n) => n.length)))

function legend(names: readonly string[], colour: Map<string, string>, x: number, y: number) {
  return names
    .map(
      (n, i) =>
        `<rect x="${x}" y="${y + i * 18}" width="12" height="12" fill="${colour.get(n)}"/>` +
        `<text x="${x + 18}" y="${y + i * 18 + 10}" font-size="12" ${FONT}>${esc(n)}</text>`,
    )
    .join('\n')
}

/**
 * Bars of ratios to the baseline, one group per label, one bar per series, log scale, with a line
 * at 1× and each bar's value written at its end.
 */
export function barChart(o: {
  readonly title: string
  readonly baseline: string
  readonly groups: readonly BarGroup[]
  readonly series: readonly string[]
  /** What a ratio means, for the axis: "× plain JS time (lower is faster)". */
  readonly axis: string
}): string {
  const colour = colours(o.series)
  const values = o.groups.flatMap((g) => g.bars.map((b) => b.value ?? NaN)).filter((v) => v > 0)
  const ticks = decades(Math.min(1, ...values), Math.max(1, ...values))
  const lo = Math.log10(ticks[0]!)
  const hi = Math.log10(ticks[ticks.length - 1]!)
  const left = 150
  const plotW = 520
  const barH = 11
  const top = 48
  const legendW = legendWidth(o.series)
  const x = (v: number): number => left + ((Math.log10(v) - lo) / (hi - lo)) * plotW
  const parts: string[] = []
  let y = top
  for (const g of o.groups) {
    const h = g.bars.length * (barH + 2)
    parts.push(
      `<text x="${left - 8}" y="${n2(y + h / 2 + 4)}" text-anchor="end" font-size="12" ${FONT}>${esc(g.label)}</text>`,
    )
    for (const b of g.bars) {
      if (b.value !== undefined && b.value > 0) {
        const w = Math.max(1, x(b.value) - left)
        parts.push(
          `<rect x="${left}" y="${y}" width="${n2(w)}" height="${barH}" fill="${colour.get(b.series)}"><title>${esc(`${b.series}: ${b.text ?? ''}`)}</title></rect>`,
          `<text x="${n2(left + w + 3)}" y="${y + barH - 2}" font-size="9" ${FONT}>${esc(b.text ?? '')}</text>`,
        )
      } else
        parts.push(
          `<text x="${left + 3}" y="${y + barH - 2}" font-size="9" fill="#666" ${FONT}>${esc(b.text ?? '—')}</text>`,
        )
      y += barH + 2
    }
    y += 8
  }
  const bottom = y
  const axis = ticks
    .map(
      (t) =>
        `<line x1="${n2(x(t))}" y1="${top - 6}" x2="${n2(x(t))}" y2="${bottom}" stroke="${t === 1 ? '#000' : '#ddd'}" stroke-width="${t === 1 ? 1.2 : 1}"/>` +
        `<text x="${n2(x(t))}" y="${bottom + 14}" text-anchor="middle" font-size="11" ${FONT}>${tickLabel(t, '×')}</text>`,
    )
    .join('\n')
  const width = left + plotW + 60 + legendW
  const height = Math.max(bottom + 40, top + o.series.length * 18 + 10)
  return svg(width, height, [
    `<text x="10" y="20" font-size="15" font-weight="bold" ${FONT}>${esc(o.title)}</text>`,
    `<text x="10" y="36" font-size="11" fill="#444" ${FONT}>${esc(`${o.axis}; 1× = ${o.baseline}; log scale`)}</text>`,
    axis,
    ...parts,
    legend(o.series, colour, left + plotW + 60, top),
  ])
}

/**
 * Lines of `series` over `xs` (row counts), both axes log-scaled; a missing value breaks the line.
 */
export function lineChart(o: {
  readonly title: string
  readonly xs: readonly number[]
  readonly series: readonly Series[]
  /** Every series name that may appear in any chart, for stable colours. */
  readonly names: readonly string[]
  readonly unit: string
  readonly axis: string
}): string {
  const colour = colours(o.names)
  const values = o.series
    .flatMap((s) => s.values)
    .filter((v): v is number => v !== undefined && v > 0)
  const yTicks = decades(Math.min(...values, 1), Math.max(...values, 1))
  const xTicks = o.xs
  const left = 70
  const top = 48
  const plotW = 420
  const plotH = 260
  const xLo = Math.log10(Math.min(...xTicks))
  const xHi = Math.log10(Math.max(...xTicks))
  const yLo = Math.log10(yTicks[0]!)
  const yHi = Math.log10(yTicks[yTicks.length - 1]!)
  const X = (v: number): number =>
    xHi === xLo ? left + plotW / 2 : left + ((Math.log10(v) - xLo) / (xHi - xLo)) * plotW
  const Y = (v: number): number => top + plotH - ((Math.log10(v) - yLo) / (yHi - yLo)) * plotH
  const grid = [
    ...yTicks.map(
      (t) =>
        `<line x1="${left}" y1="${n2(Y(t))}" x2="${left + plotW}" y2="${n2(Y(t))}" stroke="#ddd"/>` +
        `<text x="${left - 6}" y="${n2(Y(t) + 4)}" text-anchor="end" font-size="11" ${FONT}>${tickLabel(t, '')}</text>`,
    ),
    ...xTicks.map(
      (t) =>
        `<line x1="${n2(X(t))}" y1="${top}" x2="${n2(X(t))}" y2="${top + plotH}" stroke="#eee"/>` +
        `<text x="${n2(X(t))}" y="${top + plotH + 16}" text-anchor="middle" font-size="11" ${FONT}>${tickLabel(t, '')}</text>`,
    ),
  ]
  const lines = o.series.map((s) => {
    const c = colour.get(s.name) ?? '#000'
    const pts = s.values.map((v, i) => (v !== undefined && v > 0 ? [X(o.xs[i]!), Y(v)] : undefined))
    let d = ''
    let pen = false
    for (const p of pts) {
      if (!p) {
        pen = false
        continue
      }
      d += `${pen ? 'L' : 'M'}${n2(p[0]!)} ${n2(p[1]!)} `
      pen = true
    }
    const dots = pts
      .filter((p): p is number[] => p !== undefined)
      .map((p) => `<circle cx="${n2(p[0]!)}" cy="${n2(p[1]!)}" r="3" fill="${c}"/>`)
      .join('')
    return `<path d="${d.trim()}" fill="none" stroke="${c}" stroke-width="2"><title>${esc(s.name)}</title></path>${dots}`
  })
  const shown = o.names.filter((n) => o.series.some((s) => s.name === n))
  return svg(left + plotW + 40 + legendWidth(shown), top + plotH + 50, [
    `<text x="10" y="20" font-size="15" font-weight="bold" ${FONT}>${esc(o.title)}</text>`,
    `<text x="10" y="36" font-size="11" fill="#444" ${FONT}>${esc(`${o.axis} (${o.unit}), against rows; both axes log scale`)}</text>`,
    ...grid,
    `<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    ...lines,
    legend(shown, colour, left + plotW + 20, top),
  ])
}

function svg(width: number, height: number, body: readonly string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${n2(height)}" ` +
    `viewBox="0 0 ${width} ${n2(height)}">\n<rect width="100%" height="100%" fill="#fff"/>\n` +
    body.join('\n') +
    '\n</svg>\n'
  )
}
