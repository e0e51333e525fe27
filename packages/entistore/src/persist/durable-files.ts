/**
 * @module Writing files so that they survive a crash: every byte written, flushed to the disk
 * before the call returns, and a new file put in place whole by a rename whose directory entry is
 * flushed too. Synchronous on purpose: the journal writes inside a commit, which is synchronous,
 * and a write is acknowledged only once its record is on disk.
 */
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'

/** Writes all of `bytes` at the end of `fd` (a write may take fewer bytes than asked). */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done)
}

/**
 * Flushes a file's data to the disk. fdatasync, not fsync: it skips the times of the file but
 * keeps its size, which is what an append needs to be read back.
 */
export function syncData(fd: number): void {
  fdatasyncSync(fd)
}

/**
 * Flushes a directory, so that files created, renamed or removed in it stay so after a crash.
 * Some systems cannot open a directory (Windows): there the rename is as durable as they make it.
 */
export function syncDir(dir: string): void {
  let fd: number
  try {
    fd = openSync(dir, 'r')
  } catch {
    return
  }
  try {
    fsyncSync(fd)
  } catch {
    // EISDIR, EINVAL, EPERM on systems that do not sync directories.
  } finally {
    closeSync(fd)
  }
}

/**
 * Writes `chunks` to `file` through `file.tmp`: written, flushed, renamed over `file`, the
 * directory flushed. A crash leaves the old file or the new one whole, and at worst a `.tmp` that
 * the next start removes.
 */
export function writeFileDurably(file: string, chunks: Iterable<Uint8Array>): number {
  const temp = `${file}.tmp`
  const fd = openSync(temp, 'w')
  let bytes = 0
  try {
    for (const chunk of chunks) {
      writeAll(fd, chunk)
      bytes += chunk.length
    }
    fsyncSync(fd)
  } catch (e) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw e
  }
  closeSync(fd)
  renameSync(temp, file)
  syncDir(dirname(file))
  return bytes
}

/** Removes `files` from `dir`, then flushes the folder so that they stay removed. */
export function removeDurably(dir: string, files: readonly string[]): void {
  if (files.length === 0) return
  for (const file of files) rmSync(file, { force: true })
  syncDir(dir)
}
