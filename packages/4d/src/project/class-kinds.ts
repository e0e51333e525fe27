/**
 * @module What a project's class file is to REST, from its `Class extends` and its constructor:
 * the datastore's class (`DataStoreImplementation`), a dataclass's DataClass, Entity or
 * EntitySelection class (by the name's suffix), a shared or session singleton, or none of those;
 * and the class functions it declares. The one reading of it that the catalog's declarations
 * (declarations.ts) and the functions run (project-functions.ts) share.
 */
import type { ClassFileNode, FunctionNode, MethodFileNode } from '../ast/files.js'
import type { ParamDeclNode } from '../ast/statements.js'
import { brokenFunction } from '../compile/compile-class.js'

/** What is read of a class file here (compile-project.ts's ProjectClass is one). */
export interface ClassUnit {
  readonly name: string
  readonly file: string
  /** `['DataClass']`, `['cs', 'Person']`; null for a class that extends none. */
  readonly superclass: readonly string[] | null
  readonly ast: ClassFileNode
}

/** What is read of a method file (compile-project.ts's ProjectMethod is one). */
export interface MethodUnit {
  readonly name: string
  readonly file: string
  readonly ast: MethodFileNode
}

export type OrdaKind = 'dataClass' | 'entity' | 'entitySelection'

/** Where a class's functions go: its FunctionsDef place. */
export type ClassPlace =
  | { readonly kind: 'dataStore' }
  | { readonly kind: OrdaKind; readonly dataClass: string }
  | { readonly kind: 'singleton'; readonly session: boolean }

// The ORDA class a class file extends, the kind of its functions and its name's suffix.
const ORDA_KINDS: Readonly<Record<string, { kind: OrdaKind; suffix: string }>> = {
  DataClass: { kind: 'dataClass', suffix: '' },
  Entity: { kind: 'entity', suffix: 'Entity' },
  EntitySelection: { kind: 'entitySelection', suffix: 'Selection' },
}

/**
 * The place of a class's functions; `orphan` for an ORDA class of no dataclass served (a trashed
 * table, a name that does not end as its kind's); undefined for a class REST does not reach.
 */
export function classPlace(
  c: ClassUnit,
  dataClasses: ReadonlySet<string>,
): ClassPlace | 'orphan' | undefined {
  const parent = c.superclass?.length === 1 ? c.superclass[0] : undefined
  if (parent === 'DataStoreImplementation') return { kind: 'dataStore' }
  const orda = parent === undefined ? undefined : ORDA_KINDS[parent]
  if (orda !== undefined) {
    if (!c.name.endsWith(orda.suffix)) return 'orphan'
    const dataClass = c.name.slice(0, c.name.length - orda.suffix.length)
    return dataClasses.has(dataClass) ? { kind: orda.kind, dataClass } : 'orphan'
  }
  const ctor = c.ast.members.find((m) => m.kind === 'Constructor')
  if (ctor === undefined || !(ctor.shared || ctor.session)) return undefined
  // 4D gives REST the shared and the session singletons (`$singleton`).
  return ctor.singleton || ctor.session ? { kind: 'singleton', session: ctor.session } : undefined
}

/** A function of a class file as REST sees it: its name, exposure and declared parameter types. */
export interface DeclaredFunction {
  readonly name: string
  readonly exposed: boolean
  readonly onHTTPGet: boolean
  readonly types: (index: number) => string | undefined
  readonly line: number
  readonly column: number
}

const typeName = (p: ParamDeclNode): string | undefined => p.type?.path.join('.')

function declaredTypes(
  params: readonly ParamDeclNode[] | null,
): (index: number) => string | undefined {
  if (params === null) return () => undefined
  const named = params.filter((p) => !p.variadic)
  const rest = params.find((p) => p.variadic)
  return (i) => {
    const p = named[i]
    return p !== undefined ? typeName(p) : rest === undefined ? undefined : typeName(rest)
  }
}

/** The class functions of a class file, a `Function` line that did not parse included. */
export function declaredFunctions(ast: ClassFileNode): DeclaredFunction[] {
  const out: DeclaredFunction[] = []
  for (const m of ast.members) {
    if (m.kind === 'Function' && m.functionKind === 'plain') out.push(fromNode(m))
    else if (m.kind === 'Unparsed') {
      // Declared all the same: a call answers its syntax error (compile-class.ts), not "no code".
      const broken = brokenFunction(m)
      if (broken?.kind === 'plain') {
        const modifiers = m.text.slice(0, m.text.search(/\bFunction\b/i)).toLowerCase()
        out.push({
          name: broken.name,
          exposed: /\bexposed\b/.test(modifiers),
          onHTTPGet: /\bonhttpget\b/.test(modifiers),
          types: () => undefined,
          line: m.loc.start.line,
          column: m.loc.start.column,
        })
      }
    }
  }
  return out
}

const fromNode = (m: FunctionNode): DeclaredFunction => ({
  name: m.name,
  exposed: m.exposed,
  onHTTPGet: m.onHTTPGet,
  types: declaredTypes(m.params),
  line: m.loc.start.line,
  column: m.loc.start.column,
})
