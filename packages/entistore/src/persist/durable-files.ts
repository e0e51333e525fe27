/**
 * @module Writing files so that they survive a crash: every byte written, flushed to the disk
 * before the call returns (or the Promise resolves), and a new file put in place whole by a
 * rename whose directory entry is flushed too. Synchronous for the journal's small records, which
 * are written inside their commit; asynchronous (libuv's thread pool) for large records and
 * snapshots, which would hold the event loop: writing 16 MiB takes 50–70 ms here, flushing it
 * 10 ms more. A snapshot's bytes are also made a slice at a time (writeFileDurablyAsync).
 */
import {
  close,
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsync,
  fsyncSync,
  open,
  openSync,
  rename,
  renameSync,
  rm,
  rmSync,
  writeSync,
  writev,
} from 'node:fs'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { SLICE_MS, takeSlice, type SliceTurns } from './take-slice.js'

const openAsync = promisify(open)
const closeAsync = promisify(close)
const fsyncAsync = promisify(fsync)
const renameAsync = promisify(rename)
const rmAsync = promisify(rm)

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

/**
 * removeDurably off the event loop: removing a snapshot of a million rows (170 MB) and flushing
 * the folder held the loop up to 100 ms.
 */
export async function removeDurablyAsync(dir: string, files: readonly string[]): Promise<void> {
  if (files.length === 0) return
  await Promise.all(files.map((file) => rmAsync(file, { force: true })))
  await syncDirAsync(dir)
}

/** Buffers given to one writev: a system call takes at most IOV_MAX (1024 on Linux) of them. */
const CHUNKS_PER_WRITE = 512

/**
 * Writes all of `chunks`, in order, at the end of `fd`, off the event loop (a writev may take
 * fewer bytes than asked: the rest is written by the next).
 */
export async function writeAllAsync(fd: number, chunks: readonly Uint8Array[]): Promise<void> {
  let pending = chunks.filter((c) => c.length > 0)
  while (pending.length > 0) {
    const batch = pending.slice(0, CHUNKS_PER_WRITE)
    let written = await new Promise<number>((resolve, reject) =>
      writev(fd, batch as NodeJS.ArrayBufferView[], (e, n) => (e ? reject(e) : resolve(n))),
    )
    let done = 0
    while (done < batch.length && written >= batch[done]!.length) written -= batch[done++]!.length
    const rest = batch.slice(done)
    if (written > 0) rest[0] = rest[0]!.subarray(written)
    pending = [...rest, ...pending.slice(batch.length)]
  }
}

/** syncData off the event loop. */
export function syncDataAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())))
}

/** Bytes one slice may gather before it is written, however fast they come. */
const SLICE_BYTES = 4 * 1024 * 1024

/**
 * writeFileDurably off the event loop: the same steps, the same guarantee. `chunks` may be made
 * as they are asked for (a snapshot's frames, from a view of the store): they are taken for at
 * most `sliceMs` (or SLICE_BYTES) at a time on `turns`' clock, then written by libuv's thread pool
 * while the event loop serves others, so the loop is never held longer than a slice (plus one
 * chunk's making).
 * The file is never whole in memory. Stopped by an error, the iterator is closed (its `finally`
 * runs) and the temporary file removed.
 */
export async function writeFileDurablyAsync(
  file: string,
  chunks: Iterable<Uint8Array>,
  sliceMs = SLICE_MS,
  turns?: SliceTurns,
): Promise<number> {
  const temp = `${file}.tmp`
  const iterator = chunks[Symbol.iterator]()
  let bytes = 0
  let fd: number
  try {
    fd = await openAsync(temp, 'w')
  } catch (e) {
    iterator.return?.()
    throw e
  }
  try {
    for (let done = false; !done;) {
      const slice = takeSlice(iterator, SLICE_BYTES, sliceMs, turns)
      await writeAllAsync(fd, slice.pieces)
      bytes += slice.size
      done = slice.done
    }
    await fsyncAsync(fd)
  } catch (e) {
    iterator.return?.()
    await closeAsync(fd)
    await rmAsync(temp, { force: true })
    throw e
  }
  await closeAsync(fd)
  await renameAsync(temp, file)
  await syncDirAsync(dirname(file))
  return bytes
}

/** syncDir off the event loop. */
export async function syncDirAsync(dir: string): Promise<void> {
  let fd: number
  try {
    fd = await openAsync(dir, 'r')
  } catch {
    return
  }
  try {
    await fsyncAsync(fd)
  } catch {
    // As syncDir: systems that do not sync directories.
  } finally {
    await closeAsync(fd)
  }
}
