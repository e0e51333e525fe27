/**
 * @module `LAUNCH EXTERNAL PROCESS` and `SET ENVIRONMENT VARIABLE` (launch-external-process.md,
 * set-environment-variable.md): a program run with its arguments, its standard input given, its
 * standard output and error written back (a Text as UTF-8, or a BLOB), its process number; OK 1
 * when it started, 0 when it could not (not found). The programs that may run are the host's to
 * say (`rt.exec`: entistore's `--allow-exec`, none by default); another raises 9437.
 *
 * The command line is split as a shell would split words — spaces, `"…"` and `'…'` — and run
 * without a shell (4D's page: "it cannot execute instructions that are part of the shell").
 * The variables `SET ENVIRONMENT VARIABLE` sets, and 4D's three options among them
 * (`_4D_OPTION_CURRENT_DIRECTORY`, `_4D_OPTION_HIDE_CONSOLE`, `_4D_OPTION_BLOCKING_EXTERNAL_PROCESS`),
 * are "valid in the current process for the next call" only: the call takes them away.
 */
import { textArg, invalid } from '../arguments/arguments.js'
import { isOutParameter } from '../arguments/out-parameter.js'
import { raise } from '../errors/fourd-error.js'
import { blobBytes } from '../values/blob-object.js'
import type { CommandContext, ExecHost } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

// The variables of each running context (a process), for its next launch.
const pending = new WeakMap<object, Map<string, string>>()

/** `text` split into words: spaces separate, quotes group (and are taken away). */
export function commandWords(text: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: string | null = null
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quote !== null) {
      if (c === quote) quote = null
      else if (c === '\\' && quote === '"' && text[i + 1] === '"') word += text[++i]
      else word += c
    } else if (c === '"' || c === "'") {
      quote = c
      inWord = true
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += c
      inWord = true
    }
  }
  if (inWord) words.push(word)
  return words
}

const utf8 = new TextEncoder()

/** A stream given: a Text (UTF-8), a BLOB; nothing is empty. */
function inputOf(v: unknown): Uint8Array {
  const value = isOutParameter(v) ? v.get() : v
  if (value === undefined || value === null) return new Uint8Array(0)
  if (typeof value === 'string') return utf8.encode(value)
  return blobBytes(value) ?? utf8.encode(String(value))
}

/** Writes `bytes` to the variable `v` given for a stream: a BLOB variable as bytes, else text. */
function output(v: unknown, bytes: Uint8Array): void {
  if (!isOutParameter(v)) return
  const was = v.get()
  v.set(
    blobBytes(was) !== undefined && typeof was !== 'string'
      ? bytes
      : new TextDecoder().decode(bytes),
  )
}

const host = (rt: CommandContext, program: string): ExecHost =>
  rt.exec ?? raise('ExecNotAllowed', { program, detail: 'no program may run (serve --allow-exec)' })

export const EXTERNAL_PROCESS_COMMANDS: readonly CommandSpec[] = [
  {
    number: 811,
    name: 'LAUNCH EXTERNAL PROCESS',
    signature: '(fileName: Text; ...streams: any)',
    writes: [1, 2, 3, 4],
    impl: (rt, fileName, ...rest) => {
      const command = 'LAUNCH EXTERNAL PROCESS'
      const [program, ...args] = commandWords(textArg(command, 'fileName', fileName))
      if (program === undefined) return invalid(command, 'fileName', 'it names no program')
      // `(fileName; pid)`: a number variable second is the pid (the page's example 11).
      const pidOnly =
        rest.length === 1 && isOutParameter(rest[0]) && typeof rest[0].get() === 'number'
      const [input, out, err, pid] = pidOnly ? [undefined, undefined, undefined, rest[0]] : rest
      const env = Object.fromEntries(pending.get(rt) ?? [])
      pending.delete(rt)
      const { _4D_OPTION_CURRENT_DIRECTORY: cwd, _4D_OPTION_BLOCKING_EXTERNAL_PROCESS: blocking } =
        env
      for (const option of Object.keys(env))
        if (option.startsWith('_4D_OPTION_')) delete env[option]
      const reply = host(rt, program).run({
        program,
        args,
        ...(cwd === undefined || cwd === '' ? {} : { cwd }),
        env,
        input: inputOf(input),
        blocking: blocking?.toLowerCase() !== 'false',
      })
      if ('refused' in reply) return raise('ExecNotAllowed', { program, detail: reply.refused })
      if ('failed' in reply) return rt.pvSet('OK', 0)
      if (blocking?.toLowerCase() !== 'false') {
        output(out, reply.stdout)
        output(err, reply.stderr)
      }
      if (isOutParameter(pid)) pid.set(reply.pid)
      rt.pvSet('OK', 1)
    },
  },
  {
    number: 812,
    name: 'SET ENVIRONMENT VARIABLE',
    signature: '(varName: Text; varValue: Text)',
    impl: (rt, name, value) => {
      const key = textArg('SET ENVIRONMENT VARIABLE', 'varName', name)
      const text = textArg('SET ENVIRONMENT VARIABLE', 'varValue', value)
      let vars = pending.get(rt)
      if (vars === undefined) pending.set(rt, (vars = new Map()))
      // "" for the blocking option "does nothing" (launch-external-process.md).
      if (key === '_4D_OPTION_BLOCKING_EXTERNAL_PROCESS' && text === '') return
      vars.set(key, text)
    },
  },
]
