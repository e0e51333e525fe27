/**
 * @module `run4d`: 4D code run at once, for tests and examples — a method's text, with project
 * methods and classes beside it, on a new running context; its result, or its 4D error thrown.
 */
import { ClassStore } from '../runtime/context/class-store.js'
import { MethodRegistry } from '../runtime/context/methods.js'
import { Runtime, type RuntimeOptions } from '../runtime/index.js'
import { compileClass } from './compile-class.js'
import { compileMethod, type CompileOptions } from './compile-method.js'
import { compileFormulaText } from './formula-text.js'
import { Session, type Problem } from './session.js'

export interface Run4dOptions extends CompileOptions {
  /** Project methods by name: their text. */
  readonly methods?: Readonly<Record<string, string>>
  /** User classes by name: their text. */
  readonly classes?: Readonly<Record<string, string>>
  /** The running context's options (a budget, a clock…). */
  readonly runtime?: RuntimeOptions
  /** Receives the problems of every file compiled. */
  readonly problems?: (file: string, problems: readonly Problem[]) => void
  /** With `emit.steps`: called at each stop of the generator (where a slice may end). */
  readonly stopped?: () => void
}

export function run4d(
  text: string,
  args: readonly unknown[] = [],
  options: Run4dOptions = {},
): unknown {
  const classes = options.runtime?.classes ?? new ClassStore()
  const methods = options.runtime?.methods ?? new MethodRegistry()
  const compile = { emit: options.emit }
  for (const [name, source] of Object.entries(options.classes ?? {})) {
    const file = `Project/Sources/Classes/${name}.4dm`
    const session = new Session(file)
    compileClass(source, classes, { ...compile, file, name, session })
    options.problems?.(file, session.problems)
  }
  for (const [name, source] of Object.entries(options.methods ?? {})) {
    const method = compileMethod(source, {
      ...compile,
      file: `Project/Sources/Methods/${name}.4dm`,
    })
    options.problems?.(method.file, method.problems)
    methods.define(name, method.fn)
  }
  const main = compileMethod(text, { ...compile, file: 'Project/Sources/Methods/run4d.4dm' })
  options.problems?.(main.file, main.problems)
  const rt = new Runtime({
    compileFormula: compileFormulaText,
    ...options.runtime,
    classes,
    methods,
  })
  // `emit.steps`: the method's generator, driven to its end (what a call in slices runs).
  if (options.emit?.steps !== true) return main.call(rt, args)
  return rt.run(() => {
    const steps = main.fn.steps(rt, undefined, [...args])!
    for (;;) {
      const r = steps.next()
      if (r.done === true) return r.value
      options.stopped?.()
    }
  })
}
