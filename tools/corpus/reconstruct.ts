/**
 * @module A corpus project written out of its repository's snapshot: the bare git directory the
 * search tool's `fetch` brings (`ENTISTORE_MIRROR`, else /work/.mirror/<owner>+<name>/repo), read
 * at the manifest's commit, the project's folder written into the corpus folder. A snapshot lacks
 * its files of 4 MiB and more (data files, bundles): those are skipped, so `git archive`, which
 * stops at the first, is not used. The result is checked against the manifest's digest.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import {
  componentFolder,
  digest,
  projectFolder,
  repoFolder,
  type CorpusComponent,
  type CorpusEntry,
} from './manifest.ts'

export const mirrorOf = (e: Pick<CorpusEntry, 'repo'>): string =>
  join(process.env.ENTISTORE_MIRROR ?? '/work/.mirror', e.repo.replace('/', '+'), 'repo')

export interface Reconstructed {
  readonly written: number
  /** Files the snapshot does not hold (too large): none of them is read by Entistore. */
  readonly absent: number
  /** Whether the files Entistore reads are the manifest's. */
  readonly matches: boolean
}

/** Writes `e`'s project folder from its snapshot; undefined when there is no snapshot here. */
export function reconstruct(e: CorpusEntry): Reconstructed | undefined {
  const r = writeSnapshot(e, e.root, repoFolder(e))
  return r && { ...r, matches: digest(projectFolder(e)).sha256 === e.sha256 }
}

/** Writes a component's repository from its snapshot into the corpus' components folder. */
export function reconstructComponent(c: CorpusComponent): Reconstructed | undefined {
  const r = writeSnapshot(c, '.', componentFolder(c))
  return r && { ...r, matches: digest(componentFolder(c)).sha256 === c.sha256 }
}

/** Writes the folder `root` of `e`'s snapshot at its commit into `out` (emptied first). */
function writeSnapshot(
  e: Pick<CorpusEntry, 'repo' | 'commit'>,
  root: string,
  out: string,
): Omit<Reconstructed, 'matches'> | undefined {
  const git = mirrorOf(e)
  if (!existsSync(git)) return undefined
  const run = (args: string[], input?: string): Buffer =>
    execFileSync('git', ['--git-dir', git, ...args], {
      input,
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'ignore'],
    })
  const prefix = root === '.' ? '' : `${root}/`
  const listed = run(['ls-tree', '-r', '-z', e.commit, '--', prefix === '' ? '.' : prefix])
    .toString('utf8')
    .split('\0')
    .filter((l) => l !== '')
    .map((l) => {
      const [meta, path] = l.split('\t') as [string, string]
      const [mode, type, sha] = meta.split(' ') as [string, string, string]
      return { mode, type, sha, path }
    })
    .filter((f) => f.type === 'blob' && f.mode !== '120000')
  rmSync(out, { recursive: true, force: true })
  // Every blob in one call: `<sha> blob <size>` LF, the bytes, LF; a blob the snapshot lacks
  // answers `<sha> missing` LF.
  const batch = run(['cat-file', '--batch'], listed.map((f) => f.sha).join('\n') + '\n')
  let at = 0
  let written = 0
  for (const f of listed) {
    const eol = batch.indexOf(10, at)
    const head = batch.subarray(at, eol).toString('latin1').split(' ')
    at = eol + 1
    if (head[1] !== 'blob') continue
    const size = Number(head[2])
    const file = join(out, ...posix.normalize(f.path).split('/'))
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, batch.subarray(at, at + size))
    at += size + 1
    written++
  }
  return { written, absent: listed.length - written }
}
