/**
 * @module `npm run bench -- --model m.json --data d.json [--quick]`: the bench on one's own model and
 * data (issue 52; the suite is suites/own-data.bench.ts). Its options are its own, as the public
 * benchmark's are (public.ts): the other suites' sizes and rows mean nothing for a user's files.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { ensurePackagesBuilt, loadEngine } from './engine.ts'
import { runOwnDataSuite, type OwnDataOptions } from './suites/own-data.bench.ts'

export const OWN_DATA_HELP = `  --model m.json --data d.json [--quick]
                     the bench on your own model and data: the load and the heap a row
                     against JSON.parse, a read by key of each dataclass and an equality query
                     on its first attributes against plain JS, and a GET by key through
                     entistore serve against raw node:http (≈30 s on the demo; --quick ≈10 s)`

/** The files and `--quick` out of `argv` (`--model m.json` or `--model=m.json`); exits 2 on a mistake. */
export function parseOwnData(argv: readonly string[]): OwnDataOptions {
  const files: Record<'model' | 'data', string | undefined> = { model: undefined, data: undefined }
  let quick = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string?]
    if (name === '--quick') quick = true
    else if (name === '--model' || name === '--data') {
      const value = inline ?? argv[++i]
      if (value === undefined || value.startsWith('--')) usage(`${name} needs a file`)
      files[name.slice(2) as 'model' | 'data'] = resolve(value!)
    } else usage(`${arg}: with --model and --data, the only other option is --quick`)
  }
  for (const what of ['model', 'data'] as const) {
    const file = files[what]
    if (file === undefined) usage(`--${what} is needed too`)
    if (!existsSync(file!)) usage(`--${what}: no file ${file}`)
  }
  return {
    model: files.model!,
    data: files.data!,
    timing: quick
      ? { warmup: 1, warmupMs: 50, reps: 3, minSampleMs: 10 }
      : { warmup: 2, warmupMs: 200, reps: 7, minSampleMs: 40 },
    load: {
      connections: 16,
      seconds: quick ? 1 : 3,
      rounds: quick ? 1 : 2,
      warmupSeconds: quick ? 0.5 : 1,
      pathsPerConnection: 1024,
    },
  }
}

function usage(why: string): never {
  console.error(`npm run bench: ${why}\n${OWN_DATA_HELP}`)
  process.exit(2)
}

export async function runOwnData(argv: readonly string[]): Promise<void> {
  const o = parseOwnData(argv)
  const t0 = Date.now()
  console.log(`# Entistore on your data — ${new Date().toISOString()}`)
  const engine = await loadEngine('compiled')
  console.log(`engine: ${engine.label}`)
  console.log(ensurePackagesBuilt('auto'))
  await runOwnDataSuite(engine.core, o)
  console.log(`\ndone in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
}
