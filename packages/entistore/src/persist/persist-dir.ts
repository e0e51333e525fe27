/**
 * @module What a persistence folder holds, by file name:
 *
 * - `snapshot-<lsn>.snap`: the whole store after the record numbered `lsn` (0: before any);
 * - `journal-<lsn>.log`: records from number `lsn` on, one segment a snapshot;
 * - `*.tmp`: a file being written when a crash came, removed at start-up.
 *
 * Numbers are written with 16 digits, so that names sort as numbers do.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The 8 bytes a journal segment starts with: the kind of file and the version of its framing. */
export const JOURNAL_MAGIC = Buffer.from('ENTJRN1\n', 'latin1')
/** The 8 bytes a snapshot file starts with. */
export const SNAPSHOT_MAGIC = Buffer.from('ENTSNP1\n', 'latin1')

const pad = (n: number): string => String(n).padStart(16, '0')
export const snapshotName = (lsn: number): string => `snapshot-${pad(lsn)}.snap`
export const segmentName = (first: number): string => `journal-${pad(first)}.log`

const SNAPSHOT = /^snapshot-(\d{16})\.snap$/
const SEGMENT = /^journal-(\d{16})\.log$/

export interface NumberedFile {
  /** The snapshot's last record, or the segment's first. */
  readonly lsn: number
  readonly file: string
}

export interface DirListing {
  /** Oldest first. */
  readonly snapshots: readonly NumberedFile[]
  /** Oldest first. */
  readonly segments: readonly NumberedFile[]
  readonly temps: readonly string[]
}

/** The folder's snapshots, journal segments and leftover temporary files (other files are ignored). */
export function listDir(dir: string): DirListing {
  const snapshots: NumberedFile[] = []
  const segments: NumberedFile[] = []
  const temps: string[] = []
  for (const name of readdirSync(dir)) {
    const snap = SNAPSHOT.exec(name)
    const seg = SEGMENT.exec(name)
    if (snap) snapshots.push({ lsn: Number(snap[1]), file: join(dir, name) })
    else if (seg) segments.push({ lsn: Number(seg[1]), file: join(dir, name) })
    else if (name.endsWith('.tmp')) temps.push(join(dir, name))
  }
  const byLsn = (a: NumberedFile, b: NumberedFile): number => a.lsn - b.lsn
  return { snapshots: snapshots.sort(byLsn), segments: segments.sort(byLsn), temps }
}
