/**
 * @module `PROCESS 4D TAGS(inputTemplate; outputResult {; param…})` (docs/commands-legacy/
 * process-4d-tags.md): the template's transformation tags (docs/Tags/transformation-tags.md,
 * read into a tree by four-d-tags.ts) run on a scope of their own (four-d-tags-scope.ts: the
 * params as `$1`…`$n`, a set of locals every tag shares), the text they make written to the
 * variable `outputResult`.
 *
 * As 4D does: an error in a value tag's expression leaves "`<!--#4DTEXT expr--> : ## error #
 * code`" in the output, a `4DIF`'s "`<!--#4DIF expr-->`: A Boolean expression was expected" in
 * place of its block, a `4DLOOP`'s "`<!--#4DLOOP expr-->`: description" in place of its (the
 * page says nothing of 4DEACH: its errors are written as 4DLOOP's); an error in `4DCODE` is a 4D
 * error, thrown. The result of a `<!--#4DHTML-->` or `<!--#4DEVAL-->` that holds tags is processed
 * again ("4D tags are interpreted recursively"), the `$4DHTML(…)` forms' never.
 *
 * Not here, for want of what they need: `4DLOOP` on a table's current selection (there are no
 * current records) and on an array or a pointer to one (arrays have no current element here, so
 * `arr{arr}` could not name it): both raise NotSupported. `4DINCLUDE` reads the project's folders,
 * from the project folder (`/PROJECT/`, "the default folder is the project folder"), and raises
 * NotSupported in a run that has none.
 */
import { textArg } from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import { catchable, toFourDError } from '../context/error-flow.js'
import { descend, type FsPath } from '../context/file-host.js'
import { iterate } from '../context/iterate.js'
import { isPointer } from '../pointers/pointer.js'
import { FourDArray } from '../arrays/four-d-array.js'
import { toText } from '../convert/conversions.js'
import { ERRORS } from '../errors/error-codes.js'
import { FourDError, raise } from '../errors/fourd-error.js'
import { parseCode, type CodeNode } from './four-d-tags-code.js'
import { runCode } from './four-d-tags-run-code.js'
import { TagScope, typeOfValue } from './four-d-tags-scope.js'
import { localName } from './four-d-tags-source.js'
import { mayHoldTags, parseTemplate, type TemplateNode } from './four-d-tags.js'
import type { CommandSpec } from './table.js'

/** How many times a value's tags are processed again, at most (a value that names itself). */
const MAX_REINTERPRETATIONS = 16

/** A project method's or a variable's bare name (`<!--#4DLOOP my_method-->`). */
const BARE_NAME = /^[A-Za-z_\u00C0-\uFFEF][A-Za-z0-9_\u00C0-\uFFEF]*$/

/**
 * The document being processed: the folder its `4DINCLUDE`s start from, and the `4DBASE` its tags
 * set so far (relative to that folder, "" for none), which an included document does not share.
 */
interface Page {
  readonly folder: FsPath
  base: string
  readonly included: boolean
}

/** The escaping of `4DTEXT`: HTML's special characters as entities. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  )

/**
 * The value of `attempt`'s code, or the 4D error it raised, which the tag writes in the output.
 * One 4D code may not catch (the budget's) goes on, and so does NotSupported: what cannot run
 * here is not an error of the template.
 */
function attempt<T>(code: () => T): { readonly value: T } | { readonly error: FourDError } {
  try {
    return { value: code() }
  } catch (e) {
    const error = toFourDError(e)
    if (!catchable(error) || error.errCode === ERRORS.NotSupported.errCode) throw error
    return { error }
  }
}

class Processor {
  readonly #codes = new Map<string, readonly CodeNode[]>()

  constructor(readonly scope: TagScope) {}

  render(nodes: readonly TemplateNode[], page: Page, depth: number): string {
    let out = ''
    for (const node of nodes) out += this.#node(node, page, depth)
    return out
  }

  #node(node: TemplateNode, page: Page, depth: number): string {
    switch (node.kind) {
      case 'text':
        return node.text
      case 'value': {
        const result = attempt(() =>
          toText(
            node.mode === 'eval'
              ? this.scope.evaluate(node.expression)
              : this.scope.value(node.expression),
          ),
        )
        // The page writes 4DEVAL's "expr-->: ## error", 4DTEXT's and 4DHTML's "expr--> : ## error".
        const gap = node.mode === 'eval' ? '' : ' '
        if ('error' in result) return `${node.source}${gap}: ## error # ${result.error.errCode}`
        if (node.mode === 'text') return escapeHtml(result.value)
        return node.dollar ? result.value : this.#again(result.value, page, depth)
      }
      case 'code': {
        let code = this.#codes.get(node.code)
        if (code === undefined) this.#codes.set(node.code, (code = parseCode(node.code)))
        runCode(this.scope, code)
        return ''
      }
      case 'script': {
        const result = attempt(() => toText(this.scope.rt.method(node.method, [node.param])))
        if ('error' in result) return `${node.source} : ## error # ${result.error.errCode}`
        // "If the string starts with the code character 1, it is considered as HTML".
        if (!result.value.startsWith('\u0001')) return escapeHtml(result.value)
        return this.#again(result.value.slice(1), page, depth)
      }
      case 'include':
        return this.#include(node.path, node.source, page, depth)
      case 'base':
        // "Pass the "WEBFOLDER" keyword to restore the default path (relative to the page)".
        page.base = /^WEBFOLDER$/i.test(node.path) ? '' : node.path.replace(/\/?$/, '/')
        return ''
      case 'if':
        for (const branch of node.branches) {
          const test = attempt(() => this.scope.test(branch.condition))
          if ('error' in test) return `${branch.source}: A Boolean expression was expected`
          if (test.value) return this.render(branch.body, page, depth)
        }
        return node.otherwise === null ? '' : this.render(node.otherwise, page, depth)
      case 'loop':
        return this.#loop(node, page, depth)
      case 'each':
        return this.#each(node, page, depth)
      case 'unclosed':
        return `${node.source}: ${node.expected} expected`
      default: {
        const unknown: never = node
        throw new Error(`process-4d-tags: unknown node kind ${(unknown as TemplateNode).kind}`)
      }
    }
  }

  /** A value's text, its tags processed again (only the `<!--#…-->` ones) while it has some. */
  #again(text: string, page: Page, depth: number): string {
    if (!mayHoldTags(text) || depth >= MAX_REINTERPRETATIONS) return text
    return this.render(parseTemplate(text, { dollar: false }), page, depth + 1)
  }

  #include(path: string, source: string, page: Page, depth: number): string {
    const files =
      this.scope.rt.files ??
      raise('NotSupported', { construct: '4DINCLUDE (this run has no project folders to read)' })
    const failed = `${source} :The document cannot be opened`
    // "the <!--#4DINCLUDE path--> calls can be made only at one level".
    if (page.included) return failed
    const read = attempt(() => {
      const at = descend(page.folder, page.base + path)
      return { at, text: files.readText(at) }
    })
    if ('error' in read) return failed
    const { at, text } = read.value
    // "only the body of the specified HTML page … is included"; all of a page that has none.
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(text)?.[1] ?? text
    const included: Page = {
      folder: { fs: at.fs, names: at.names.slice(0, -1) },
      base: '',
      included: true,
    }
    return this.render(parseTemplate(body, { dollar: true }), included, depth)
  }

  /**
   * `<!--#4DLOOP expression-->` while the expression is True; `<!--#4DLOOP method-->` as 4D
   * writes it: `method(0)` first, then `method(1)`, `method(2)`… while True. A bare name is
   * either; run as the second, a variable's value is only read once more.
   */
  #loop(node: TemplateNode & { kind: 'loop' }, page: Page, depth: number): string {
    const expression = node.expression
    if (expression.startsWith('['))
      raise('NotSupported', { construct: `${node.source} (a table's current selection)` })
    const bare = BARE_NAME.test(expression)
    const failed = (message: string) => `${node.source}: ${message}`
    let out = ''
    for (let n = bare ? 0 : 1; ; n++) {
      this.scope.pass()
      const test = attempt(() =>
        bare ? this.scope.callWith(expression, n) : this.scope.value(expression),
      )
      if ('error' in test) return failed(test.error.message)
      if (test.value instanceof FourDArray || isPointer(test.value))
        raise('NotSupported', {
          construct: `${node.source} (an array: arrays have no current element here)`,
        })
      if (typeof test.value !== 'boolean') return failed('Unexpected expression type')
      if (!test.value) return out
      if (n > 0) out += this.render(node.body, page, depth)
    }
  }

  /**
   * `<!--#4DEACH $item in expression-->`: a collection's elements, an entity selection's
   * entities, or an object's property names, their number fixed when the loop starts.
   */
  #each(node: TemplateNode & { kind: 'each' }, page: Page, depth: number): string {
    const failed = (message: string) => `${node.source}: ${message}`
    const variable = node.variable
    if (variable === null) return failed('4DEACH variable in expression expected')
    const items = attempt(() => iterate(this.scope.value(node.expression)))
    if ('error' in items) return failed(items.error.message)
    const { start, end, at } = items.value
    const local = localName(variable)
    let out = ''
    for (let i = start; i < end; i++) {
      this.scope.pass()
      const item = at(i)
      // "The item variable gets the same type as the first collection element": another type
      // (or Null where the type takes none) is an error, and the loop stops.
      if (i === start && local !== undefined) this.scope.locals.declare(local, typeOfValue(item))
      const set = attempt(() => this.scope.assign(variable, item))
      if ('error' in set) return failed(set.error.message)
      out += this.render(node.body, page, depth)
    }
    return out
  }
}

/** The project folder, where a template's `4DINCLUDE` paths start. */
const PROJECT_FOLDER: FsPath = { fs: 'PROJECT', names: [] }

export const PROCESS_4D_TAGS_COMMANDS: readonly CommandSpec[] = [
  {
    number: 816,
    name: 'PROCESS 4D TAGS',
    signature: '(inputTemplate: Text; outputResult: Text; ...params: any)',
    writes: [1],
    impl: (rt, input, output, ...params) => {
      const template = textArg('PROCESS 4D TAGS', 'inputTemplate', input)
      const result = outArg('PROCESS 4D TAGS', 'outputResult', output)
      const page: Page = { folder: PROJECT_FOLDER, base: '', included: false }
      const text = new Processor(new TagScope(rt, params)).render(
        parseTemplate(template, { dollar: true }),
        page,
        0,
      )
      // "If inputTemplate does not contain any 4D tags or produces an empty string, the contents
      // of outputResult is identical to that of inputTemplate."
      result.set(text === '' ? template : text)
    },
  },
]
