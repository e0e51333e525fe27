/**
 * @module External programs for 4D code (`LAUNCH EXTERNAL PROCESS`), those the server allows and
 * no other: `entistore serve --allow-exec git,convert` (none by default: code a client can reach
 * must not run what it likes on the server). A program is allowed by the name written in the code
 * (`git`, found on the PATH) or by its path (`/usr/bin/git`), never through a shell. It runs in
 * the project's folder unless the code names another inside it (`_4D_OPTION_CURRENT_DIRECTORY`),
 * with the server's environment and the variables the code set; the call waits for it (at most
 * two minutes, 16 MB of output), as 4D's command waits, unless the code asks not to
 * (`_4D_OPTION_BLOCKING_EXTERNAL_PROCESS` "false"): then it is started alone and only its process
 * number is answered.
 */
import { spawn, spawnSync } from 'node:child_process'
import { basename, isAbsolute, relative, resolve } from 'node:path'
import type { ExecAsk, ExecHost, ExecReply } from '@entistore/4d'

const TIMEOUT_MS = 120_000
const MAX_OUTPUT = 16 * 1024 * 1024

/** Why `program` may not run, given the programs `allowed` (`--allow-exec`); undefined: it may. */
export function programRefusal(program: string, allowed: readonly string[]): string | undefined {
  // A bare name allows that name on the PATH; a path allows that file only.
  const fits = allowed.some(
    (a) => a === program || (!a.includes('/') && basename(program) === a && !program.includes('/')),
  )
  return fits
    ? undefined
    : allowed.length === 0
      ? 'no program may run (serve --allow-exec names those that may)'
      : `it is not one of --allow-exec's (${allowed.join(', ')})`
}

/** Whether `folder` is `root` or inside it. */
const inside = (root: string, folder: string): boolean => {
  const r = relative(root, folder)
  return r === '' || (!r.startsWith('..') && !isAbsolute(r))
}

/** The host running the programs `allowed` in the project folder `root`; none allowed: none. */
export function execHost(
  allowed: readonly string[] | undefined,
  root: string,
): ExecHost | undefined {
  if (allowed === undefined || allowed.length === 0) return undefined
  return {
    run(ask: ExecAsk): ExecReply | { refused: string } | { failed: string } {
      const refused = programRefusal(ask.program, allowed)
      if (refused !== undefined) return { refused }
      const cwd = ask.cwd === undefined ? root : resolve(root, ask.cwd)
      if (!inside(root, cwd)) return { refused: `its folder ${ask.cwd} is outside the project` }
      const env = { ...process.env, ...ask.env }
      if (!ask.blocking) {
        const child = spawn(ask.program, [...ask.args], {
          cwd,
          env,
          detached: true,
          stdio: 'ignore',
        })
        // A program not found is known only on the next turn: its pid is undefined now.
        if (child.pid === undefined) return { failed: `${ask.program} could not start` }
        child.on('error', () => undefined)
        child.unref()
        return {
          pid: child.pid,
          stdout: new Uint8Array(0),
          stderr: new Uint8Array(0),
          status: null,
        }
      }
      const r = spawnSync(ask.program, [...ask.args], {
        cwd,
        env,
        input: ask.input,
        timeout: TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT,
      })
      if (r.error !== undefined && (r.error as NodeJS.ErrnoException).code === 'ENOENT')
        return { failed: `${ask.program} was not found` }
      return {
        pid: r.pid ?? 0,
        stdout: new Uint8Array(r.stdout ?? []),
        stderr: new Uint8Array(r.stderr ?? []),
        status: r.status,
      }
    },
  }
}
