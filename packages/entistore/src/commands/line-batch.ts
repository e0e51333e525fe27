/**
 * @module The request log's writer on the process's stdout: its lines are gathered and written
 * once a turn of the event loop rather than one write a line, which cost more than the line
 * itself (a system call for each request, a third of what the log cost a GET by key). A write
 * holds at most 4096 bytes of whole lines (PIPE_BUF, what one write into a pipe delivers whole),
 * so that the workers of `--workers N`, writing into the stdout they share, never split or mix
 * each other's lines. What is gathered is written at the latest when the process exits.
 */

/** The most bytes written at once: a pipe delivers a write of this many or fewer whole. */
export const MAX_WRITE = 4096

/** A writer of lines to `write` (`process.stdout.write`), a batch a turn. */
export function batchedLines(
  write: (text: string) => void,
  schedule: (flush: () => void) => void = setImmediate,
): (line: string) => void {
  let batch = ''
  let bytes = 0
  let scheduled = false
  const flush = (): void => {
    scheduled = false
    if (batch === '') return
    const text = batch
    batch = ''
    bytes = 0
    write(text)
  }
  process.once('exit', flush)
  return (line) => {
    const text = `${line}\n`
    const size = Buffer.byteLength(text)
    if (bytes + size > MAX_WRITE) flush()
    batch += text
    bytes += size
    if (!scheduled) {
      scheduled = true
      schedule(flush)
    }
  }
}
