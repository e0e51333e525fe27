/**
 * @module A web server quotas file: a 4D project's `Project/Sources/QuotaManager.json` (4D 21 R5),
 * read by `serve --project`, or the file `serve --quotas` names, which wins over it as 4D's
 * `settings.quotas` wins over the project's file. A file that is not valid JSON, or that names or
 * values a quota as 4D does not take, stops the start (4D: "the Web server does not start and
 * returns error 551 - JSON malformed") with one line naming the file and the place.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { lineAndColumn, readJsonSyntaxError, readWebQuotas, type WebQuotas } from '@entistore/rest'
import { FileError, unreadableFile } from '../files/file-error.js'

/** The quotas file of the project whose `Project` folder is `project`, when it has one. */
export function projectQuotaFile(project: string): string | undefined {
  const file = join(project, 'Sources', 'QuotaManager.json')
  return existsSync(file) ? file : undefined
}

const MALFORMED = 'error 551, JSON malformed'

/**
 * The quotas `file` holds.
 * @throws FileError naming the file, the line and column, and 4D's error 551
 */
export async function readQuotaFile(file: string): Promise<WebQuotas> {
  let text: string
  try {
    text = (await readFile(file)).toString('utf8')
  } catch (e) {
    throw unreadableFile(file, 'quotas', e)
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e
    const { reason, position } = readJsonSyntaxError(e.message, text.length)
    const at = position === undefined ? {} : lineAndColumn(text, position)
    throw new FileError(file, `${MALFORMED}: ${reason}`, { cause: e, ...at })
  }
  try {
    return readWebQuotas(json, 'QuotaManager.json')
  } catch (e) {
    // The member at fault, found where the file names it.
    const name = /^QuotaManager\.json\.([^:]+):/.exec((e as Error).message)?.[1]
    const position = name === undefined ? -1 : text.indexOf(JSON.stringify(name))
    const at = position < 0 ? {} : lineAndColumn(text, position)
    const why = (e as Error).message.replace(/^QuotaManager\.json(\.[^:]+)?: /, '')
    throw new FileError(file, `${MALFORMED}: ${why}`, { cause: e, ...at })
  }
}

/**
 * The quotas `serve` enforces: the `--quotas` file's, else the project's QuotaManager.json, else
 * none (undefined).
 */
export async function serveQuotas(
  quotasFile: string | undefined,
  project: string | undefined,
  projectFolder: (folder: string) => string,
): Promise<WebQuotas | undefined> {
  const file =
    quotasFile ?? (project === undefined ? undefined : projectQuotaFile(projectFolder(project)))
  return file === undefined ? undefined : readQuotaFile(file)
}
