/**
 * @module How long `npm run bench -- --quick` takes: one figure, quoted by the help text and the
 * docs (bench/README.md, docs/getting-started.md), which bench/quick-figure.test.ts holds to this
 * one, and which a plain `--quick` run compares with its own time when it ends. The docs once gave
 * three (2–3 min, 6 min, 361 s) for the same command (issue 52).
 */

/** The last plain `--quick` run measured on the bench's machine (2 shared cores, nothing else running). */
export const QUICK_RUN = { seconds: 444, date: '2026-11-25' } as const

/** How far a run may be from the figure before it says the figure is out of date. */
const TOLERANCE = 0.25

/** The figure as the docs and the help text write it: `6 min`. */
export function quickMinutes(seconds: number = QUICK_RUN.seconds): string {
  return `${Math.round(seconds / 60)} min`
}

/**
 * What a plain `--quick` run says of its own time against the figure: a line that names both, and
 * asks for the figure to be updated (here, then the docs) when the run is more than 25 % off.
 */
export function quickVerdict(elapsedSeconds: number): string {
  const off = elapsedSeconds / QUICK_RUN.seconds - 1
  const line =
    `--quick took ${Math.round(elapsedSeconds)} s; the docs say ${quickMinutes()} ` +
    `(${QUICK_RUN.seconds} s on ${QUICK_RUN.date})`
  if (Math.abs(off) <= TOLERANCE) return `${line}: within ${TOLERANCE * 100} %`
  return (
    `${line}: ${Math.round(Math.abs(off) * 100)} % ${off > 0 ? 'slower' : 'faster'}; on a quiet ` +
    `machine, update QUICK_RUN in bench/quick-figure.ts and the docs it quotes (npm test says where)`
  )
}
