/**
 * @module A template of 4D transformation tags (docs/Tags/transformation-tags.md) read into a
 * tree: text, the tags that insert a value (`<!--#4DTEXT expr-->`, `4DHTML`, `4DEVAL`, and their
 * `$4DTEXT(expr)` forms), the ones that run something (`4DCODE`, `4DSCRIPT/`), `4DINCLUDE` and
 * `4DBASE`, and the blocks `4DIF`…`4DENDIF`, `4DLOOP`…`4DENDLOOP`, `4DEACH`…`4DENDEACH`.
 * process-4d-tags.ts runs the tree; reading it first keeps the blocks' nesting in one place.
 *
 * What is not a tag stays text, as 4D leaves any other HTML comment: an unknown `<!--#…-->`, one
 * never closed by `-->`, a `$4DTEXT` with no matching `)`, and a closing tag (`4DENDIF`, `4DELSE`)
 * with no block open. A block never closed is an `unclosed` node, which takes the rest of the
 * template: 4D inserts "`<!--#4DIF expression-->`: 4DENDIF expected" in its place.
 *
 * The nodes are immutable and tagged by `kind`; `childrenOf` is the exhaustive switch that lists
 * where each kind holds nodes, so that a new kind does not compile until it is listed.
 */
import { closingParen } from './four-d-tags-source.js'

/** How a value tag writes its value: `text` escapes HTML, `html` and `eval` do not. */
export type ValueMode = 'text' | 'html' | 'eval'

/** `<!--#4DTEXT expr-->` or `$4DTEXT(expr)`; `dollar` for the second, never reinterpreted. */
export interface ValueTag {
  readonly kind: 'value'
  readonly mode: ValueMode
  readonly expression: string
  /** The tag as written, which an error message repeats. */
  readonly source: string
  readonly dollar: boolean
}

export interface IfBranch {
  readonly condition: string
  readonly source: string
  readonly body: readonly TemplateNode[]
}

export type TemplateNode =
  | { readonly kind: 'text'; readonly text: string }
  | ValueTag
  | { readonly kind: 'code'; readonly code: string }
  | {
      readonly kind: 'script'
      readonly method: string
      readonly param: string
      readonly source: string
    }
  | { readonly kind: 'include'; readonly path: string; readonly source: string }
  | { readonly kind: 'base'; readonly path: string }
  | {
      readonly kind: 'if'
      /** `4DIF` then each `4DELSEIF`, in order. */
      readonly branches: readonly IfBranch[]
      readonly otherwise: readonly TemplateNode[] | null
    }
  | {
      readonly kind: 'loop'
      readonly expression: string
      readonly source: string
      readonly body: readonly TemplateNode[]
    }
  | {
      readonly kind: 'each'
      /** `$item` of `<!--#4DEACH $item in expression-->`; null when the tag is not of that form. */
      readonly variable: string | null
      readonly expression: string
      readonly source: string
      readonly body: readonly TemplateNode[]
    }
  | { readonly kind: 'unclosed'; readonly source: string; readonly expected: string }

/** The nodes a node holds, for a pass over the whole tree. */
export function childrenOf(node: TemplateNode): readonly TemplateNode[] {
  switch (node.kind) {
    case 'text':
    case 'value':
    case 'code':
    case 'script':
    case 'include':
    case 'base':
    case 'unclosed':
      return []
    case 'if':
      return [...node.branches.flatMap((b) => b.body), ...(node.otherwise ?? [])]
    case 'loop':
    case 'each':
      return node.body
    default: {
      const unknown: never = node
      throw new Error(`four-d-tags: unknown node kind ${(unknown as TemplateNode).kind}`)
    }
  }
}

/** A piece of the template: text, or a `<!--#…-->` comment split into its name and the rest. */
type Token = { readonly kind: 'text'; readonly text: string } | TagToken | ValueTag

interface TagToken {
  readonly kind: 'tag'
  readonly name: string
  readonly rest: string
  readonly source: string
}

const MODES: Readonly<Record<string, ValueMode>> = {
  '4DTEXT': 'text',
  '4DHTML': 'html',
  '4DEVAL': 'eval',
}

/** `$4DTEXT(`, `$4DHTML(`, `$4DEVAL(`, with spaces allowed before the parenthesis. */
const DOLLAR = /\$(4DTEXT|4DHTML|4DEVAL)[ \t]*\(/giy
const NEXT = /<!--#|\$/g

export interface ParseOptions {
  /**
   * Whether `$4DTEXT(…)` and its kin are tags. Not in a value 4D reinterprets (the result of a
   * 4DHTML): "$4dtag processing does not interpret 4D tags recursively".
   */
  readonly dollar: boolean
}

function tokenize(template: string, options: ParseOptions): Token[] {
  const tokens: Token[] = []
  let text = ''
  const flush = () => {
    if (text !== '') tokens.push({ kind: 'text', text })
    text = ''
  }
  let i = 0
  while (i < template.length) {
    if (template.startsWith('<!--#', i)) {
      const close = template.indexOf('-->', i + 5)
      const tag = close < 0 ? undefined : commentTag(template.slice(i, close + 3))
      if (tag !== undefined) {
        flush()
        tokens.push(tag)
        i = close + 3
        continue
      }
    } else if (options.dollar && template[i] === '$') {
      DOLLAR.lastIndex = i
      const match = DOLLAR.exec(template)
      const open = match === null ? -1 : i + match[0].length - 1
      const end = open < 0 ? -1 : closingParen(template, open)
      if (match !== null && end >= 0) {
        flush()
        const mode = MODES[match[1]!.toUpperCase()]!
        const source = template.slice(i, end + 1)
        tokens.push({
          kind: 'value',
          mode,
          expression: template.slice(open + 1, end).trim(),
          source,
          dollar: true,
        })
        i = end + 1
        continue
      }
    }
    // Text up to the next place a tag may start.
    NEXT.lastIndex = i + 1
    const next = NEXT.exec(template)?.index ?? template.length
    text += template.slice(i, next)
    i = next
  }
  flush()
  return tokens
}

/** The names of the tags; anything else in `<!--#…-->` is an ordinary comment. */
const TAGS = new Set([
  '4DTEXT',
  '4DHTML',
  '4DEVAL',
  '4DCODE',
  '4DSCRIPT',
  '4DINCLUDE',
  '4DBASE',
  '4DIF',
  '4DELSEIF',
  '4DELSE',
  '4DENDIF',
  '4DLOOP',
  '4DENDLOOP',
  '4DEACH',
  '4DENDEACH',
])

/** `<!--#4DIF (x>1)-->` → name `4DIF`, rest `(x>1)`; undefined when it is not a tag. */
function commentTag(source: string): Token | undefined {
  const inner = source.slice(5, -3)
  const name = /^4D[A-Za-z]+/i.exec(inner)?.[0].toUpperCase()
  if (name === undefined || !TAGS.has(name)) return undefined
  const rest = inner.slice(name.length)
  const mode = MODES[name]
  if (mode !== undefined)
    return { kind: 'value', mode, expression: rest.trim(), source, dollar: false }
  // "a <!--#4DCODE sequence … followed by a space, a CR or a LF character".
  if (name === '4DCODE' && rest !== '' && !/^\s/.test(rest)) return undefined
  if (name === '4DSCRIPT' && !rest.startsWith('/')) return undefined
  return { kind: 'tag', name, rest, source }
}

/** The tags that end a block, by the tag that opens it. */
const CLOSERS: Readonly<Record<string, readonly string[]>> = {
  '4DIF': ['4DELSEIF', '4DELSE', '4DENDIF'],
  '4DLOOP': ['4DENDLOOP'],
  '4DEACH': ['4DENDEACH'],
}

/** Reads the tokens into nodes, block by block. */
class TreeReader {
  #at = 0

  constructor(private readonly tokens: readonly Token[]) {}

  /**
   * The nodes up to one of `closers` (which is consumed and returned), or to the end (`null`).
   * Another closing tag, with no block of its own open, is text.
   */
  nodes(closers: readonly string[]): { nodes: TemplateNode[]; closer: TagToken | null } {
    const nodes: TemplateNode[] = []
    while (this.#at < this.tokens.length) {
      const token = this.tokens[this.#at++]!
      if (token.kind !== 'tag') {
        nodes.push(token)
        continue
      }
      if (closers.includes(token.name)) return { nodes, closer: token }
      nodes.push(this.#node(token))
    }
    return { nodes, closer: null }
  }

  #node(tag: TagToken): TemplateNode {
    const rest = tag.rest.trim()
    switch (tag.name) {
      case '4DCODE':
        return { kind: 'code', code: tag.rest }
      case '4DSCRIPT': {
        // `/Method/Param`: the method gets "/Param", as the page's example says.
        const slash = tag.rest.indexOf('/', 1)
        const method = (slash < 0 ? tag.rest.slice(1) : tag.rest.slice(1, slash)).trim()
        const param = slash < 0 ? '' : tag.rest.slice(slash)
        return { kind: 'script', method, param, source: tag.source }
      }
      case '4DINCLUDE':
        return { kind: 'include', path: rest, source: tag.source }
      case '4DBASE':
        return { kind: 'base', path: rest }
      case '4DIF':
        return this.#if(tag)
      case '4DLOOP':
      case '4DEACH':
        return this.#loop(tag, rest)
      default:
        // A closing tag outside its block.
        return { kind: 'text', text: tag.source }
    }
  }

  #if(tag: TagToken): TemplateNode {
    const branches: IfBranch[] = []
    let opener = tag
    for (;;) {
      const { nodes, closer } = this.nodes(CLOSERS['4DIF']!)
      branches.push({ condition: opener.rest.trim(), source: opener.source, body: nodes })
      if (closer === null) return { kind: 'unclosed', source: tag.source, expected: '4DENDIF' }
      if (closer.name === '4DENDIF') return { kind: 'if', branches, otherwise: null }
      if (closer.name === '4DELSE') {
        const last = this.nodes(['4DENDIF'])
        if (last.closer === null)
          return { kind: 'unclosed', source: tag.source, expected: '4DENDIF' }
        return { kind: 'if', branches, otherwise: last.nodes }
      }
      opener = closer
    }
  }

  #loop(tag: TagToken, rest: string): TemplateNode {
    const end = tag.name === '4DLOOP' ? '4DENDLOOP' : '4DENDEACH'
    const { nodes: body, closer } = this.nodes([end])
    if (closer === null) return { kind: 'unclosed', source: tag.source, expected: end }
    if (tag.name === '4DLOOP') return { kind: 'loop', expression: rest, source: tag.source, body }
    const match = /^(\S+)\s+in\s+([\s\S]+)$/i.exec(rest)
    return {
      kind: 'each',
      variable: match?.[1] ?? null,
      expression: match?.[2]?.trim() ?? rest,
      source: tag.source,
      body,
    }
  }
}

/** The tree of a template. */
export function parseTemplate(template: string, options: ParseOptions): readonly TemplateNode[] {
  return new TreeReader(tokenize(template, options)).nodes([]).nodes
}

/** Whether a text holds anything a reinterpretation could transform (its `<!--#` tags). */
export const mayHoldTags = (text: string): boolean => text.includes('<!--#')
