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
import type { FrameVersion } from './frames.js'

/**
 * The 8 bytes a journal segment starts with: the kind of file and the version of its framing
 * (frames.ts), the one written now. Version 1's (`ENTJRN1`) is still read.
 */
export const JOURNAL_MAGIC = Buffer.from('ENTJRN2\n', 'latin1')
/** The 8 bytes a snapshot file starts with (version 1's, `ENTSNP1`, still read). */
export const SNAPSHOT_MAGIC = Buffer.from('ENTSNP2\n', 'latin1')

/**
 * The framing version of a file whose first bytes are `bytes`, given its kind's magic (version 2's),
 * or undefined when it is not such a file.
 */
export function frameVersionOf(bytes: Uint8Array, magic: Buffer): FrameVersion | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, magic.length))
  if (head.equals(magic)) return 2
  const older = Buffer.from(magic)
  older[6] = 0x31 // '1'
  return head.equals(older) ? 1 : undefined
}

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
