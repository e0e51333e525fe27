/**
 * @module `entistore check --project`: the project's code read and compiled by @entistore/4d, its
 * problems printed one a line (`file:line:column: message`, the file as the folder given names
 * it) with a summary, or as JSON; exit 1 when some code would fail when it runs.
 */
import { join } from 'node:path'
import { FileError } from '../files/file-error.js'
import { loadProject } from '../project/load-project.js'

export interface CheckOptions {
  readonly project: string
  readonly json: boolean
}

export async function runCheckCommand(
  options: CheckOptions,
  io: { out(line: string): void },
): Promise<number> {
  const fourD = await import('@entistore/4d')
  let sources
  try {
    sources = await fourD.readProjectSources(options.project)
  } catch (e) {
    throw new FileError(options.project, (e as Error).message, { cause: e })
  }
  const compiled = fourD.compileProject(sources.files, {
    dataClasses: await structureDataClasses(options.project),
  })
  const name = (file: string): string => join(sources.root, file)
  const report = fourD.checkReport(compiled.files, name)
  if (options.json) io.out(JSON.stringify(report, null, 2))
  else {
    for (const line of fourD.problemLines(compiled.files, name)) io.out(line)
    io.out(fourD.checkSummary(report))
  }
  return fourD.wouldFail(report) ? 1 : 0
}

/**
 * The dataclasses of the project's structure, whose ORDA classes `cs.` may name; none for a
 * folder of class files without a structure (checked before it has one).
 */
async function structureDataClasses(folder: string): Promise<string[]> {
  try {
    return (await loadProject(folder)).model.dataClasses.map((dc) => dc.name)
  } catch {
    return []
  }
}
