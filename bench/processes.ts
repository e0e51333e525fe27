/**
 * @module Child processes of the HTTP suite: spawn one, time it until it prints a given line, read
 * its resident memory once it has settled, and make sure none outlives the bench.
 *
 * Every child is started with `--expose-gc` and a preload (child/gc-on-signal.cjs) that runs a full
 * GC when it gets SIGUSR2: the entistore CLI never calls the collector itself, so without it the
 * RSS read after start-up would include whatever garbage loading left (the file's text, parsed
 * input) for as long as V8 feels like keeping it. The preload only adds a signal listener; the
 * JSON.parse baseline gets the same.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const GC_PRELOAD = fileURLToPath(new URL('./child/gc-on-signal.cjs', import.meta.url))

export interface Child {
  readonly label: string
  readonly pid: number
  readonly proc: ChildProcess
  /** The last lines it wrote to stderr (for error messages). */
  readonly stderrTail: () => string
  /**
   * The first line of stdout after the ready line that matches `line` (one printed already
   * included); rejects if the process exits first or `timeoutMs` passes.
   */
  lineAfterReady(line: RegExp, timeoutMs: number): Promise<string>
  /** The next line of stdout that matches `line`, printed from now on; rejects as lineAfterReady. */
  nextLine(line: RegExp, timeoutMs: number): Promise<string>
  /** SIGTERM, then SIGKILL after a second; resolves once it has exited. */
  stop(): Promise<void>
}

const live = new Set<ChildProcess>()

// Children die with the bench, whatever ends it: a normal exit, Ctrl-C, an uncaught error.
function killAll(): void {
  for (const p of live) p.kill('SIGKILL')
  live.clear()
}
let hooked = false
function hookExit(): void {
  if (hooked) return
  hooked = true
  process.on('exit', killAll)
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(sig, () => {
      killAll()
      process.exit(130)
    })
}

export interface Started {
  readonly child: Child
  /** The stdout line that matched. */
  readonly line: string
  /** Milliseconds from just before `spawn` to that line. */
  readonly ms: number
}

const nowMs = (): number => performance.now()

/** Lines of stdout after the ready line kept for `lineAfterReady`. */
const MAX_LINES_KEPT = 1000

/**
 * Starts `node [--expose-gc --require gc-preload] …args` and resolves once a line of its stdout
 * matches `ready`. Rejects, with the child killed, if it exits first or `timeoutMs` passes.
 * `gcPreload: false` leaves the preload out: for a CLI started with `--save`, whose SIGUSR2 is a
 * save that a full GC would slow down. `keepLines: false` only drains stdout after the ready line
 * (a server's request log, whose lines nobody waits for: splitting them would load the bench).
 */
export function startNode(
  label: string,
  args: readonly string[],
  ready: RegExp,
  timeoutMs: number,
  { gcPreload = true, keepLines = true } = {},
): Promise<Started> {
  hookExit()
  const t0 = nowMs()
  const preload = gcPreload ? ['--expose-gc', '--require', GC_PRELOAD] : []
  const proc = spawn(process.execPath, [...preload, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  live.add(proc)
  let stderr = ''
  proc.stderr!.setEncoding('utf8')
  proc.stderr!.on('data', (s: string) => {
    stderr = (stderr + s).slice(-2000)
  })
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  // Lines after the ready line (the last MAX_LINES_KEPT), and who waits for one.
  const after: string[] = []
  const waiting = new Set<(line: string) => void>()
  const child: Child = {
    label,
    pid: proc.pid ?? -1,
    proc,
    stderrTail: () => stderr.trim(),
    lineAfterReady(line, timeoutMs) {
      const seen = after.find((l) => line.test(l))
      return seen !== undefined ? Promise.resolve(seen) : child.nextLine(line, timeoutMs)
    },
    nextLine(line, timeoutMs) {
      return new Promise<string>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer)
          waiting.delete(onLine)
          proc.off('exit', onExit)
        }
        const onLine = (l: string): void => {
          if (!line.test(l)) return
          done()
          resolve(l)
        }
        const onExit = (): void => {
          done()
          reject(new Error(`${label}: exited before printing ${line}: ${child.stderrTail()}`))
        }
        const timer = setTimeout(() => {
          done()
          reject(new Error(`${label}: printed no ${line} within ${timeoutMs / 1000} s`))
        }, timeoutMs)
        waiting.add(onLine)
        proc.once('exit', onExit)
      })
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM')
        const timer = setTimeout(() => proc.kill('SIGKILL'), 1000)
        await exited
        clearTimeout(timer)
      }
      live.delete(proc)
    },
  }
  return new Promise<Started>((resolve, reject) => {
    let out = ''
    const fail = (why: string): void => {
      clearTimeout(timer)
      void child.stop()
      const tail = child.stderrTail()
      reject(
        new Error(
          `${label}: ${why}${tail ? `; stderr: ${tail.split('\n').slice(-3).join(' ⏎ ')}` : ''}`,
        ),
      )
    }
    const timer = setTimeout(
      () => fail(`printed no ready line within ${+(timeoutMs / 1000).toFixed(2)} s (killed)`),
      timeoutMs,
    )
    const onError = (e: Error): void => fail(`could not start: ${e.message}`)
    const onExit = (code: number | null, signal: string | null): void =>
      fail(`exited (${signal ?? `code ${code}`}) before ready`)
    proc.once('error', onError)
    proc.once('exit', onExit)
    let isReady = false
    const keep = (lines: readonly string[]): void => {
      for (const l of lines) {
        after.push(l)
        for (const wait of [...waiting]) wait(l)
      }
      if (after.length > MAX_LINES_KEPT) after.splice(0, after.length - MAX_LINES_KEPT)
    }
    proc.stdout!.setEncoding('utf8')
    // Also drains stdout, so a chatty child never blocks on a full pipe.
    proc.stdout!.on('data', (s: string) => {
      if (isReady && !keepLines) return
      out += s
      const lines = out.split('\n')
      out = lines.pop()!
      if (isReady) return keep(lines)
      const at = lines.findIndex((l) => ready.test(l))
      if (at < 0) return
      isReady = true
      const ms = nowMs() - t0
      clearTimeout(timer)
      proc.off('error', onError)
      proc.off('exit', onExit)
      keep(lines.slice(at + 1))
      resolve({ child, line: lines[at]!, ms })
    })
  })
}

/** Resident set size of `pid` in bytes (Linux: /proc/<pid>/status VmRSS), NaN elsewhere. */
export function rssBytes(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : NaN
  } catch {
    return NaN
  }
}

/**
 * Milliseconds the main thread of `pid` has run on a CPU (Linux: /proc/<pid>/schedstat, in ns),
 * NaN elsewhere. For a Node server, the time its event loop was busy: what held its other clients,
 * counted alike on a quiet and on a loaded machine (time waiting for a CPU is not in it).
 */
export function mainThreadCpuMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ', 1)[0]) / 1e6
  } catch {
    return NaN
  }
}

/**
 * Milliseconds of CPU that `pid` and every process descended from it have used so far, all their
 * threads (user + system: Linux's /proc/<pid>/stat utime + stime, in ticks of 10 ms), NaN
 * elsewhere. A server of several processes (`serve --workers N`: a primary and its workers) is
 * priced whole: on a machine whose cores are shared, its wall-clock speed says how it fared
 * against the others, its CPU what each request cost. Descendants are found by their parent pid,
 * read anew at each call (a worker started again counts from its own start).
 */
export function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>()
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return NaN
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    let text: string
    try {
      text = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue // it ended meanwhile
    }
    // After the command's name in parentheses (which may hold spaces): state ppid …; utime and
    // stime are the 14th and 15th fields of the line, the 12th and 13th after the name.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ')
    stats.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) })
  }
  if (!stats.has(pid)) return NaN
  const children = new Map<number, number[]>()
  for (const [p, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), p])
  let ticks = 0
  for (const todo = [pid]; todo.length > 0;) {
    const p = todo.pop()!
    ticks += stats.get(p)!.ticks
    todo.push(...(children.get(p) ?? []))
  }
  // USER_HZ: 100 on every Linux architecture Node runs on.
  return ticks * 10
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

export interface Settled {
  readonly bytes: number
  /** False when it was still moving at the deadline (the last sample is reported). */
  readonly stable: boolean
  readonly ms: number
  /**
   * V8's heap used plus external memory after the last full GC (child/gc-on-signal.cjs), NaN when
   * the child did not say: its data, without what malloc and V8 keep committed around it.
   */
  readonly heap: number
}

/** The last `gc-heap` figure a child printed on its stderr (child/gc-on-signal.cjs), or NaN. */
const heapOf = (child: Child): number => {
  const all = [...child.stderrTail().matchAll(/^gc-heap (\d+)$/gm)]
  return all.length === 0 ? NaN : Number(all[all.length - 1]![1])
}

/**
 * RSS once the child is idle: asks it for a full GC (SIGUSR2, see the module note), then samples
 * every 200 ms until five samples in a row lie within 1 % (or 256 kB) of each other, at most
 * `maxMs`. Returns the lowest of those last samples.
 */
export async function settledRss(child: Child, maxMs = 10_000): Promise<Settled> {
  const t0 = nowMs()
  const window: number[] = []
  let gcs = 0
  while (nowMs() - t0 < maxMs) {
    // Two requests, 400 ms apart: the second collects what finalizers of the first released.
    if (gcs < 2 && window.length % 2 === 0) {
      child.proc.kill('SIGUSR2')
      gcs++
    }
    await sleep(200)
    const x = rssBytes(child.pid)
    if (!Number.isFinite(x)) return { bytes: NaN, stable: false, ms: nowMs() - t0, heap: NaN }
    window.push(x)
    if (window.length > 5) window.shift()
    if (gcs >= 2 && window.length === 5) {
      const lo = Math.min(...window)
      const hi = Math.max(...window)
      if (hi - lo <= Math.max(0.01 * lo, 256 * 1024))
        return { bytes: lo, stable: true, ms: nowMs() - t0, heap: heapOf(child) }
    }
  }
  return {
    bytes: window[window.length - 1] ?? NaN,
    stable: false,
    ms: nowMs() - t0,
    heap: heapOf(child),
  }
}
