/**
 * @module File paths taken out of a message a client will read: what a class function throws
 * (call.ts) is sent as its error, and an ENOENT, a stack line or a config error names the server's
 * folders. Every form a path is written in is masked with `…`:
 * - absolute: `/srv/app/data.json`, `C:\app\x`, `C:/app/x`, UNC `\\server\share\x` (and `\\?\C:\…`);
 * - relative: `./data/x.json`, `../secret`, `~/x`, and bare ones that end in a file name or a line
 *   number: `src/app/file.ts:12:3`, `data\x.json`;
 * - `file:` URLs;
 * - a path with spaces: whole when it is quoted (`open '/home/me/My Files/x.txt'`, as Node's fs
 *   errors write them), and unquoted as far as the spaces are inside it (`C:\Program Files\app\x`:
 *   a space is part of a path when a separator follows within three words).
 * Ordinary text is left alone: fractions and dates (`1/2`, `12/31/2024`), `and/or`, media types
 * (`image/svg+xml`), protocol versions (`HTTP/1.1`), other URLs (`https://…`, which a function's
 * author wrote on purpose), single words after a slash (`/rest`). What is not detected: a bare
 * relative path without a file name (`data/users`), a last part with spaces outside quotes
 * (`/srv/My Files`: `/srv/…` is masked, ` Files` stays).
 */

/** The longest message kept; the rest is cut (and not scanned: masking is linear in its input). */
const MAX_MESSAGE = 1000
/** How much of a longer message is scanned: enough that a path cut by MAX_MESSAGE is masked too. */
const MAX_SCANNED = 4 * MAX_MESSAGE

// A character of a path's part (not a separator, quote, space or delimiter of the text around it);
// the last part also ends at a bracket, so `(at /srv/x.js:3:1)` keeps its `)`.
const PART = String.raw`[^\s\\/'"\x60<>|*?,;:]`
const LAST = String.raw`[^\s\\/'"\x60<>|*?,;:()\[\]{}]`
// A part followed by a separator may hold spaces: at most three more words.
const INNER = String.raw`${PART}+(?: ${PART}+){0,3}`
// The parts after a path's start, and a `:line:column` after them.
const BODY = String.raw`(?:${INNER}[\\/]+)*${LAST}*(?::\d+){0,2}`
// Before a path's start: not a letter, digit or path character (so `km/h`, `a.b/c` are no start).
const NOT_AFTER = String.raw`(?<![\p{L}\p{N}_.~@+$%#\-])`

const CANDIDATE = new RegExp(
  [
    // 1: quote, 2: a quoted text that starts like a path (spaces and all).
    String.raw`(['"\x60])((?:file:|[A-Za-z]:[\\/]|\\\\|\.{1,2}[\\/]|~[\\/]|\/)[^'"\x60\n]*?)\1`,
    // 3: a URL: masked when it is a file URL, kept otherwise.
    String.raw`(\bfile:[^\s'"\x60<>]+|\b[A-Za-z][A-Za-z0-9+.\-]*:\/\/[^\s'"\x60<>]*)`,
    // 4: UNC, a drive, `./`, `../`, `~/`, or absolute.
    String.raw`(\\\\+(?:[?.]\\(?:[A-Za-z]:\\)?)?${BODY}|${NOT_AFTER}(?:[A-Za-z]:[\\/]+|(?:\.{1,2}|~)[\\/]+|\/+(?=${PART}))${BODY})`,
    // 5: bare relative, without spaces: `src/app/file.ts:12:3`.
    String.raw`(${NOT_AFTER}(?<![\\/])${LAST}+(?:[\\/]${LAST}+)+(?::\d+){0,2})`,
  ].join('|'),
  'gu',
)

const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/
const LINE = /(?::\d+){1,2}$/

/**
 * Whether `path` (no trailing dots) is a path rather than ordinary text with a slash: it starts as
 * only a path does (a drive, UNC, `./`, `file:`), or has a part then a separator after its start,
 * or names a file (an extension) or a line.
 */
function isPath(path: string): boolean {
  if (/^(?:file:|[A-Za-z]:[\\/]|\\\\|\.{1,2}[\\/]|~[\\/])/.test(path))
    return /[^\\/.~:]/.test(path.replace(/^(?:file:|[A-Za-z]:)/, ''))
  if (LINE.test(path)) return true
  const rest = path.replace(/^[\\/]+/, '')
  const absolute = rest.length < path.length
  if (absolute && /^[^\\/]+[\\/]/.test(rest)) return true
  // A bare relative path, or `/name` alone: only with a file name.
  return EXTENSION.test(rest.replace(/[\\/]+$/, ''))
}

function mask(
  match: string,
  quote: string | undefined,
  quoted: string | undefined,
  url: string | undefined,
): string {
  if (quote !== undefined) return isPath(quoted!) ? `${quote}…${quote}` : match
  if (url !== undefined) return /^file:/i.test(url) ? '…' : match
  // A sentence's full stop after a path is not part of it.
  const dots = /\.+$/.exec(match)?.[0] ?? ''
  const path = match.slice(0, match.length - dots.length)
  return path !== '' && isPath(path) ? `…${dots}` : match
}

/** `message` with file paths masked (see the module note) and cut to a readable length. */
export function maskMessage(message: string): string {
  const scanned = message.length > MAX_SCANNED ? message.slice(0, MAX_SCANNED) : message
  const masked = scanned.replace(CANDIDATE, mask)
  return masked.length > MAX_MESSAGE ? `${masked.slice(0, MAX_MESSAGE)}…` : masked
}
