/**
 * @module What 4D's compiler would say of a project's code that parses and runs, said as warnings
 * by `entistore check` (the code runs as written):
 * - `ds.name` where the datastore has no dataclass, no function of its DataStore class and no
 *   member of that name (`ds.noData`): the code fails when it reaches it;
 * - a bare name (a process variable) in a function or method that has a local of that name
 *   (`total` beside `$total`), and that no code declares as a process variable or names as a
 *   project method: a `$` forgotten, the value kept from call to call of the process;
 * - QodlyScript in a 4D file, on a line that does not parse: `!=`, `==`, a parameter or a `var`
 *   without `$`, `end` for a block's end. The syntax error is reported as ever; the warning says
 *   what 4D writes instead.
 */
import type { Node } from '../ast/nodes.js'
import type { ClassFileNode, MethodFileNode } from '../ast/files.js'
import { walk } from '../ast/walk.js'
import type { Session } from '../compile/session.js'
import { DATASTORE_MEMBERS } from '../orda/members/datastore-members.js'
import { classPlace, type ClassUnit, type MethodUnit } from './class-kinds.js'

/** What the warnings check names against. */
export interface ProjectNames {
  readonly dataClasses: ReadonlySet<string>
  readonly classes: readonly ClassUnit[]
  readonly methods: readonly MethodUnit[]
}

/** Adds the warnings of each class and method file to its session. */
export function reportProjectWarnings(
  names: ProjectNames,
  sessionOf: (file: string) => Session,
): void {
  const dsNames = datastoreNames(names)
  const methods = new Set(names.methods.map((m) => m.name.toLowerCase()))
  const declared = processVariables(names)
  const units = [...names.classes, ...names.methods]
  for (const unit of units) {
    const session = sessionOf(unit.file)
    unknownDatastoreMembers(unit.ast, dsNames, session)
    forgottenDollars(unit.ast, methods, declared, session)
    qodlyScript(unit.ast, session)
  }
}

/** What `ds.` may be followed by: dataclasses, DataStore functions, the datastore's members. */
function datastoreNames(names: ProjectNames): Set<string> {
  const out = new Set<string>([...names.dataClasses, ...DATASTORE_MEMBERS.keys()])
  for (const c of names.classes) {
    const place = classPlace(c, names.dataClasses)
    if (place === undefined || place === 'orphan' || place.kind !== 'dataStore') continue
    for (const m of c.ast.members) if (m.kind === 'Function') out.add(m.name)
  }
  return out
}

function unknownDatastoreMembers(
  file: ClassFileNode | MethodFileNode,
  known: ReadonlySet<string>,
  session: Session,
): void {
  walk(file, (node) => {
    if (node.kind === 'Member' && node.object.kind === 'Ds' && !known.has(node.name))
      session.warning(
        'unknown-member',
        `ds.${node.name} is no dataclass, function or member of the datastore: the code fails when it reaches it`,
        node.loc,
      )
  })
}

/** The process variables some code declares (`var total : Real`, `C_REAL(total)`). */
function processVariables(names: ProjectNames): Set<string> {
  const out = new Set<string>()
  for (const unit of [...names.classes, ...names.methods])
    walk(unit.ast, (node) => {
      if (node.kind === 'Var')
        for (const n of node.names) if (n.kind === 'Name') out.add(n.name.toLowerCase())
      if (node.kind === 'Command' && /^C_/i.test(node.name))
        for (const a of node.args ?? []) if (a.kind === 'Name') out.add(a.name.toLowerCase())
    })
  return out
}

/** The bodies of a file: each member of a class, the whole of a method. */
function bodiesOf(file: ClassFileNode | MethodFileNode): readonly Node[] {
  return file.kind === 'MethodFile' ? [file] : file.members
}

function forgottenDollars(
  file: ClassFileNode | MethodFileNode,
  methods: ReadonlySet<string>,
  declared: ReadonlySet<string>,
  session: Session,
): void {
  for (const body of bodiesOf(file)) {
    const locals = new Set<string>()
    const bare: { name: string; node: Node }[] = []
    walk(body, (node) => {
      if (node.kind === 'Local') locals.add(node.name.toLowerCase())
      else if (node.kind === 'Name') bare.push({ name: node.name, node })
    })
    const said = new Set<string>()
    for (const { name, node } of bare) {
      const key = name.toLowerCase()
      if (!locals.has(key) || methods.has(key) || declared.has(key) || said.has(key)) continue
      said.add(key)
      session.warning(
        'process-variable',
        `"${name}" is a process variable here, beside the local "$${name}": a "$" forgotten? (its value stays from call to call)`,
        node.loc,
      )
    }
  }
}

// What QodlyScript writes that 4D does not, and what 4D writes.
const QODLY_FORMS: readonly (readonly [RegExp, string])[] = [
  [/[^!=<>:]!=[^=]/, '"!=" is QodlyScript: 4D writes "#"'],
  [/[^=!<>:]==[^=]/, '"==" is QodlyScript: 4D writes "="'],
  [
    /^\s*(?:exposed\s+|local\s+)*function\b[^(]*\(\s*[A-Za-z_]\w*\s*:/i,
    'a parameter without "$" is QodlyScript: 4D writes "$name : Type"',
  ],
  [
    /^\s*var\s+[A-Za-z_]\w*\s*[:,=]/i,
    'a "var" without "$" declares a process variable in 4D; QodlyScript declares a local so',
  ],
  [/^\s*end\s*$/i, '"end" is QodlyScript: 4D ends each block by its name ("End if", "End for"…)'],
]

function qodlyScript(file: ClassFileNode | MethodFileNode, session: Session): void {
  walk(file, (node) => {
    if (node.kind !== 'Unparsed') return
    const found = QODLY_FORMS.find(([pattern]) => pattern.test(node.text))
    if (found !== undefined)
      session.warning('qodlyscript', `QodlyScript in a 4D file: ${found[1]}`, node.loc)
  })
}
