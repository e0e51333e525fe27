/**
 * @module What `serve --project --watch` knows of the 4D code it serves, to say what a reload
 * changed and to refuse one that would break it: each function's text (by class, kind and name;
 * a project method as a whole) and each file's syntax errors. A reload whose code has a syntax
 * error the served code does not have is refused, so a file saved half-written leaves the last
 * good version running; one that a file already had when it was served (the start-up line said
 * it) does not block the reloads of the other files.
 */
import type { CompiledProject, FunctionNode } from '@entistore/4d'
import { join } from 'node:path'

export interface CodeFacts {
  /** `Car.available`, `Car.get label`, `Car.event saving`, `method util` → the function's text. */
  readonly functions: ReadonlyMap<string, string>
  /** Each file with syntax errors → its errors, `file:line:column: message`, in order. */
  readonly syntaxErrors: ReadonlyMap<string, readonly string[]>
}

/** A function's name as the change line says it: `Car.available`, `Car.get label`. */
function functionName(className: string, f: FunctionNode): string {
  const kind = f.functionKind === 'plain' ? '' : `${f.functionKind} `
  const attribute = f.attribute === null ? '' : ` ${f.attribute}`
  return `${className}.${kind}${f.name}${attribute}`
}

/**
 * The facts of `compiled`, its files named from `projectFolder` (the `Project` folder) as a
 * developer opens them.
 */
export function codeFacts(compiled: CompiledProject, projectFolder: string): CodeFacts {
  const functions = new Map<string, string>()
  for (const c of compiled.classes)
    for (const m of c.ast.members)
      if (m.kind === 'Function')
        functions.set(functionName(c.name, m), c.text.slice(m.loc.start.offset, m.loc.end.offset))
  for (const m of compiled.methods) functions.set(`method ${m.name}`, m.text)
  const syntaxErrors = new Map<string, string[]>()
  for (const { file, problems } of compiled.files) {
    const errors = problems
      .filter((p) => p.severity === 'error' && p.code !== 'not-runnable')
      .map((p) => `${join(projectFolder, file)}:${p.line}:${p.column}: ${p.message}`)
    if (errors.length > 0) syntaxErrors.set(file, errors)
  }
  return { functions, syntaxErrors }
}

/**
 * The syntax errors of `next` that the served code (`served`) does not have: those of each file
 * whose errors are not the ones it had when served. Empty when the reload may go on.
 */
export function newSyntaxErrors(served: CodeFacts, next: CodeFacts): string[] {
  const same = (a: readonly string[] | undefined, b: readonly string[]): boolean =>
    a !== undefined && a.length === b.length && a.every((line, i) => line === b[i])
  return [...next.syntaxErrors].flatMap(([file, errors]) =>
    same(served.syntaxErrors.get(file), errors) ? [] : errors,
  )
}

/**
 * One line on what `next` changed of the functions `served` has, `4D code reloaded: added
 * Car.book, changed Car.available, removed Pricing.rates`, or undefined when no function changed.
 */
export function codeChange(served: CodeFacts, next: CodeFacts): string | undefined {
  const added: string[] = []
  const changed: string[] = []
  for (const [name, text] of next.functions) {
    const before = served.functions.get(name)
    if (before === undefined) added.push(name)
    else if (before !== text) changed.push(name)
  }
  const removed = [...served.functions.keys()].filter((name) => !next.functions.has(name))
  const parts = [
    ['added', added],
    ['changed', changed],
    ['removed', removed],
  ] as const
  const said = parts.filter(([, names]) => names.length > 0)
  if (said.length === 0) return undefined
  return `4D code reloaded: ${said.map(([what, names]) => `${what} ${names.join(', ')}`).join('; ')}`
}

/** A refused reload's error: its message lists the new syntax errors (`file:line:column: …`). */
export class CodeSyntaxError extends Error {
  override readonly name = 'CodeSyntaxError'
}

/**
 * The code a watching server serves, between its loads: `check` is given the facts of the code
 * a load compiled (LoadFilesOptions.onProjectCode) and refuses new syntax errors; `served`, once
 * the load is done, makes them the served code's and says what changed.
 */
export class ServedCode {
  #served: CodeFacts | undefined
  #next: CodeFacts | undefined

  /** @throws CodeSyntaxError when `next` has syntax errors the served code does not have */
  check(next: CodeFacts): void {
    this.#next = next
    if (this.#served === undefined) return
    const errors = newSyntaxErrors(this.#served, next)
    if (errors.length > 0) throw new CodeSyntaxError(errors.join('; '))
  }

  /** The load that checked the code last is served: what it changed, or undefined. */
  served(): string | undefined {
    const [before, next] = [this.#served, this.#next]
    this.#served = next
    return before === undefined || next === undefined ? undefined : codeChange(before, next)
  }
}
