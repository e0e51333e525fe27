/**
 * @module The break modes of a document's text (FileClass.md, `getText({charSet {; breakMode}})`
 * and `setText(text {; charSet {; breakMode}})`: `Document unchanged` 0, `Document with native
 * format` 1, `Document with CRLF` 2, `Document with CR` 3, `Document with LF` 4). 4D.File and
 * 4D.ZipFile (file-objects.ts, zip-objects.ts) both read a text this way, so it lives beside them.
 */
import { raise } from '../errors/fourd-error.js'

// The line breaks of `Document with native format` (1): the server's, Linux's and macOS's LF.
const BREAKS: readonly (string | undefined)[] = [undefined, '\n', '\r\n', '\r', '\n']

/**
 * `text` with its line breaks (CR, LF, CRLF) made those of `breakMode` (`Document with CRLF`…);
 * none given, or `Document unchanged` (0), leaves them as they are. `command` names the caller in
 * the error a wrong mode raises.
 */
export function withBreaks(text: string, breakMode: unknown, command: string): string {
  if (breakMode === undefined) return text
  const mode = typeof breakMode === 'number' ? breakMode : NaN
  if (!(mode >= 0 && mode < BREAKS.length && Number.isInteger(mode)))
    return raise('InvalidArgument', {
      parameter: 'breakMode',
      command,
      detail: `${String(breakMode)} is no break mode (Document unchanged … Document with LF)`,
    })
  const to = BREAKS[mode]
  return to === undefined ? text : text.replace(/\r\n|\r|\n/g, to)
}
