/**
 * @module A project's web server settings beside REST, read once at start as 4D reads them
 * (docs/web-server.md): `Project/Sources/HTTPHandlers.json`, the HTTP request handlers (20 R8),
 * and `Project/Sources/HTTPRules.json`, the HTTP rules (21). A file that is not there is no
 * setting; one that is not valid JSON, or whose entries are not what 4D documents, stops the start
 * with one line naming the file and the place (`HTTPHandlers.json:3:5: …`,
 * `HTTPRules.json: … [1].status: …`).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { DatastoreError } from '@entistore/core'
import {
  checkHttpHandlers,
  checkHttpRules,
  type HttpHandlerDef,
  type HttpRuleDef,
} from '@entistore/rest'
import { FileError } from '../files/file-error.js'
import { readJsonFile } from '../files/json-file.js'
import { projectFiles } from './project-files.js'

/** The options of `createRestHandler` a project's files give. */
export interface ProjectHttpSettings {
  readonly handlers?: readonly HttpHandlerDef[]
  readonly rules?: readonly HttpRuleDef[]
}

/**
 * The HTTP request handlers and rules of the project at `folder` (its `Project` folder or the one
 * above), checked.
 * @throws FileError naming the file, and the line and column or the entry, of a mistake
 */
export async function projectHttpSettings(folder: string): Promise<ProjectHttpSettings> {
  const sources = join(projectFiles(folder).project, 'Sources')
  const handlers = await read(join(sources, 'HTTPHandlers.json'), 'handlers', checkHttpHandlers)
  const rules = await read(join(sources, 'HTTPRules.json'), 'rules', checkHttpRules)
  return {
    ...(handlers === undefined ? {} : { handlers: handlers as HttpHandlerDef[] }),
    ...(rules === undefined ? {} : { rules: rules as HttpRuleDef[] }),
  }
}

/** The JSON of `file` when it exists, checked by `check`, which names its entries `what[i]`. */
async function read(
  file: string,
  what: 'handlers' | 'rules',
  check: (value: unknown, where: string) => unknown,
): Promise<unknown> {
  if (!existsSync(file)) return undefined
  const value = await readJsonFile(file, `HTTP ${what}`)
  try {
    check(value, what)
  } catch (e) {
    if (!DatastoreError.is(e)) throw e
    throw new FileError(file, e.message, { cause: e })
  }
  return value
}
