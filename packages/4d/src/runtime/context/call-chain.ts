/**
 * @module The call chain of a run (`Get call chain`, get-call-chain.md): each piece of compiled 4D
 * code pushes its frame when it starts and pops it when it ends (compile-method.ts's functions),
 * so the chain is what runs now, innermost last. The line each frame is at is read when the chain
 * is asked, from the JavaScript stack: the generated code of a unit keeps its 4D file's name and
 * lines (compile/build.ts), so a frame of the stack reads `Sources/Classes/Car.4dm:12`.
 */

/** One step of the chain: what runs, in which file, of which project or component. */
export interface CallFrame {
  /** 4D's kind: `projectMethod`, `classFunction`, `executeFormula`. */
  readonly type: string
  /** `myMethod`, `Car.drive`: as `Current method name` says it. */
  readonly name: string
  readonly file: string
  /** The project's name, or the component's, whose code it is. */
  readonly database: string
}

/** One step as `Get call chain` answers it. */
export interface CallStep {
  readonly type: string
  readonly name: string
  readonly line: number
  readonly database: string
}

// `    at Car.drive (Sources/Classes/Car.4dm:12:5)` or `    at Sources/Methods/my method.4dm:3:1`.
const FRAME = /^\s*at (?:.*? \()?(.+\.4dm):(\d+):\d+\)?$/

/** The 4D files and lines of the JavaScript stack now, innermost first. */
function stackLines(): { file: string; line: number }[] {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 200
  const stack = new Error().stack ?? ''
  Error.stackTraceLimit = limit
  const out: { file: string; line: number }[] = []
  for (const text of stack.split('\n')) {
    const m = FRAME.exec(text)
    if (m !== null) out.push({ file: m[1]!, line: Number(m[2]) })
  }
  return out
}

/**
 * The chain of `frames`, innermost first, each at the line the JavaScript stack shows for its
 * file (the next frame of that file, going out); 0 when the stack has none (it is cut at 200).
 */
export function callChain(frames: readonly CallFrame[]): CallStep[] {
  const lines = stackLines()
  const out: CallStep[] = []
  let at = 0
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i]!
    let line = 0
    for (let j = at; j < lines.length; j++)
      if (lines[j]!.file === f.file || lines[j]!.file.endsWith(`/${f.file}`)) {
        line = lines[j]!.line
        at = j + 1
        break
      }
    out.push({ type: f.type, name: f.name, line, database: f.database })
  }
  return out
}
