/**
 * @module Permissions: the embedder's `authorize(session, action, target)` hook, asked once per
 * request for each dataclass and attribute the request touches (answers are kept for the request).
 *
 * - A dataclass is asked first (`{ dataClass }`); an attribute (`{ dataClass, attribute }`) only once
 *   its dataclass is allowed the same action. Attributes are asked `read`, `update` and `describe`.
 * - A relation is read as its target: reading `employer` needs read on the attribute and on the
 *   related dataclass. An alias is read as its path.
 * - Refused: 403 with 4D's codes (1557–1561, 1607–1609). An attribute the session may not read is
 *   left out of every reply, and 1607 when a request names it (`$attributes`, `$expand`, the path,
 *   `$filter`, `$orderby`, `$compute`, `$distinct`, a lookup).
 */
import {
  fail,
  ownerText,
  parseCached,
  parseOrderBy,
  type AttributeDef,
  type DataClassDef,
  type FilterNode,
  type FunctionInfo,
  type FunctionKind,
  type OrderByItemNode,
  type SchemaDef,
  type Session,
} from '@entistore/core'

/** What a request does to a dataclass or an attribute. */
export type PermissionAction = 'read' | 'create' | 'update' | 'delete' | 'execute' | 'describe'

/**
 * What it does it to: a dataclass, or one of its attributes; for `execute`, a function. A function
 * of a dataclass, its entities or its selections is asked with its dataclass (`{ dataClass:
 * 'Employee', function: 'raise', applyTo: 'entity' }`, after `{ dataClass: 'Employee' }` itself); a
 * datastore function with `dataClass: ''` and `applyTo: 'dataStore'`; a singleton's with
 * `dataClass: ''`, `singleton` and `applyTo: 'singleton'`.
 */
export interface PermissionTarget {
  readonly dataClass: string
  readonly attribute?: string
  /** The function called (`execute`). */
  readonly function?: string
  /** What the function applies to (`execute`). */
  readonly applyTo?: FunctionKind
  /** The singleton whose function is called (`execute`). */
  readonly singleton?: string
}

/**
 * Whether `session` may do `action` on `target`: true allows, anything else refuses. Synchronous,
 * like the whole handler; `sessionUser(session)` is the user logged in, if any.
 */
export type Authorize = (
  session: Session,
  action: PermissionAction,
  target: PermissionTarget,
) => boolean

/** One request's answers of `authorize`. */
export class Permissions {
  readonly #authorize: Authorize
  readonly #session: Session
  readonly #schema: SchemaDef
  readonly #answers = new Map<string, boolean>()

  constructor(authorize: Authorize, session: Session, schema: SchemaDef) {
    this.#authorize = authorize
    this.#session = session
    this.#schema = schema
  }

  /** Whether the session may do `action` on the dataclass (and then on the attribute). */
  may(action: PermissionAction, dataClass: string, attribute?: string): boolean {
    const dcKey = `${action}\u0000${dataClass}`
    let dcOk = this.#answers.get(dcKey)
    if (dcOk === undefined) {
      dcOk = this.#authorize(this.#session, action, { dataClass }) === true
      this.#answers.set(dcKey, dcOk)
    }
    if (!dcOk || attribute === undefined) return dcOk
    const key = `${dcKey}\u0000${attribute}`
    let ok = this.#answers.get(key)
    if (ok === undefined) {
      ok = this.#authorize(this.#session, action, { dataClass, attribute }) === true
      this.#answers.set(key, ok)
    }
    return ok
  }

  /** Whether replies may show `attr` of `dc`: readable, and so is what a relation or alias reads. */
  mayRead(dc: DataClassDef, attr: AttributeDef, depth = 0): boolean {
    if (!this.may('read', dc.name, attr.name)) return false
    if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities')
      return this.may('read', attr.target)
    if (attr.kind === 'alias') return depth > 8 || this.#pathReadable(dc, attr.path, depth + 1)
    return true
  }

  /** Whether the catalog may show `attr` of `dc` (a relation: and its target dataclass). */
  mayDescribe(dc: DataClassDef, attr: AttributeDef): boolean {
    if (!this.may('describe', dc.name, attr.name)) return false
    if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities')
      return this.may('describe', attr.target)
    return true
  }

  /** Refuses (1557, 1558, 1559, 1560, 1609) unless the session may do `action` on the dataclass. */
  need(action: Exclude<PermissionAction, 'execute'>, dataClass: string): void {
    if (this.may(action, dataClass)) return
    switch (action) {
      case 'read':
        return fail('ReadRefused', [dataClass])
      case 'update':
        return fail('UpdateRefused', [dataClass])
      case 'create':
        return fail('CreateRefused', [dataClass])
      case 'delete':
        return fail('DeleteRefused', [dataClass])
      case 'describe':
        return fail('DescribeRefused', [dataClass])
    }
  }

  /**
   * Whether the session may call `fn`: for a function of a dataclass (its entities, its
   * selections), `execute` on the dataclass and then on the function; for a datastore or singleton
   * function, on the function.
   */
  mayExecute(fn: FunctionInfo): boolean {
    const onDataClass = fn.kind !== 'dataStore' && fn.kind !== 'singleton'
    if (onDataClass && !this.may('execute', fn.owner)) return false
    const key = `execute\u0000${fn.kind}\u0000${fn.owner}\u0000${fn.name}`
    let ok = this.#answers.get(key)
    if (ok === undefined) {
      const target: PermissionTarget = onDataClass
        ? { dataClass: fn.owner, function: fn.name, applyTo: fn.kind }
        : fn.kind === 'singleton'
          ? { dataClass: '', singleton: fn.owner, function: fn.name, applyTo: fn.kind }
          : { dataClass: '', function: fn.name, applyTo: fn.kind }
      ok = this.#authorize(this.#session, 'execute', target) === true
      this.#answers.set(key, ok)
    }
    return ok
  }

  /** Refuses with 1561 unless the session may call `fn`. */
  needExecute(fn: FunctionInfo): void {
    if (!this.mayExecute(fn)) fail('ExecuteRefused', [fn.name, ownerText(fn)])
  }

  /** Refuses with 1608 unless the session may update `attribute` of `dataClass`. */
  needUpdate(dataClass: string, attribute: string): void {
    if (!this.may('update', dataClass, attribute))
      fail('AttributeUpdateRefused', [attribute, dataClass])
  }

  /**
   * Refuses a named attribute the session may not read: 1607 for the attribute, 1557 for the
   * dataclass a relation leads to. An alias is checked along its path.
   */
  needRead(dc: DataClassDef, attr: AttributeDef, depth = 0): void {
    if (!this.may('read', dc.name, attr.name)) fail('AttributeReadRefused', [attr.name, dc.name])
    if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities')
      this.need('read', attr.target)
    else if (attr.kind === 'alias' && depth <= 8) this.needPath(dc, attr.path, depth + 1)
  }

  /**
   * Checks every step of an attribute path from `dc` (`employer.name`, `staff.salary`,
   * `extra.city`): each attribute read, each relation's dataclass read. Names that are not
   * attributes are left to the code that reports them (1500).
   */
  needPath(dc: DataClassDef, steps: readonly string[], depth = 0): void {
    let def: DataClassDef | undefined = dc
    for (const step of steps) {
      const attr: AttributeDef | undefined = def?.attributesByName.get(step)
      if (!def || !attr) return
      this.needRead(def, attr, depth)
      def =
        attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities'
          ? this.#schema.byName.get(attr.target)
          : undefined
    }
  }

  /** Checks the attributes a `$filter` (with its `order by`) reads. */
  needFilter(dc: DataClassDef, text: string, source: string): void {
    const query = parseCached(text, source)
    if (query.filter) this.#needNode(dc, query.filter)
    this.#needOrder(dc, query.orderBy)
  }

  /** Checks the attributes an `$orderby` reads. */
  needOrderBy(dc: DataClassDef, text: string, source: string): void {
    this.#needOrder(dc, parseOrderBy(text, source))
  }

  #needOrder(dc: DataClassDef, items: readonly OrderByItemNode[]): void {
    for (const item of items)
      this.needPath(
        dc,
        item.path.segments.map((s) => s.name),
      )
  }

  #needNode(dc: DataClassDef, node: FilterNode): void {
    switch (node.kind) {
      case 'Comparison':
        return this.needPath(
          dc,
          node.path.segments.map((s) => s.name),
        )
      case 'Logical':
        for (const operand of node.operands) this.#needNode(dc, operand)
        return
      case 'Not':
        return this.#needNode(dc, node.operand)
    }
  }

  #pathReadable(dc: DataClassDef, steps: readonly string[], depth: number): boolean {
    let def: DataClassDef | undefined = dc
    for (const step of steps) {
      const attr: AttributeDef | undefined = def?.attributesByName.get(step)
      if (!def || !attr) return true
      if (!this.mayRead(def, attr, depth)) return false
      def =
        attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities'
          ? this.#schema.byName.get(attr.target)
          : undefined
    }
    return true
  }
}
