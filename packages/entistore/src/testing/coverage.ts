/**
 * @module Which lines of a project's 4D code its tests ran (issue 80), as lcov, which the usual
 * coverage tools read (genhtml, Codecov, Coveralls, an editor's gutters).
 *
 * 4D code runs as JavaScript that @entistore/4d compiles a function at a time, at its first call,
 * named after its 4D file and offset to its first line (compile/build.ts), so that the generated
 * code's line i is the 4D file's line `startLine + i + 1`. V8's own block coverage, asked for
 * through the inspector before any test runs, counts each block of that code; a 4D line's count
 * is that of the innermost block holding the first character of its generated line. The lines
 * counted are the 4D file's statements (executableLines): a line of a function never called (so
 * never compiled) counts 0.
 */
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { executableLines, type CompiledProject } from '@entistore/4d'

/** One file's lines that run, each with the times it ran. */
export interface FileCoverage {
  /** The file, as the project names it (`Sources/Classes/Car.4dm`). */
  readonly file: string
  readonly lines: ReadonlyMap<number, number>
}

interface Range {
  readonly startOffset: number
  readonly endOffset: number
  readonly count: number
}

interface ScriptCoverage {
  readonly scriptId: string
  readonly url: string
  readonly functions: readonly { readonly ranges: readonly Range[] }[]
}

/** The counts of the 4D lines one compiled function (a script) holds: line → count. */
function scriptLines(
  source: string,
  startLine: number,
  ranges: readonly Range[],
): Map<number, number> {
  const out = new Map<number, number>()
  let offset = 0
  const jsLines = source.split('\n')
  for (let i = 0; i < jsLines.length; i++) {
    const text = jsLines[i]!
    const first = text.search(/\S/)
    if (first >= 0) {
      const at = offset + first
      // The innermost block holding it: the smallest range around the offset.
      let best: Range | undefined
      for (const r of ranges)
        if (r.startOffset <= at && at < r.endOffset)
          if (best === undefined || r.endOffset - r.startOffset < best.endOffset - best.startOffset)
            best = r
      if (best !== undefined) out.set(startLine + i + 1, best.count)
    }
    offset += text.length + 1
  }
  return out
}

/** Coverage being recorded: `take` ends it and gives each file's lines. */
export interface CoverageRecording {
  take(code: CompiledProject, keep?: (file: string) => boolean): Promise<FileCoverage[]>
}

/** Starts recording V8's block coverage of the 4D code compiled from now on. */
export async function recordCoverage(): Promise<CoverageRecording> {
  const session = new Session()
  session.connect()
  // Each compiled function's script: its 4D file (its url) and its first line.
  const scripts = new Map<string, { url: string; startLine: number }>()
  session.on('Debugger.scriptParsed', ({ params }) => {
    if (params.url.endsWith('.4dm'))
      scripts.set(params.scriptId, { url: params.url, startLine: params.startLine })
  })
  await session.post('Debugger.enable')
  await session.post('Profiler.enable')
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })
  return {
    async take(code, keep = () => true) {
      const { result } = (await session.post('Profiler.takePreciseCoverage')) as {
        result: ScriptCoverage[]
      }
      const counted = new Map<string, Map<number, number>>()
      for (const script of result) {
        const at = scripts.get(script.scriptId)
        if (at === undefined) continue
        const { scriptSource } = await session.post('Debugger.getScriptSource', {
          scriptId: script.scriptId,
        })
        const ranges = script.functions.flatMap((f) => f.ranges)
        const lines = counted.get(at.url) ?? new Map<number, number>()
        for (const [line, n] of scriptLines(scriptSource, at.startLine, ranges))
          lines.set(line, (lines.get(line) ?? 0) + n)
        counted.set(at.url, lines)
      }
      await session.post('Profiler.stopPreciseCoverage')
      await session.post('Profiler.disable')
      await session.post('Debugger.disable')
      session.disconnect()
      const out: FileCoverage[] = []
      for (const unit of [...code.classes, ...code.methods]) {
        if (!keep(unit.file)) continue
        const ran = counted.get(unit.file)
        const lines = new Map<number, number>()
        for (const line of executableLines(unit.ast)) lines.set(line, ran?.get(line) ?? 0)
        out.push({ file: unit.file, lines })
      }
      return out.sort((a, b) => a.file.localeCompare(b.file))
    },
  }
}

/** The lcov text of `files`, each named by its path under `root` (the project's Project folder). */
export function lcov(files: readonly FileCoverage[], root: string): string {
  const out: string[] = []
  for (const f of files) {
    out.push('TN:', `SF:${join(root, f.file)}`)
    let hit = 0
    for (const [line, n] of f.lines) {
      out.push(`DA:${line},${n}`)
      if (n > 0) hit++
    }
    out.push(`LF:${f.lines.size}`, `LH:${hit}`, 'end_of_record')
  }
  return `${out.join('\n')}\n`
}

/** Lines found and lines run, over `files`. */
export function coverageTotals(files: readonly FileCoverage[]): { found: number; hit: number } {
  let found = 0
  let hit = 0
  for (const f of files)
    for (const n of f.lines.values()) {
      found++
      if (n > 0) hit++
    }
  return { found, hit }
}
